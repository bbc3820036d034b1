// Forward mode through loops whose exit depends on active (floating-point)
// data: Newton iterations to a tolerance, a bisection, and a sum that stops
// when the terms become small.  The tangent of a converged fixed-point
// iteration is the implicit-function derivative, checked exactly.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* sqrt(a) by Newton's method, stopping when the update is tiny.  After
 * convergence the tangent is d sqrt(a) = da / (2 sqrt(a)). */
double newton_sqrt(double a) {
  double x = a > 1.0 ? a : 1.0;
  for (;;) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}

/* Solve x = cos(p x) for x by Newton on g(x) = x - cos(p x), with an
 * iteration cap.  Implicitly dx/dp = -x sin(p x) / (1 + p sin(p x)). */
double kepler_like(double p) {
  double x = 0.5;
  int it = 0;
  while (it < 100) {
    double g = x - cos(p * x);
    double dg = 1.0 + p * sin(p * x);
    double step = g / dg;
    x -= step;
    ++it;
    if (fabs(step) < 1e-14)
      break;
  }
  return x;
}

/* Sum of a^k/k! until the term drops under 1e-17 (exp(a)); the number of
 * iterations depends on a. */
double exp_until_small(double a) {
  double term = 1.0, sum = 1.0;
  int k = 1;
  do {
    term *= a / k;
    sum += term;
    ++k;
  } while (fabs(term) > 1e-17 * fabs(sum));
  return sum;
}

/* A primal value returned through a loop that exits early on a condition on
 * the running value: first n with s_n > t, returns s_n * x. */
double first_over(double x, double t) {
  double s = 0.0;
  int n = 0;
  while (s <= t) {
    ++n;
    s += x / n;
  }
  return s * x;
}

static double g_first_over(double x) { return first_over(x, 2.5); }

int main(void) {
  char nm[96];
  const double as[] = {0.04, 0.5, 2.0, 17.0, 1234.5};
  for (int i = 0; i < 5; ++i) {
    double a = as[i];
    double d = __enzyme_fwddiff((void *)newton_sqrt, enzyme_dup, a, 1.0);
    snprintf(nm, sizeof nm, "newton_sqrt'(%g) exact", a);
    check_close(nm, d, 0.5 / sqrt(a), 1e-10, 1e-14);
    snprintf(nm, sizeof nm, "newton_sqrt'(%g) fd", a);
    check_close(nm, d, gc_fd(newton_sqrt, a), GC_RTOL_D, GC_ATOL_D);
  }
  const double ps[] = {0.3, 0.9, 1.4};
  for (int i = 0; i < 3; ++i) {
    double p = ps[i];
    double x = kepler_like(p);
    double d = __enzyme_fwddiff((void *)kepler_like, enzyme_dup, p, 1.0);
    snprintf(nm, sizeof nm, "kepler_like'(%g) implicit", p);
    check_close(nm, d, -x * sin(p * x) / (1.0 + p * sin(p * x)), 1e-9, 1e-12);
    snprintf(nm, sizeof nm, "kepler_like'(%g) fd", p);
    check_close(nm, d, gc_fd(kepler_like, p), GC_RTOL_D, GC_ATOL_D);
  }
  const double es[] = {-3.0, -0.2, 0.7, 4.5};
  for (int i = 0; i < 4; ++i) {
    double d = __enzyme_fwddiff((void *)exp_until_small, enzyme_dup, es[i], 1.0);
    snprintf(nm, sizeof nm, "exp_until_small'(%g) ~ exp", es[i]);
    check_close(nm, d, exp(es[i]), 1e-12, 1e-15);
  }
  const double xs[] = {0.7, 1.3, 2.9};
  for (int i = 0; i < 3; ++i) {
    double d = __enzyme_fwddiff((void *)first_over, enzyme_dup, xs[i], 1.0, enzyme_const, 2.5);
    snprintf(nm, sizeof nm, "first_over'(%g) fd", xs[i]);
    check_close(nm, d, gc_fd(g_first_over, xs[i]), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
