// A function differentiated in split form (a callee of the requested one)
// gives its callee the address of a local that holds a pointer into its own
// stack (`double *&&`, as std::function's invoker takes its arguments).  The
// callee keeps the pointer it loads there on its tape; the memory it points
// to must be the same in the backward half, so the local array lives on the
// heap across the split.  Checked against central
// differences with the work array on the stack and on the heap, at -O0 and
// -O2, and under valgrind.
// RUN: %gpuad-cc -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O2 -DON_HEAP %s -o %t.heap -lm && %t.heap
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

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
