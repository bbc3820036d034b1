// enzyme_dupnoneed: as dup, but the primal result is not needed, so the
// derivative may skip producing it.  Only the tangents are checked (never the
// primal output).  Covers an output array written once, an output array that
// the function reads back (the primal values are still needed internally),
// and dupnoneed on an input scalar and an input array.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 7

/* y[i] = exp(x[i]) * s. */
void scale_exp(const double *x, double s, double *y) {
  for (int i = 0; i < N; ++i)
    y[i] = exp(x[i]) * s;
}

/* y is a recurrence through memory: y[i] reads y[i-1] back. */
void recur(const double *x, double *y) {
  y[0] = x[0];
  for (int i = 1; i < N; ++i)
    y[i] = sin(y[i - 1]) + x[i] * y[i - 1];
}

static void g_scale_exp(double *x, double *y, void *c) { scale_exp(x, *(double *)c, y); }
static void g_recur(double *x, double *y, void *c) { (void)c; recur(x, y); }

int main(void) {
  char nm[96];
  double x[N], dx[N], y[N], dy[N], want[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.2 * i - 0.6;
    dx[i] = 1.0 / (1.0 + i);
    dy[i] = 77.0;
  }
  double s = 1.5;
  /* y dupnoneed, s const. */
  __enzyme_fwddiff((void *)scale_exp, enzyme_dup, x, dx, enzyme_const, s, enzyme_dupnoneed, y, dy);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "scale_exp dy[%d] exact", i);
    check_close(nm, dy[i], exp(x[i]) * dx[i] * s, 1e-15, 0.0);
  }
  /* s dupnoneed too (a scalar input: the primal is still passed). */
  __enzyme_fwddiff((void *)scale_exp, enzyme_dup, x, dx, enzyme_dupnoneed, s, 2.0,
                   enzyme_dupnoneed, y, dy);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "scale_exp (s active) dy[%d] exact", i);
    check_close(nm, dy[i], exp(x[i]) * (dx[i] * s + 2.0), 1e-15, 0.0);
  }

  for (int i = 0; i < N; ++i)
    dy[i] = -5.0;
  __enzyme_fwddiff((void *)recur, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy);
  gc_fd_dir_vec(g_recur, x, dx, N, N, NULL, want);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "recur dy[%d] fd", i);
    check_close(nm, dy[i], want[i], GC_RTOL_D, GC_ATOL_D);
  }

  /* The input array as dupnoneed: its tangents still flow. */
  for (int i = 0; i < N; ++i)
    dy[i] = 0.0;
  __enzyme_fwddiff((void *)recur, enzyme_dupnoneed, x, dx, enzyme_dup, y, dy);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "recur (x dupnoneed) dy[%d] fd", i);
    check_close(nm, dy[i], want[i], GC_RTOL_D, GC_ATOL_D);
  }
  double sc = s;
  gc_fd_dir_vec(g_scale_exp, x, dx, N, N, &sc, want);
  __enzyme_fwddiff((void *)scale_exp, enzyme_dup, x, dx, enzyme_const, s, enzyme_dupnoneed, y, dy);
  check_close("scale_exp dy[3] fd", dy[3], want[3], GC_RTOL_D, GC_ATOL_D);
  return gradcheck_exit();
}
