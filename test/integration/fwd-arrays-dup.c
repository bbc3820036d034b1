// Forward mode with arrays passed by pointer: read-only inputs with shadow
// arrays, output arrays whose shadows receive the tangents (overwriting
// whatever they held), in/out arrays (y += a x), and the primal outputs
// still written by the derivative call.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 9

/* A numerically stable softmax: y = exp(x - max) / sum. */
void softmax(const double *x, double *y, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > m)
      m = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    y[i] = exp(x[i] - m);
    s += y[i];
  }
  for (int i = 0; i < n; ++i)
    y[i] /= s;
}

double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

/* y <- a x + y: y is read and written. */
void axpy(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

/* Norm through a pointer to the middle of an array (negative offsets). */
double centered_norm(const double *mid, int half) {
  double s = 0.0;
  for (int i = -half; i <= half; ++i)
    s += mid[i] * mid[i] * (1.0 + 0.1 * i);
  return sqrt(s);
}

static void g_softmax(double *x, double *y, void *c) { (void)c; softmax(x, y, N); }
static double g_centered(double *x, void *c) { (void)c; return centered_norm(x + N / 2, N / 2); }

int main(void) {
  char nm[96];
  double x[N], dx[N], dx_copy[N], y[N], dy[N], want[N], yref[N];
  for (int i = 0; i < N; ++i) {
    x[i] = sin(1.7 * i) * 2.0;
    dx[i] = dx_copy[i] = cos(0.9 * i + 0.3);
    y[i] = -1.0;
    dy[i] = 999.0; /* must be overwritten, not accumulated into */
  }
  __enzyme_fwddiff((void *)softmax, enzyme_dup, x, dx, enzyme_dup, y, dy, N);
  gc_fd_dir_vec(g_softmax, x, dx, N, N, NULL, want);
  softmax(x, yref, N);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "softmax dy[%d] fd", i);
    check_close(nm, dy[i], want[i], GC_RTOL_D, GC_ATOL_D);
    snprintf(nm, sizeof nm, "softmax primal y[%d]", i);
    check_close(nm, y[i], yref[i], 1e-15, 0.0);
    snprintf(nm, sizeof nm, "softmax dx[%d] untouched", i);
    check_close(nm, dx[i], dx_copy[i], 0.0, 0.0);
  }
  /* Softmax tangents sum to zero (the outputs sum to one). */
  double sum = 0.0;
  for (int i = 0; i < N; ++i)
    sum += dy[i];
  check_close("softmax sum dy = 0", sum, 0.0, 0.0, 1e-14);

  /* dot with both sides active: d = da.b + a.db. */
  double b[N], db[N];
  for (int i = 0; i < N; ++i) {
    b[i] = 0.5 - 0.1 * i;
    db[i] = (i % 3) - 1.0;
  }
  double d = __enzyme_fwddiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, b, db, N);
  check_close("dot both dup", d, dot(dx, b, N) + dot(x, db, N), 1e-13, 1e-14);
  /* The same array as both operands: d(x.x) = 2 x.dx. */
  d = __enzyme_fwddiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, x, dx, N);
  check_close("dot aliased", d, 2.0 * dot(x, dx, N), 1e-13, 1e-14);
  /* Only b active. */
  d = __enzyme_fwddiff((void *)dot, enzyme_const, x, enzyme_dup, b, db, N);
  check_close("dot a const", d, dot(x, db, N), 1e-13, 1e-14);

  /* axpy: the shadow of y is read (its tangent in) and written. */
  double a = 1.75, da = -0.5, yy[N], dyy[N], dyy_in[N];
  for (int i = 0; i < N; ++i) {
    yy[i] = 0.2 * i;
    dyy[i] = dyy_in[i] = 0.3 - 0.05 * i;
  }
  __enzyme_fwddiff((void *)axpy, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, yy, dyy, N);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "axpy dy[%d] exact", i);
    check_close(nm, dyy[i], da * x[i] + a * dx[i] + dyy_in[i], 1e-15, 1e-15);
    snprintf(nm, sizeof nm, "axpy y[%d] primal", i);
    check_close(nm, yy[i], a * x[i] + 0.2 * i, 1e-15, 1e-15);
  }

  d = __enzyme_fwddiff((void *)centered_norm, enzyme_dup, x + N / 2, dx + N / 2, N / 2);
  check_close("centered_norm fd", d, gc_fd_dir(g_centered, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);
  return gradcheck_exit();
}
