// Forward derivatives of the piecewise libm functions on both sides of their
// kinks: fabs, fmin, fmax, fmod, copysign, and the rounding family (floor,
// ceil, trunc, round, rint, nearbyint: derivative 0 where they are flat).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

double w_fabs(double x) { return fabs(x) * x + fabs(x - 1.0); }
double w_fmin(double x, double y) { return fmin(x, y); }
double w_fmax(double x, double y) { return fmax(x, y); }
double w_fmod(double x, double y) { return fmod(x, y); }
double w_copysign(double x, double y) { return copysign(x, y); }
double w_floor(double x) { return floor(x); }
double w_ceil(double x) { return ceil(x); }
double w_trunc(double x) { return trunc(x); }
double w_round(double x) { return round(x); }
double w_rint(double x) { return rint(x); }
double w_nearbyint(double x) { return nearbyint(x); }
/* The fractional part: slope 1 between integers, rounding contributes 0. */
double w_frac(double x) { return x - floor(x); }
/* A product with a rounded factor: d = floor(x) dx. */
double w_stair(double x) { return x * floor(x) + ceil(x) * trunc(x) + round(x); }
/* A clamp built from fmin/fmax. */
double w_clamp(double x) { return fmax(-1.0, fmin(1.0, 2.0 * x)); }

static double g2_fmin(double t, void *c) { double *p = (double *)c; return fmin(p[0] + t * p[2], p[1] + t * p[3]); }
static double g2_fmax(double t, void *c) { double *p = (double *)c; return fmax(p[0] + t * p[2], p[1] + t * p[3]); }
static double g2_fmod(double t, void *c) { double *p = (double *)c; return fmod(p[0] + t * p[2], p[1] + t * p[3]); }
static double g2_copysign(double t, void *c) { double *p = (double *)c; return copysign(p[0] + t * p[2], p[1] + t * p[3]); }

#define CHECK_BINARY(fn, a, b, da, db, want_expr)                              \
  do {                                                                         \
    double p_[4] = {(a), (b), (da), (db)};                                     \
    char nm_[96];                                                              \
    double got_ = __enzyme_fwddiff((void *)w_##fn, enzyme_dup, p_[0], p_[2],   \
                                   enzyme_dup, p_[1], p_[3]);                  \
    snprintf(nm_, sizeof nm_, #fn "(%g,%g) dir(%g,%g) exact", p_[0], p_[1],    \
             p_[2], p_[3]);                                                    \
    check_close(nm_, got_, (want_expr), GC_RTOL_EXACT, GC_ATOL_EXACT);         \
    snprintf(nm_, sizeof nm_, #fn "(%g,%g) dir(%g,%g) fd", p_[0], p_[1],       \
             p_[2], p_[3]);                                                    \
    check_close(nm_, got_, gc_fd_t(g2_##fn, 0.0, p_), GC_RTOL_D, GC_ATOL_D);   \
  } while (0)

#define CHECK_UNARY(fn, x0, want_expr)                                         \
  do {                                                                         \
    double x_ = (x0);                                                          \
    char nm_[96];                                                              \
    double got_ = __enzyme_fwddiff((void *)w_##fn, enzyme_dup, x_, 1.5);       \
    snprintf(nm_, sizeof nm_, #fn "'(%g)*1.5 exact", x_);                      \
    check_close(nm_, got_, 1.5 * (want_expr), GC_RTOL_EXACT, GC_ATOL_EXACT);   \
    snprintf(nm_, sizeof nm_, #fn "'(%g)*1.5 fd", x_);                         \
    check_close(nm_, got_, 1.5 * gc_fd(w_##fn, x_), GC_RTOL_D, GC_ATOL_D);     \
  } while (0)

int main(void) {
  /* Points away from every kink (no integers, no half-integers, x != y). */
  const double pts[] = {-2.3, -0.7, -0.2, 0.35, 1.6, 3.8};
  for (int i = 0; i < 6; ++i) {
    double x = pts[i];
    double sx = x > 0 ? 1.0 : -1.0, sx1 = x - 1.0 > 0 ? 1.0 : -1.0;
    CHECK_UNARY(fabs, x, 2.0 * fabs(x) + sx1);
    CHECK_UNARY(floor, x, 0.0);
    CHECK_UNARY(ceil, x, 0.0);
    CHECK_UNARY(trunc, x, 0.0);
    CHECK_UNARY(round, x, 0.0);
    CHECK_UNARY(rint, x, 0.0);
    CHECK_UNARY(nearbyint, x, 0.0);
    CHECK_UNARY(frac, x, 1.0);
    CHECK_UNARY(stair, x, floor(x));
    CHECK_UNARY(clamp, x, fabs(2.0 * x) < 1.0 ? 2.0 : 0.0);

    /* fmin/fmax: the tangent follows the selected operand. */
    double y = 0.5 - 0.4 * x;
    CHECK_BINARY(fmin, x, y, 0.9, -2.0, x < y ? 0.9 : -2.0);
    CHECK_BINARY(fmax, x, y, 0.9, -2.0, x > y ? 0.9 : -2.0);
    /* fmod(x, m) = x - trunc(x/m) m: d = dx - trunc(x/m) dm. */
    double m = (i % 2) ? 0.45 : -0.65;
    CHECK_BINARY(fmod, 3.1 * x, m, 1.25, 0.5, 1.25 - trunc(3.1 * x / m) * 0.5);
    /* copysign(x, s): sign(x) sign(s) dx; ds does not matter. */
    double s = (i % 3) ? 2.0 : -0.5;
    double ss = s > 0 ? 1.0 : -1.0;
    CHECK_BINARY(copysign, x, s, 0.8, 3.0, sx * ss * 0.8);
  }
  return gradcheck_exit();
}
