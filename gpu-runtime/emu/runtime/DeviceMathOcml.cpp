//===- DeviceMathOcml.cpp - ROCm's ocml on the host -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// HIP's math goes through ocml: `__ocml_NAME_f32` and `__ocml_NAME_f64`.
/// As for libdevice (DeviceMath.cpp, whose special functions these reuse),
/// the emulator keeps the calls and supplies the functions from the host C
/// library; the `native_` (approximate) forms are the accurate functions.
/// Pointer results (sincos, frexp, modf, remquo) point at private memory on
/// the GPU and at the thread's stack here.
//===----------------------------------------------------------------------===//

#include <cmath>

extern "C" {

// Shared with libdevice (DeviceMath.cpp).
double __nv_erfinv(double);
double __nv_erfcx(double);
double __nv_normcdfinv(double);
double __nv_cyl_bessel_i0(double);
double __nv_cyl_bessel_i1(double);

#define GPUAD_OCML_UNARY(N, F32, F64)                                          \
  float __ocml_##N##_f32(float X) { return F32(X); }                           \
  double __ocml_##N##_f64(double X) { return F64(X); }
#define GPUAD_OCML_LIBM(N) GPUAD_OCML_UNARY(N, ::N##f, ::N)
// clang-format off
GPUAD_OCML_LIBM(sin) GPUAD_OCML_LIBM(cos) GPUAD_OCML_LIBM(tan)
GPUAD_OCML_LIBM(asin) GPUAD_OCML_LIBM(acos) GPUAD_OCML_LIBM(atan)
GPUAD_OCML_LIBM(sinh) GPUAD_OCML_LIBM(cosh) GPUAD_OCML_LIBM(tanh)
GPUAD_OCML_LIBM(asinh) GPUAD_OCML_LIBM(acosh) GPUAD_OCML_LIBM(atanh)
GPUAD_OCML_LIBM(exp) GPUAD_OCML_LIBM(exp2) GPUAD_OCML_LIBM(exp10)
GPUAD_OCML_LIBM(expm1) GPUAD_OCML_LIBM(log) GPUAD_OCML_LIBM(log2)
GPUAD_OCML_LIBM(log10) GPUAD_OCML_LIBM(log1p) GPUAD_OCML_LIBM(sqrt)
GPUAD_OCML_LIBM(cbrt) GPUAD_OCML_LIBM(erf) GPUAD_OCML_LIBM(erfc)
GPUAD_OCML_LIBM(lgamma) GPUAD_OCML_LIBM(tgamma) GPUAD_OCML_LIBM(floor)
GPUAD_OCML_LIBM(ceil) GPUAD_OCML_LIBM(trunc) GPUAD_OCML_LIBM(round)
GPUAD_OCML_LIBM(rint) GPUAD_OCML_LIBM(nearbyint) GPUAD_OCML_LIBM(fabs)
GPUAD_OCML_LIBM(logb) GPUAD_OCML_LIBM(j0) GPUAD_OCML_LIBM(j1)
GPUAD_OCML_LIBM(y0) GPUAD_OCML_LIBM(y1)
// clang-format on
#undef GPUAD_OCML_LIBM

// The approximate forms.
#define GPUAD_OCML_NATIVE(N) GPUAD_OCML_UNARY(native_##N, ::N##f, ::N)
    // clang-format off
GPUAD_OCML_NATIVE(sin) GPUAD_OCML_NATIVE(cos) GPUAD_OCML_NATIVE(tan)
GPUAD_OCML_NATIVE(exp) GPUAD_OCML_NATIVE(exp2) GPUAD_OCML_NATIVE(exp10)
GPUAD_OCML_NATIVE(log) GPUAD_OCML_NATIVE(log2) GPUAD_OCML_NATIVE(log10)
GPUAD_OCML_NATIVE(sqrt)
// clang-format on
#undef GPUAD_OCML_NATIVE

                    static double rsqrtD(double X) {
  return 1.0 / std::sqrt(X);
}
static double rcbrtD(double X) { return 1.0 / std::cbrt(X); }
static double sinpiD(double X) { return std::sin(M_PI * X); }
static double cospiD(double X) { return std::cos(M_PI * X); }
static double tanpiD(double X) { return std::tan(M_PI * X); }
static double erfcinvD(double X) { return __nv_erfinv(1.0 - X); }
static double ncdfD(double X) { return 0.5 * std::erfc(-X / std::sqrt(2.0)); }
static double rcpD(double X) { return 1.0 / X; }
#define GPUAD_OCML_HELPER(N, Fn)                                               \
  GPUAD_OCML_UNARY(N, [](float X) { return float(Fn(X)); }, Fn)
// clang-format off
GPUAD_OCML_HELPER(rsqrt, rsqrtD) GPUAD_OCML_HELPER(native_rsqrt, rsqrtD)
GPUAD_OCML_HELPER(rcbrt, rcbrtD) GPUAD_OCML_HELPER(sinpi, sinpiD)
GPUAD_OCML_HELPER(cospi, cospiD) GPUAD_OCML_HELPER(tanpi, tanpiD)
GPUAD_OCML_HELPER(erfinv, __nv_erfinv) GPUAD_OCML_HELPER(erfcinv, erfcinvD)
GPUAD_OCML_HELPER(erfcx, __nv_erfcx) GPUAD_OCML_HELPER(ncdf, ncdfD)
GPUAD_OCML_HELPER(ncdfinv, __nv_normcdfinv)
GPUAD_OCML_HELPER(i0, __nv_cyl_bessel_i0) GPUAD_OCML_HELPER(i1, __nv_cyl_bessel_i1)
GPUAD_OCML_HELPER(native_recip, rcpD)
// clang-format on
#undef GPUAD_OCML_HELPER
#undef GPUAD_OCML_UNARY

#define GPUAD_OCML_BINARY(N, F32, F64)                                         \
  float __ocml_##N##_f32(float X, float Y) { return F32(X, Y); }               \
  double __ocml_##N##_f64(double X, double Y) { return F64(X, Y); }
#define GPUAD_OCML_LIBM2(N) GPUAD_OCML_BINARY(N, ::N##f, ::N)
                    GPUAD_OCML_LIBM2(pow) GPUAD_OCML_LIBM2(atan2)
                        GPUAD_OCML_LIBM2(fmod) GPUAD_OCML_LIBM2(remainder)
                            GPUAD_OCML_LIBM2(hypot) GPUAD_OCML_LIBM2(fdim)
                                GPUAD_OCML_LIBM2(copysign) GPUAD_OCML_LIBM2(
                                    nextafter) GPUAD_OCML_LIBM2(fmin)
                                    GPUAD_OCML_LIBM2(fmax) GPUAD_OCML_BINARY(
                                        powr, ::powf, ::pow)
                                        GPUAD_OCML_BINARY(max, ::fmaxf, ::fmax)
                                            GPUAD_OCML_BINARY(min, ::fminf,
                                                              ::fmin)
#undef GPUAD_OCML_LIBM2
#undef GPUAD_OCML_BINARY

                                                float __ocml_fma_f32(float X,
                                                                     float Y,
                                                                     float Z) {
  return fmaf(X, Y, Z);
}
double __ocml_fma_f64(double X, double Y, double Z) { return fma(X, Y, Z); }
float __ocml_fmuladd_f32(float X, float Y, float Z) { return fmaf(X, Y, Z); }
double __ocml_fmuladd_f64(double X, double Y, double Z) { return fma(X, Y, Z); }
float __ocml_pown_f32(float X, int N) { return powf(X, float(N)); }
double __ocml_pown_f64(double X, int N) { return pow(X, double(N)); }
float __ocml_rootn_f32(float X, int N) { return float(pow(X, 1.0 / N)); }
double __ocml_rootn_f64(double X, int N) { return pow(X, 1.0 / N); }
float __ocml_ldexp_f32(float X, int E) { return ldexpf(X, E); }
double __ocml_ldexp_f64(double X, int E) { return ldexp(X, E); }
float __ocml_scalbn_f32(float X, int E) { return scalbnf(X, E); }
double __ocml_scalbn_f64(double X, int E) { return scalbn(X, E); }
int __ocml_ilogb_f32(float X) { return ilogbf(X); }
int __ocml_ilogb_f64(double X) { return ilogb(X); }
float __ocml_len3_f32(float A, float B, float C) {
  return sqrtf(A * A + B * B + C * C);
}
double __ocml_len3_f64(double A, double B, double C) {
  return sqrt(A * A + B * B + C * C);
}
float __ocml_len4_f32(float A, float B, float C, float D) {
  return sqrtf(A * A + B * B + C * C + D * D);
}
double __ocml_len4_f64(double A, double B, double C, double D) {
  return sqrt(A * A + B * B + C * C + D * D);
}
float __ocml_rlen3_f32(float A, float B, float C) {
  return 1 / __ocml_len3_f32(A, B, C);
}
double __ocml_rlen3_f64(double A, double B, double C) {
  return 1 / __ocml_len3_f64(A, B, C);
}
float __ocml_rlen4_f32(float A, float B, float C, float D) {
  return 1 / __ocml_len4_f32(A, B, C, D);
}
double __ocml_rlen4_f64(double A, double B, double C, double D) {
  return 1 / __ocml_len4_f64(A, B, C, D);
}
float __ocml_rhypot_f32(float X, float Y) { return 1 / hypotf(X, Y); }
double __ocml_rhypot_f64(double X, double Y) { return 1 / hypot(X, Y); }

float __ocml_sincos_f32(float X, float *C) { return *C = cosf(X), sinf(X); }
double __ocml_sincos_f64(double X, double *C) { return *C = cos(X), sin(X); }
float __ocml_sincospi_f32(float X, float *C) {
  return *C = float(cospiD(X)), float(sinpiD(X));
}
double __ocml_sincospi_f64(double X, double *C) {
  return *C = cospiD(X), sinpiD(X);
}
float __ocml_frexp_f32(float X, int *E) { return frexpf(X, E); }
double __ocml_frexp_f64(double X, int *E) { return frexp(X, E); }
float __ocml_modf_f32(float X, float *I) { return modff(X, I); }
double __ocml_modf_f64(double X, double *I) { return modf(X, I); }
float __ocml_remquo_f32(float X, float Y, int *Q) { return remquof(X, Y, Q); }
double __ocml_remquo_f64(double X, double Y, int *Q) { return remquo(X, Y, Q); }
float __ocml_lgamma_r_f32(float X, int *S) { return lgammaf_r(X, S); }
double __ocml_lgamma_r_f64(double X, int *S) { return lgamma_r(X, S); }
float __ocml_nan_f32(unsigned) { return NAN; }
double __ocml_nan_f64(unsigned long) { return NAN; }

int __ocml_isnan_f32(float X) { return std::isnan(X); }
int __ocml_isnan_f64(double X) { return std::isnan(X); }
int __ocml_isinf_f32(float X) { return std::isinf(X); }
int __ocml_isinf_f64(double X) { return std::isinf(X); }
int __ocml_isfinite_f32(float X) { return std::isfinite(X); }
int __ocml_isfinite_f64(double X) { return std::isfinite(X); }
int __ocml_signbit_f32(float X) { return std::signbit(X); }
int __ocml_signbit_f64(double X) { return std::signbit(X); }
int __ocml_isnormal_f32(float X) { return std::isnormal(X); }
int __ocml_isnormal_f64(double X) { return std::isnormal(X); }

} // extern "C"
