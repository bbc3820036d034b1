// Forward derivatives of the double libm families, each against its
// analytic derivative and a central finite difference, at several points and
// with a non-unit tangent (the result must scale with dx).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define PI 3.14159265358979323846

/* One wrapper per function, so each is a distinct differentiated function. */
#define UNARY(fn) \
  double w_##fn(double x) { return fn(x); }
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(asin) UNARY(acos) UNARY(atan)
UNARY(sinh) UNARY(cosh) UNARY(tanh) UNARY(asinh) UNARY(acosh) UNARY(atanh)
UNARY(exp) UNARY(exp2) UNARY(expm1) UNARY(log) UNARY(log2) UNARY(log10)
UNARY(log1p) UNARY(sqrt) UNARY(cbrt) UNARY(erf) UNARY(erfc)

double w_atan2(double y, double x) { return atan2(y, x); }
double w_pow(double x, double y) { return pow(x, y); }
double w_hypot(double x, double y) { return hypot(x, y); }
/* hypot at the origin along a direction where it stays 0: the partials take
 * fabs's subgradient there (0), not 0/0, so d/dx is 1 exactly. */
double w_hypot_origin(double x, double c) { return hypot(x - x, c) + x; }
double w_fma(double a, double b, double c) { return fma(a, b, c); }
/* pow with a constant integer-valued exponent and a constant base. */
double w_pow3(double x) { return pow(x, 3.0); }
double w_powbase(double y) { return pow(2.5, y); }
/* A composite using several at once. */
double w_mix(double x) {
  return exp(-x * x) * sin(3.0 * x) + log1p(x * x) / sqrt(1.0 + cosh(x)) + atan(tanh(x));
}

/* Checks fn'(x) against want (analytic) and the FD of w_fn, with dx = 1 and
 * dx = -0.75. */
#define CHECK_UNARY(fn, x0, want_expr)                                        \
  do {                                                                         \
    double x_ = (x0);                                                          \
    double want_ = (want_expr);                                                \
    char nm_[96];                                                              \
    double got_ = __enzyme_fwddiff((void *)w_##fn, enzyme_dup, x_, 1.0);       \
    snprintf(nm_, sizeof nm_, #fn "'(%g) exact", x_);                          \
    check_close(nm_, got_, want_, 1e-12, 1e-14);                               \
    snprintf(nm_, sizeof nm_, #fn "'(%g) fd", x_);                             \
    check_close(nm_, got_, gc_fd(w_##fn, x_), GC_RTOL_D, GC_ATOL_D);           \
    got_ = __enzyme_fwddiff((void *)w_##fn, enzyme_dup, x_, -0.75);            \
    snprintf(nm_, sizeof nm_, #fn "'(%g)*-0.75", x_);                          \
    check_close(nm_, got_, -0.75 * want_, 1e-12, 1e-14);                       \
  } while (0)

/* Two-argument functions: partials via a direction (dx, dy). */
static double g2_atan2(double t, void *c) { double *p = (double *)c; return atan2(p[0] + t * p[2], p[1] + t * p[3]); }
static double g2_pow(double t, void *c) { double *p = (double *)c; return pow(p[0] + t * p[2], p[1] + t * p[3]); }
static double g2_hypot(double t, void *c) { double *p = (double *)c; return hypot(p[0] + t * p[2], p[1] + t * p[3]); }
static double g3_fma(double t, void *c) { double *p = (double *)c; return fma(p[0] + t * p[3], p[1] + t * p[4], p[2] + t * p[5]); }

#define CHECK_BINARY(fn, a, b, da, db, want_expr)                              \
  do {                                                                         \
    double p_[4] = {(a), (b), (da), (db)};                                     \
    char nm_[96];                                                              \
    double got_ = __enzyme_fwddiff((void *)w_##fn, enzyme_dup, p_[0], p_[2],   \
                                   enzyme_dup, p_[1], p_[3]);                  \
    snprintf(nm_, sizeof nm_, #fn "(%g,%g) dir(%g,%g) exact", p_[0], p_[1],    \
             p_[2], p_[3]);                                                    \
    check_close(nm_, got_, (want_expr), 1e-12, 1e-14);                         \
    snprintf(nm_, sizeof nm_, #fn "(%g,%g) dir(%g,%g) fd", p_[0], p_[1],       \
             p_[2], p_[3]);                                                    \
    check_close(nm_, got_, gc_fd_t(g2_##fn, 0.0, p_), GC_RTOL_D, GC_ATOL_D);   \
  } while (0)

int main(void) {
  const double pts[] = {-0.9, -0.35, 0.2, 0.6, 0.95};
  for (int i = 0; i < 5; ++i) {
    double x = pts[i];
    CHECK_UNARY(sin, x, cos(x));
    CHECK_UNARY(cos, x, -sin(x));
    CHECK_UNARY(tan, x, 1.0 / (cos(x) * cos(x)));
    CHECK_UNARY(asin, x, 1.0 / sqrt(1.0 - x * x));
    CHECK_UNARY(acos, x, -1.0 / sqrt(1.0 - x * x));
    CHECK_UNARY(atan, 3.0 * x, 1.0 / (1.0 + 9.0 * x * x));
    CHECK_UNARY(sinh, 2.0 * x, cosh(2.0 * x));
    CHECK_UNARY(cosh, 2.0 * x, sinh(2.0 * x));
    CHECK_UNARY(tanh, 2.0 * x, 1.0 / (cosh(2.0 * x) * cosh(2.0 * x)));
    CHECK_UNARY(asinh, 3.0 * x, 1.0 / sqrt(9.0 * x * x + 1.0));
    CHECK_UNARY(acosh, 1.5 + x * x, 1.0 / sqrt((1.5 + x * x) * (1.5 + x * x) - 1.0));
    CHECK_UNARY(atanh, x, 1.0 / (1.0 - x * x));
    CHECK_UNARY(exp, 3.0 * x, exp(3.0 * x));
    CHECK_UNARY(exp2, 3.0 * x, exp2(3.0 * x) * log(2.0));
    CHECK_UNARY(expm1, x, exp(x));
    CHECK_UNARY(log, 1.0 + x * x, 1.0 / (1.0 + x * x));
    CHECK_UNARY(log2, 1.0 + x * x, 1.0 / ((1.0 + x * x) * log(2.0)));
    CHECK_UNARY(log10, 1.0 + x * x, 1.0 / ((1.0 + x * x) * log(10.0)));
    CHECK_UNARY(log1p, x, 1.0 / (1.0 + x));
    CHECK_UNARY(sqrt, 1.0 + x, 0.5 / sqrt(1.0 + x));
    CHECK_UNARY(cbrt, 2.0 * x, 1.0 / (3.0 * cbrt(2.0 * x) * cbrt(2.0 * x)));
    CHECK_UNARY(erf, 2.0 * x, 2.0 / sqrt(PI) * exp(-4.0 * x * x));
    CHECK_UNARY(erfc, 2.0 * x, -2.0 / sqrt(PI) * exp(-4.0 * x * x));
    CHECK_UNARY(pow3, 2.0 * x, 3.0 * 4.0 * x * x);
    CHECK_UNARY(powbase, 2.0 * x, pow(2.5, 2.0 * x) * log(2.5));
    {
      /* w_mix: no closed form written out; FD only. */
      char nm[64];
      double got = __enzyme_fwddiff((void *)w_mix, enzyme_dup, 2.0 * x, 1.0);
      snprintf(nm, sizeof nm, "mix'(%g) fd", 2.0 * x);
      check_close(nm, got, gc_fd(w_mix, 2.0 * x), GC_RTOL_D, GC_ATOL_D);
    }

    /* atan2(y, x) in all four quadrants: d = (x dy - y dx) / (x^2 + y^2). */
    double ya = x * 2.0, xa = (i % 2 ? -1.3 : 0.8);
    CHECK_BINARY(atan2, ya, xa, 0.7, -0.4, (xa * 0.7 - ya * -0.4) / (xa * xa + ya * ya));
    /* pow(b, e), b > 0: d = e b^(e-1) db + b^e log(b) de. */
    double b = 1.2 + x, e = 2.0 * x - 0.5;
    CHECK_BINARY(pow, b, e, 1.0, 0.5, e * pow(b, e - 1.0) + 0.5 * pow(b, e) * log(b));
    /* hypot: (x dx + y dy) / hypot. */
    double hx = 3.0 * x, hy = 1.0 - x;
    CHECK_BINARY(hypot, hx, hy, -0.6, 1.4, (hx * -0.6 + hy * 1.4) / hypot(hx, hy));
    {
      double p[6] = {x, 2.0 - x, 0.3 * x, 1.1, -0.7, 2.0};
      char nm[64];
      double got = __enzyme_fwddiff((void *)w_fma, enzyme_dup, p[0], p[3], enzyme_dup, p[1],
                                    p[4], enzyme_dup, p[2], p[5]);
      snprintf(nm, sizeof nm, "fma(%g,%g,%g) exact", p[0], p[1], p[2]);
      check_close(nm, got, p[3] * p[1] + p[0] * p[4] + p[5], 1e-12, 1e-14);
      snprintf(nm, sizeof nm, "fma(%g,%g,%g) fd", p[0], p[1], p[2]);
      check_close(nm, got, gc_fd_t(g3_fma, 0.0, p), GC_RTOL_D, GC_ATOL_D);
    }
  }
  check_close("hypot(x - x, 0) + x forward",
              __enzyme_fwddiff((void *)w_hypot_origin, enzyme_dup, 0.5, 1.0,
                               enzyme_const, 0.0),
              1.0, 0.0, 0.0);
  check_close("hypot(x - x, 0) + x reverse",
              __enzyme_autodiff((void *)w_hypot_origin, enzyme_out, 0.5,
                                enzyme_const, 0.0),
              1.0, 0.0, 0.0);
  return gradcheck_exit();
}
