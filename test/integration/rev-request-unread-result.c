// A request declared to return double (Enzyme's usual prototype) for a
// function whose only active inputs are pointers: the derivative returns
// nothing, and a program that never reads the result is fine at every
// level.  At -O0 clang stores the result into the variable it initialises
// even when nothing reads it; that store is not a read (at -O2 it is gone).
// The gradient is checked analytically and against finite differences.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gradcheck.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define N 4

double cubes(const double *x, const int *n) {
  double s = 0.0;
  for (int i = 0; i < *n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}

static double cubes_fd(double *x, void *ctx) { return cubes(x, (int *)ctx); }

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25}, dx[N] = {0};
  int n = N;
  double unread = __enzyme_autodiff((void *)cubes, enzyme_dup, x, dx,
                                    enzyme_const, &n);
  (void)sizeof(unread);
  for (int i = 0; i < N; ++i) {
    double e[N] = {0};
    e[i] = 1.0;
    check_close("cubes dx exact", dx[i], 3.0 * x[i] * x[i], GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    check_close("cubes dx fd", dx[i], gc_fd_dir(cubes_fd, x, e, N, &n),
                GC_RTOL_D, GC_ATOL_D);
  }
  double v[N] = {1.0, -0.5, 0.25, 2.0};
  double jv = __enzyme_fwddiff((void *)cubes, enzyme_dup, x, v, enzyme_const,
                               &n);
  double want = 0.0;
  for (int i = 0; i < N; ++i)
    want += dx[i] * v[i];
  check_close("cubes <Jv> = <v, grad>", jv, want, 1e-12, 1e-14);
  return gradcheck_exit();
}
