// A copy through `double *` parameters that the callers point at an array
// member followed by other members: the copy is the array's doubles while
// it stays within the array, and a length known only at run time that
// reaches the members after it stops the derivative with a message (their
// bytes are no doubles).  Within the array, the gradient is checked
// against the analytic one.
// RUN: %gpuad-cc -O0 %s -o %t
// RUN: %t 2
// RUN: not --crash %t 3 2>&1 | FileCheck %s
// CHECK: gpuad: the copy 'call void @llvm.memmove{{.*}}' reached bytes of unknown type; its derivative would be wrong

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);

struct State {
  double a[2];
  int steps;
  long flags;
};

__attribute__((noinline)) static void move(double *dst, const double *src,
                                           long n) {
  memmove(dst, src, n * sizeof(double));
}

static double f(double x, long n) {
  State s = {{x, 2 * x}, 3, 7};
  State t = {{0, 0}, 0, 0};
  move(t.a, s.a, n);
  return t.a[0] * t.a[1] + t.steps + t.flags;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2;
  double x = 1.5;
  double d = __enzyme_autodiff((void *)f, x, enzyme_const, n);
  // d/dx (x * 2x) = 4x
  if (d != 4 * x) {
    printf("wrong: %g, want %g\n", d, 4 * x);
    return 1;
  }
  return 0;
}
