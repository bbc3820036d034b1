// Requests on functions that return pointers or integers.  A returned
// pointer's derivative is its shadow: a pointer into the input gives the
// same offset into the shadow input; a freshly allocated array gives a
// shadow array holding the tangents.  A pointer to fresh memory stored
// through a `double **` output gives the shadow pointer in the shadow slot.
// An int result has no tangent: the request is declared void, or returns the
// primal int with enzyme_primal_return.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

double *__enzyme_fwddiff_ptr(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
int __enzyme_fwddiff_int(void *, ...);

#define N 6

/* Scales x[k] in place and returns a pointer to it. */
double *scale_at(double *x, int k) {
  x[k] = x[k] * x[k] * 3.0;
  return x + k;
}

/* Returns a pointer to the largest element (the choice is data-dependent). */
double *argmax(double *x, int n) {
  double *best = x;
  for (int i = 1; i < n; ++i)
    if (x[i] > *best)
      best = x + i;
  return best;
}

/* A fresh array of powers of x. */
double *make_powers(double x, int n) {
  double *r = (double *)malloc(sizeof(double) * (size_t)n);
  double p = 1.0;
  for (int i = 0; i < n; ++i) {
    r[i] = p;
    p *= x;
  }
  return r;
}

/* The same, handed out through an output pointer. */
void make_powers_out(double x, int n, double **out) {
  double *r = (double *)malloc(sizeof(double) * (size_t)n);
  double p = 1.0;
  for (int i = 0; i < n; ++i) {
    r[i] = p;
    p *= x;
  }
  *out = r;
}

/* Writes y = x^2 and returns how many x are positive. */
int count_positive(const double *x, double *y, int n) {
  int c = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[i];
    if (x[i] > 0.0)
      ++c;
  }
  return c;
}

int main(void) {
  char nm[96];
  double x[N] = {0.5, -1.0, 2.5, 0.25, 1.75, -3.0}, dx[N] = {1, 2, 3, 4, 5, 6};

  double xs[N], dxs[N];
  memcpy(xs, x, sizeof xs);
  memcpy(dxs, dx, sizeof dxs);
  double *dp = __enzyme_fwddiff_ptr((void *)scale_at, enzyme_dup, xs, dxs, 2);
  check_true("scale_at returns dx + 2", dp == dxs + 2);
  check_close("scale_at shadow value", dxs[2], 6.0 * x[2] * dx[2], 1e-15, 0.0);

  dp = __enzyme_fwddiff_ptr((void *)argmax, enzyme_dup, x, dx, N);
  check_true("argmax returns dx + 2", dp == dx + 2);
  x[4] = 9.0;
  dp = __enzyme_fwddiff_ptr((void *)argmax, enzyme_dup, x, dx, N);
  check_true("argmax (changed data) returns dx + 4", dp == dx + 4);

  double *dr = __enzyme_fwddiff_ptr((void *)make_powers, enzyme_dup, 1.5, 2.0, N);
  check_true("make_powers returns a shadow array", dr != NULL);
  for (int i = 0; dr && i < N; ++i) {
    snprintf(nm, sizeof nm, "make_powers shadow[%d] exact", i);
    check_close(nm, dr[i], i ? 2.0 * i * pow(1.5, i - 1) : 0.0, 1e-14, 1e-15);
  }
  free(dr);

  double *out = NULL, *dout = NULL;
  __enzyme_fwddiff_void((void *)make_powers_out, enzyme_dup, 1.5, 2.0, N, enzyme_dup, &out, &dout);
  check_true("make_powers_out stores a shadow pointer", dout != NULL && dout != out);
  for (int i = 0; dout && i < N; ++i) {
    snprintf(nm, sizeof nm, "make_powers_out shadow[%d] exact", i);
    check_close(nm, dout[i], i ? 2.0 * i * pow(1.5, i - 1) : 0.0, 1e-14, 1e-15);
  }
  check_close("make_powers_out primal[3]", out ? out[3] : -1.0, 1.5 * 1.5 * 1.5, 0.0, 0.0);
  free(out);
  free(dout);

  double y[N], dy[N];
  __enzyme_fwddiff_void((void *)count_positive, enzyme_dup, x, dx, enzyme_dup, y, dy, N);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "count_positive dy[%d]", i);
    check_close(nm, dy[i], 2.0 * x[i] * dx[i], 1e-15, 0.0);
  }
  int c = __enzyme_fwddiff_int((void *)count_positive, enzyme_primal_return, enzyme_dup, x, dx,
                               enzyme_dup, y, dy, N);
  check_true("count_positive primal_return = 4", c == 4);
  return gradcheck_exit();
}
