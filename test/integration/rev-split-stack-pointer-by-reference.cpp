// A function differentiated in split form (a callee of the requested one)
// gives its callee the address of a local that holds a pointer into its own
// stack (`double *&&`, as std::function's invoker takes its arguments).  The
// callee may keep the pointer it loads there on its tape, where in the
// backward half it would point into the finished forward half's frame: an
// error naming the function, not lost adjoints.  With the work array on the
// heap it is fine.
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %gpuad-cc -O2 -DON_HEAP %s -o %t -lm && %t
// CHECK: error: gpuad: cannot differentiate '{{.*}}step{{.*}}' in split form: it gives a callee the address of stack memory that holds a pointer into its stack

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
#define NOINLINE __attribute__((noinline))

NOINLINE void rate(double *x, double *d) {
  for (int i = 0; i < 3; ++i)
    d[i] = std::sin(x[i]) * x[i];
}
NOINLINE void invoke(double *&&x, double *&&d) { rate(x, d); }
NOINLINE void step(double *x) {
#ifdef ON_HEAP
  double *d = (double *)std::malloc(3 * sizeof(double));
#else
  double d[3];
#endif
  double *xp = x, *dp = d;
  invoke(std::move(xp), std::move(dp));
  for (int i = 0; i < 3; ++i)
    x[i] += 0.1 * d[i];
#ifdef ON_HEAP
  std::free(d);
#endif
}
double energy(double *x) {
  step(x);
  step(x);
  return x[0] * x[1] + x[2];
}

int main() {
  double x[3] = {0.3, 0.5, 0.7}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx);
  int bad = 0;
  for (int j = 0; j < 3; ++j) {
    double h = 1e-6, a[3] = {0.3, 0.5, 0.7}, b[3] = {0.3, 0.5, 0.7};
    a[j] += h;
    b[j] -= h;
    double fd = (energy(a) - energy(b)) / (2 * h);
    if (std::fabs(dx[j] - fd) > 1e-6 * (1 + std::fabs(fd)))
      bad = std::printf("dx[%d] = %.9g, finite differences %.9g\n", j, dx[j], fd);
  }
  return bad != 0;
}
