// Sign-bit idioms on a float's bits, as C code writes them through memcpy
// into an integer: `b ^ SIGN` (negation), `b & ~SIGN` (absolute value),
// `b | SIGN` (minus the absolute value), for double (uint64_t) and float
// (uint32_t).  At -O1 and up clang's InstCombine turns them into fneg/fabs;
// at -O0 gpuad does (xor has no derivative rule).  Reverse and
// forward mode against the analytic derivative (the float part's rounding
// makes finite differences useless there) and each other, -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

static double flip(double x, uint64_t op) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  const uint64_t Sign = 1ull << 63;
  b = op == 0 ? b ^ Sign : op == 1 ? b & ~Sign : b | Sign;
  double y;
  memcpy(&y, &b, sizeof y);
  return y;
}

static float flipf(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  b &= ~(1u << 31);
  float y;
  memcpy(&y, &b, sizeof y);
  return y;
}

// -x * sin(x) + |x| * x - |x| + |(float) x| x
double f(double x) {
  return flip(x, 0) * sin(x) + flip(x, 1) * x + flip(x, 2) +
         (double)flipf((float)x) * x;
}

int main(void) {
  const double xs[3] = {0.7, -1.3, 2.1};
  for (int k = 0; k < 3; ++k) {
    double x = xs[k];
    double rev = __enzyme_autodiff((void *)f, x);
    double fwd = __enzyme_fwddiff((void *)f, x, 1.0);
    char label[64];
    snprintf(label, sizeof label, "sign-bit idioms at %g, reverse", x);
    double sg = x < 0 ? -1 : 1, ax = fabs(x);
    double want = -sin(x) - x * cos(x) + 2 * ax - sg + sg * x +
                  (double)fabsf((float)x);
    check_close(label, rev, want, 1e-6, 1e-7);
    snprintf(label, sizeof label, "sign-bit idioms at %g, forward", x);
    check_close(label, fwd, want, 1e-6, 1e-7);
    snprintf(label, sizeof label, "sign-bit idioms at %g, fwd = rev", x);
    check_close(label, fwd, rev, 1e-7, 1e-8); // float arithmetic inside
  }
  return gradcheck_exit();
}
