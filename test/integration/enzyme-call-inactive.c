// __enzyme_call_inactive(f, args...): the call f(args...) with no
// derivative, where f itself carries one elsewhere.  d/dx of
// inactive(scale(x)) * x + scale(x) is 3x + 3 (scale(x) = 3x), not 6x + 3;
// a float function through C's variadic call gets its float back, and a
// call through a pointer is not dispatched.  Reverse and forward mode
// against the analytic value, and against each other.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: llvm-nm %t.O2 | FileCheck %s --check-prefix=SYM
// SYM-NOT: __enzyme

#include <gpuad/gpuad.h>
#include <revcheck.h>

double __enzyme_call_inactive(void *, ...);
float __enzyme_call_inactive_f(void *, ...);

double scale(double x) { return 3 * x; }
float scalef(float x) { return 2 * x; }

double f(double x) {
  return __enzyme_call_inactive((void *)scale, x) * x + scale(x);
}
double g(double x) {
  return (double)__enzyme_call_inactive_f((void *)scalef, (float)x) * x;
}
double (*volatile through)(double) = scale;
double h(double x) {
  double (*p)(double) = through;
  return __enzyme_call_inactive((void *)p, x) * x;
}

int main(void) {
  const double x = 0.7;
  double r = __enzyme_autodiff((void *)f, x);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  check_close("f reverse", r, 3 * x + 3, GC_RTOL_D, GC_ATOL_D);
  check_close("f forward", t, 3 * x + 3, GC_RTOL_D, GC_ATOL_D);
  check_close("f <J 1, 1> = <1, J^T 1>", t, r, GC_RTOL_DOT, GC_ATOL_DOT);
  double fx = (double)(2 * (float)x);
  check_close("g reverse (float callee)", __enzyme_autodiff((void *)g, x), fx,
              GC_RTOL_D, GC_ATOL_D);
  check_close("h reverse (through a pointer)", __enzyme_autodiff((void *)h, x),
              3 * x, GC_RTOL_D, GC_ATOL_D);
  check_close("h forward (through a pointer)",
              __enzyme_fwddiff((void *)h, x, 1.0), 3 * x, GC_RTOL_D, GC_ATOL_D);
  return gradcheck_exit();
}
