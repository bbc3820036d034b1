// Forward derivatives of the float libm families (sinf, expf, powf, ...),
// each against its analytic derivative evaluated in double and a float
// central finite difference.  The request returns float through a declared
// entry point; arguments are promoted to double by C varargs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

float __enzyme_fwddiff_f(void *, ...);

#define PI 3.14159265358979323846

#define UNARY(fn) \
  float w_##fn(float x) { return fn##f(x); }
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(asin) UNARY(acos) UNARY(atan)
UNARY(sinh) UNARY(cosh) UNARY(tanh) UNARY(asinh) UNARY(acosh) UNARY(atanh)
UNARY(exp) UNARY(exp2) UNARY(expm1) UNARY(log) UNARY(log2) UNARY(log10)
UNARY(log1p) UNARY(sqrt) UNARY(cbrt) UNARY(erf) UNARY(erfc) UNARY(fabs)
UNARY(floor) UNARY(ceil) UNARY(trunc) UNARY(round) UNARY(rint)

float w_atan2(float y, float x) { return atan2f(y, x); }
float w_pow(float x, float y) { return powf(x, y); }
float w_hypot(float x, float y) { return hypotf(x, y); }
float w_fmin(float x, float y) { return fminf(x, y); }
float w_fmax(float x, float y) { return fmaxf(x, y); }
float w_fmod(float x, float y) { return fmodf(x, y); }
float w_copysign(float x, float y) { return copysignf(x, y); }
float w_fma(float a, float b, float c) { return fmaf(a, b, c); }

/* want_expr is the analytic derivative; it may use xd_, the float argument
 * as a double. */
#define CHECK_UNARY(fn, x0, want_expr)                                         \
  do {                                                                         \
    float x_ = (float)(x0);                                                    \
    double xd_ = x_;                                                           \
    double want_ = (want_expr);                                                \
    float dx_ = 1.0f;                                                          \
    char nm_[96];                                                              \
    float got_ = __enzyme_fwddiff_f((void *)w_##fn, enzyme_dup, x_, dx_);      \
    snprintf(nm_, sizeof nm_, #fn "f'(%g) exact", xd_);                        \
    check_close(nm_, got_, want_, GC_RTOL_EXACTF, GC_ATOL_EXACTF);             \
    snprintf(nm_, sizeof nm_, #fn "f'(%g) fd", xd_);                           \
    check_close(nm_, got_, gc_fdf(w_##fn, x_), GC_RTOL_F, GC_ATOL_F);          \
    dx_ = -2.0f;                                                               \
    got_ = __enzyme_fwddiff_f((void *)w_##fn, enzyme_dup, x_, dx_);            \
    snprintf(nm_, sizeof nm_, #fn "f'(%g)*-2", xd_);                           \
    check_close(nm_, got_, -2.0 * want_, GC_RTOL_EXACTF, GC_ATOL_EXACTF);      \
  } while (0)

/* Two-argument functions along a direction (da, db). */
#define G2(fn) \
  static float g2_##fn(float t, void *c) { float *p = (float *)c; return w_##fn(p[0] + t * p[2], p[1] + t * p[3]); }
G2(atan2) G2(pow) G2(hypot) G2(fmin) G2(fmax) G2(fmod) G2(copysign)

#define CHECK_BINARY(fn, a, b, da, db, want_expr)                              \
  do {                                                                         \
    float p_[4] = {(float)(a), (float)(b), (float)(da), (float)(db)};          \
    double A = p_[0], B = p_[1], DA = p_[2], DB = p_[3];                       \
    char nm_[96];                                                              \
    float got_ = __enzyme_fwddiff_f((void *)w_##fn, enzyme_dup, p_[0], p_[2],  \
                                    enzyme_dup, p_[1], p_[3]);                 \
    snprintf(nm_, sizeof nm_, #fn "f(%g,%g) dir(%g,%g) exact", A, B, DA, DB);  \
    check_close(nm_, got_, (want_expr), GC_RTOL_EXACTF, GC_ATOL_EXACTF);       \
    snprintf(nm_, sizeof nm_, #fn "f(%g,%g) dir(%g,%g) fd", A, B, DA, DB);     \
    check_close(nm_, got_, gc_fd_tf(g2_##fn, 0.0f, p_), GC_RTOL_F, GC_ATOL_F); \
  } while (0)

int main(void) {
  const float pts[] = {-0.85f, -0.3f, 0.15f, 0.55f, 0.9f};
  for (int i = 0; i < 5; ++i) {
    float x = pts[i];
    CHECK_UNARY(sin, 2 * x, cos(xd_));
    CHECK_UNARY(cos, 2 * x, -sin(xd_));
    CHECK_UNARY(tan, x, 1.0 / (cos(xd_) * cos(xd_)));
    CHECK_UNARY(asin, x, 1.0 / sqrt(1.0 - xd_ * xd_));
    CHECK_UNARY(acos, x, -1.0 / sqrt(1.0 - xd_ * xd_));
    CHECK_UNARY(atan, 3 * x, 1.0 / (1.0 + xd_ * xd_));
    CHECK_UNARY(sinh, 2 * x, cosh(xd_));
    CHECK_UNARY(cosh, 2 * x, sinh(xd_));
    CHECK_UNARY(tanh, 2 * x, 1.0 / (cosh(xd_) * cosh(xd_)));
    CHECK_UNARY(asinh, 3 * x, 1.0 / sqrt(xd_ * xd_ + 1.0));
    CHECK_UNARY(acosh, 1.5f + x * x, 1.0 / sqrt(xd_ * xd_ - 1.0));
    CHECK_UNARY(atanh, x, 1.0 / (1.0 - xd_ * xd_));
    CHECK_UNARY(exp, 3 * x, exp(xd_));
    CHECK_UNARY(exp2, 3 * x, exp2(xd_) * log(2.0));
    CHECK_UNARY(expm1, x, exp(xd_));
    CHECK_UNARY(log, 1 + x * x, 1.0 / xd_);
    CHECK_UNARY(log2, 1 + x * x, 1.0 / (xd_ * log(2.0)));
    CHECK_UNARY(log10, 1 + x * x, 1.0 / (xd_ * log(10.0)));
    CHECK_UNARY(log1p, x, 1.0 / (1.0 + xd_));
    CHECK_UNARY(sqrt, 1 + x, 0.5 / sqrt(xd_));
    CHECK_UNARY(cbrt, 2 * x, 1.0 / (3.0 * cbrt(xd_) * cbrt(xd_)));
    CHECK_UNARY(erf, 2 * x, 2.0 / sqrt(PI) * exp(-xd_ * xd_));
    CHECK_UNARY(erfc, 2 * x, -2.0 / sqrt(PI) * exp(-xd_ * xd_));
    CHECK_UNARY(fabs, 2 * x, xd_ > 0 ? 1.0 : -1.0);
    CHECK_UNARY(floor, 3 * x, 0.0);
    CHECK_UNARY(ceil, 3 * x, 0.0);
    CHECK_UNARY(trunc, 3 * x, 0.0);
    CHECK_UNARY(round, 3 * x, 0.0);
    CHECK_UNARY(rint, 3 * x, 0.0);

    float y = 0.4f - 0.6f * x;
    CHECK_BINARY(atan2, 2 * x, (i % 2 ? -1.2f : 0.7f), 0.5f, -1.0f, (B * DA - A * DB) / (A * A + B * B));
    CHECK_BINARY(pow, 1.3f + x, 2 * x - 0.5f, 1.0f, 0.5f, B * pow(A, B - 1.0) * DA + pow(A, B) * log(A) * DB);
    CHECK_BINARY(hypot, 3 * x, 1 - x, -0.6f, 1.4f, (A * DA + B * DB) / hypot(A, B));
    CHECK_BINARY(fmin, x, y, 0.9f, -2.0f, A < B ? DA : DB);
    CHECK_BINARY(fmax, x, y, 0.9f, -2.0f, A > B ? DA : DB);
    CHECK_BINARY(fmod, 3.1f * x, (i % 2 ? 0.45f : -0.65f), 1.25f, 0.5f, DA - trunc(A / B) * DB);
    CHECK_BINARY(copysign, x, (i % 3 ? 2.0f : -0.5f), 0.8f, 3.0f, ((A > 0) == (B > 0) ? DA : -DA));
    {
      float a = x, b = 2 - x, c = 0.3f * x;
      float got = __enzyme_fwddiff_f((void *)w_fma, enzyme_dup, a, 1.1f, enzyme_dup, b, -0.7f,
                                     enzyme_dup, c, 2.0f);
      char nm[64];
      snprintf(nm, sizeof nm, "fmaf(%g,%g,%g) exact", (double)a, (double)b, (double)c);
      check_close(nm, got, 1.1 * b + a * -0.7 + 2.0, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
    }
  }
  return gradcheck_exit();
}
