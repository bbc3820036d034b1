// __enzyme_iter(base, step): an integer that is base in the program and
// base + k*step in code differentiated k times.  A Taylor series of sin with
// __enzyme_iter(13, 2) terms keeps its accuracy through four nested
// derivatives in forward mode, and through reverse mode with forward mode
// over it (orders 1 to 3): each order of differentiation drops the series'
// degree by one and the counter adds terms back.  Each derivative is checked against the analytic value (cos,
// -sin, -cos, sin) with a tolerance of 1e-9, which the series with a fixed
// 13 terms misses from the first derivative on (its k-th derivative is
// short by the term x^(14-k)/(14-k)!, 2.4e-8 at k = 1): the run with
// -DFIXED_TERMS must fail.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %gpuad-cc -O2 %itest-flags -DFIXED_TERMS %s -o %t.fixed -lm
// RUN: not %t.fixed | FileCheck %s --check-prefix=FIXED
// FIXED: FAIL d/dx series, reverse
// No counter is left in the program.
// RUN: llvm-nm %t.O2 | FileCheck %s --check-prefix=SYM
// SYM-NOT: __enzyme

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#include <math.h>

unsigned long long __enzyme_iter(unsigned long long base,
                                 unsigned long long step);

__attribute__((noinline)) double inverse_factorial(unsigned long long k) {
  double f = 1;
  for (unsigned long long i = 2; i <= k; ++i)
    f *= (double)i;
  return 1 / f;
}

// sin x = sum over odd i < terms of (-1)^((i-1)/2) x^i / i!
double series_sin(double x) {
#ifdef FIXED_TERMS
  unsigned long long terms = 13;
#else
  unsigned long long terms = __enzyme_iter(13, 2);
#endif
  double sum = 0, power = 1;
  for (unsigned long long i = 1; i < terms; ++i) {
    power *= x;
    if (i % 2 == 1)
      sum += (i % 4 == 1 ? 1 : -1) * power * inverse_factorial(i);
  }
  return sum;
}

double rev1(double x) { return __enzyme_autodiff((void *)series_sin, x); }
double rev2(double x) { return __enzyme_fwddiff((void *)rev1, x, 1.0); }
double rev3(double x) { return __enzyme_fwddiff((void *)rev2, x, 1.0); }

double fwd1(double x) { return __enzyme_fwddiff((void *)series_sin, x, 1.0); }
double fwd2(double x) { return __enzyme_fwddiff((void *)fwd1, x, 1.0); }
double fwd3(double x) { return __enzyme_fwddiff((void *)fwd2, x, 1.0); }
double fwd4(double x) { return __enzyme_fwddiff((void *)fwd3, x, 1.0); }

#define TOL 1e-9

int main(void) {
  const double x = 1.23;
  check_close("series itself (13 terms)", series_sin(x), sin(x), 0, 5e-9);
  check_close("d/dx series, reverse", rev1(x), cos(x), 0, TOL);
  check_close("d2/dx2 series, forward over reverse", rev2(x), -sin(x), 0, TOL);
  check_close("d3/dx3 series, forward over reverse", rev3(x), -cos(x), 0, TOL);
  check_close("d/dx series, forward", fwd1(x), cos(x), 0, TOL);
  check_close("d2/dx2 series, forward", fwd2(x), -sin(x), 0, TOL);
  check_close("d3/dx3 series, forward", fwd3(x), -cos(x), 0, TOL);
  check_close("d4/dx4 series, forward", fwd4(x), sin(x), 0, TOL);
  // Reverse against forward at each order (the dot-product test of a
  // scalar function): the same series, so they agree to rounding.
  check_close("<J 1, 1> = <1, J^T 1>, order 1", rev1(x), fwd1(x), 1e-12, 1e-14);
  check_close("<J 1, 1> = <1, J^T 1>, order 3", rev3(x), fwd3(x), 1e-10, 1e-12);
  return gradcheck_exit();
}
