// A variable-length array made in every iteration of a loop, in a function
// differentiated in split form: its shadow's size is each iteration's, and
// the backward half cannot make it again (outside loops, on the host, it is
// one heap block for both halves: integration/rev-split-vla.c).  An error
// naming the function.  (At -O2 the loop of three is unrolled: three
// arrays, each one heap block.)
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: cannot differentiate '{{.*}}grow{{.*}}' in split form: its reverse sweep needs {{a variable-size stack allocation|pointers into its stack kept per loop iteration}}

#include <gpuad/gpuad.h>
#include <math.h>

__attribute__((noinline)) static double grow(const double *x, int n) {
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    double tmp[n * k];
    for (int i = 0; i < n * k; ++i)
      tmp[i] = sin(x[i % n]) * k;
    for (int i = 0; i < n * k; ++i)
      s += tmp[i] * tmp[(i + 1) % (n * k)];
  }
  return s;
}

double model(const double *x, int n) { return grow(x, n) * x[0]; }

void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, n);
}
