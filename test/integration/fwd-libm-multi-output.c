// Math functions with several results, some written through pointers
// (sincos, modf, frexp), and the exponent/remainder families (ldexp, scalbn,
// fdim, remainder): each result's tangent against a central difference.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#define _GNU_SOURCE
#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <math.h>

// sin(x) and cos(x) come back through pointers; the result mixes both.
double via_sincos(double x) {
  double s, c;
  sincos(x, &s, &c);
  return s * s * 3.0 + c;
}

// modf: the fraction moves with x, the integer part does not.
double via_modf(double x) {
  double ip;
  double fp = modf(x, &ip);
  return 2.0 * fp + ip;
}

// frexp: the mantissa moves as x * 2^-e; the exponent is an integer.
double via_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m + e;
}

double via_ldexp(double x) { return ldexp(x * x, 3) + scalbn(x, -2); }
double via_fdim(double x) { return fdim(x, 0.5) + fdim(0.25, x); }
double via_remainder(double x) { return remainder(x * x, 1.3); }

// The function must be known where the request is made: a macro, not a
// function pointer parameter.
#define check(name, f, x)                                                      \
  check_close(name, __enzyme_fwddiff((void *)f, enzyme_dup, (x), 1.0),         \
              gc_fd(f, (x)), GC_RTOL_D, GC_ATOL_D)

int main(void) {
  for (double x = -1.7; x < 2.0; x += 0.9) {
    check("sincos", via_sincos, x);
    check("modf", via_modf, x + 0.05);
    check("frexp", via_frexp, x + 0.05);
    check("ldexp/scalbn", via_ldexp, x);
    check("fdim", via_fdim, x + 0.1);
    check("remainder", via_remainder, x + 0.1);
  }
  return gradcheck_exit();
}
