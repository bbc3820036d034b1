// Forward mode through loops with compile-time trip counts (fully unrolled at
// -O2/-O3, kept as loops at -O0): accumulations, a running product, a
// loop-carried recurrence, and a constant coefficient table.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* Taylor series of exp(x) to 20 terms: derivative is the 19-term series. */
double exp_series(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 20; ++k) {
    term *= x / k;
    sum += term;
  }
  return sum;
}

/* Horner evaluation with a constant table (a read-only global). */
static const double coeff[8] = {0.5, -1.25, 2.0, 0.125, -0.75, 1.5, -0.0625, 0.3};
double horner(double x) {
  double p = 0.0;
  for (int i = 7; i >= 0; --i)
    p = p * x + coeff[i];
  return p;
}
static double horner_deriv(double x) {
  double p = 0.0;
  for (int i = 7; i >= 1; --i)
    p = p * x + i * coeff[i];
  return p;
}

/* A product over a fixed number of factors. */
double product(double x) {
  double p = 1.0;
  for (int i = 0; i < 6; ++i)
    p *= (x + 0.5 * i);
  return p;
}

/* The logistic map, 50 steps: a loop-carried nonlinear recurrence. */
double logistic(double r) {
  double u = 0.3;
  for (int i = 0; i < 50; ++i)
    u = r * u * (1.0 - u);
  return u;
}

/* Sum of sin(k x) / k over 32 terms; derivative sum of cos(k x). */
double fourier(double x) {
  double s = 0.0;
  for (int k = 1; k <= 32; ++k)
    s += sin(k * x) / k;
  return s;
}

int main(void) {
  char nm[96];
  const double pts[] = {-1.4, -0.3, 0.45, 1.1, 2.0};
  for (int i = 0; i < 5; ++i) {
    double x = pts[i], d;
    d = __enzyme_fwddiff((void *)exp_series, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "exp_series'(%g) ~ exp", x);
    check_close(nm, d, exp(x), 1e-9, 1e-12); /* truncated series: 19 terms */
    snprintf(nm, sizeof nm, "exp_series'(%g) fd", x);
    check_close(nm, d, gc_fd(exp_series, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)horner, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "horner'(%g) exact", x);
    check_close(nm, d, horner_deriv(x), 1e-12, 1e-13);
    snprintf(nm, sizeof nm, "horner'(%g) fd", x);
    check_close(nm, d, gc_fd(horner, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)product, enzyme_dup, x, 1.0);
    double want = 0.0;
    for (int j = 0; j < 6; ++j)
      want += product(x) / (x + 0.5 * j);
    snprintf(nm, sizeof nm, "product'(%g) exact", x);
    check_close(nm, d, want, 1e-12, 1e-13);

    d = __enzyme_fwddiff((void *)fourier, enzyme_dup, x, 1.0);
    want = 0.0;
    for (int k = 1; k <= 32; ++k)
      want += cos(k * x);
    snprintf(nm, sizeof nm, "fourier'(%g) exact", x);
    check_close(nm, d, want, 1e-10, 1e-12);
  }
  /* Logistic map in its stable regime (r < 3): the sensitivity is bounded. */
  const double rs[] = {1.5, 2.2, 2.8};
  for (int i = 0; i < 3; ++i) {
    double d = __enzyme_fwddiff((void *)logistic, enzyme_dup, rs[i], 1.0);
    snprintf(nm, sizeof nm, "logistic'(%g) fd", rs[i]);
    check_close(nm, d, gc_fd(logistic, rs[i]), 1e-5, GC_ATOL_D);
    /* The fixed point is 1 - 1/r, so d/dr -> 1/r^2 once converged. */
    snprintf(nm, sizeof nm, "logistic'(%g) ~ 1/r^2", rs[i]);
    check_close(nm, d, 1.0 / (rs[i] * rs[i]), 1e-3, 1e-6);
  }
  return gradcheck_exit();
}
