// Calls inside reverse mode are differentiated in split form; at -O0 (and
// wherever SROA leaves a local array) the callee's reverse sweep addresses
// elements of its local arrays' shadows.  Those pointers crossed from the
// augmented half into the backward half as they were -- into the augmented
// half's dead stack frame -- and the adjoints of m[1] and m[2] were lost (a
// wrong gradient without a diagnostic).  They now travel as offsets,
// rebased onto the backward half's copy (a choice between two arrays is
// rebuilt there from its condition).  Checked against finite
// differences, the dot product and width 2 (revcheck.h).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 7

__attribute__((noinline)) static int velocity(int q, int a) {
  return (q + a) % 3 - 1;
}

/* Moments of f accumulated in a local array by a nested loop. */
__attribute__((noinline)) static double moments(const double *f, int n) {
  double m[3] = {0, 0, 0};
  for (int q = 0; q < n; ++q)
    for (int a = 0; a < 3; ++a)
      m[a] += f[q] * velocity(q, a);
  return m[0] * m[1] + m[2] * m[2] * m[0] + sin(m[1]);
}

/* A local array walked by pointer, and a struct on the stack. */
struct acc {
  double lo, hi;
};
__attribute__((noinline)) static double walk(const double *f, int n) {
  double t[4] = {0, 0, 0, 0};
  struct acc s = {0, 0};
  for (int i = 0; i < n; ++i) {
    double *p = &t[i % 4];
    *p += f[i] * f[i];
    if (i % 2)
      s.hi += f[i];
    else
      s.lo += f[i];
  }
  return t[0] * t[3] + t[1] - t[2] * s.hi + s.lo * s.hi;
}

/* A pointer that picks one of two local arrays by the data. */
__attribute__((noinline)) static double choose(const double *f) {
  double a[2] = {f[0], f[1]}, b[2] = {2 * f[1], f[2]};
  double *p = f[3] > 0 ? a : b;
  p[0] *= f[0];
  return p[0] * p[1] + sin(p[1]);
}

double both(double *x, int n) {
  return moments(x, n) * walk(x, n) + choose(x) + choose(x + 1);
}
GC_SCALAR_OF_ARRAY(both)

int main(void) {
  double x0[N] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.8, -1.3};
  GC_CHECK_SCALAR(both, x0, N);
  return gradcheck_exit();
}
