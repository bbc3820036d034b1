//===- DeviceMath.cpp - CUDA's libdevice on the host ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The emulator keeps libdevice's `__nv_*` functions as calls (their bodies
/// are made of NVPTX instructions) and supplies them here from the host C
/// library.  Correctly rounded operations (add, mul, div, sqrt, fma,
/// conversions) give the GPU's bits, in every rounding mode; elementary
/// functions (sin, exp, ...) agree with libdevice to its documented ulp
/// bounds; the approximate `__nv_fast_*` forms are the accurate functions.
/// A function not here is a link error naming it.
//===----------------------------------------------------------------------===//

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace {

template <class T, class F> T rounded(int Mode, F Fn) {
  int Old = std::fegetround();
  std::fesetround(Mode);
  volatile T R = Fn();
  std::fesetround(Old);
  return R;
}

template <class To, class From> To bits(From V) {
  static_assert(sizeof(To) == sizeof(From));
  To R;
  memcpy(&R, &V, sizeof R);
  return R;
}

/// erf^-1 by Newton's method from a rational first guess.
double erfinvD(double Y) {
  if (Y <= -1)
    return Y == -1 ? -HUGE_VAL : NAN;
  if (Y >= 1)
    return Y == 1 ? HUGE_VAL : NAN;
  double W = -std::log((1.0 - Y) * (1.0 + Y)), X;
  if (W < 5) {
    W -= 2.5;
    X = 2.81022636e-08;
    for (double C :
         {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      X = C + X * W;
  } else {
    W = std::sqrt(W) - 3;
    X = -0.000200214257;
    for (double C :
         {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      X = C + X * W;
  }
  X *= Y;
  for (int I = 0; I < 3; ++I)
    X -= (std::erf(X) - Y) / (2.0 / std::sqrt(M_PI) * std::exp(-X * X));
  return X;
}

double erfcxD(double X) {
  if (X < 25)
    return std::exp(X * X) * std::erfc(X);
  // Asymptotic series: 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4)).
  double R = 1 / (X * X);
  return (1 - R / 2 + 3 * R * R / 4) / (X * std::sqrt(M_PI));
}

double besselI(int Order, double X) {
  double Term = Order ? X / 2 : 1, Sum = Term;
  for (int K = 1; K < 200 && std::fabs(Term) > 1e-17 * std::fabs(Sum); ++K) {
    Term *= (X * X / 4) / (K * double(K + Order));
    Sum += Term;
  }
  return Sum;
}

} // namespace

extern "C" {

// Elementary functions: __nv_NAMEf (float) and __nv_NAME (double).
#define GPUAD_UNARY(N)                                                         \
  float __nv_##N##f(float X) { return ::N##f(X); }                             \
  double __nv_##N(double X) { return ::N(X); }
// clang-format off
GPUAD_UNARY(sin) GPUAD_UNARY(cos) GPUAD_UNARY(tan) GPUAD_UNARY(asin)
GPUAD_UNARY(acos) GPUAD_UNARY(atan) GPUAD_UNARY(sinh) GPUAD_UNARY(cosh)
GPUAD_UNARY(tanh) GPUAD_UNARY(asinh) GPUAD_UNARY(acosh) GPUAD_UNARY(atanh)
GPUAD_UNARY(exp) GPUAD_UNARY(exp2) GPUAD_UNARY(exp10) GPUAD_UNARY(expm1)
GPUAD_UNARY(log) GPUAD_UNARY(log2) GPUAD_UNARY(log10) GPUAD_UNARY(log1p)
GPUAD_UNARY(sqrt) GPUAD_UNARY(cbrt) GPUAD_UNARY(erf) GPUAD_UNARY(erfc)
GPUAD_UNARY(lgamma) GPUAD_UNARY(tgamma) GPUAD_UNARY(floor) GPUAD_UNARY(ceil)
GPUAD_UNARY(trunc) GPUAD_UNARY(round) GPUAD_UNARY(rint)
GPUAD_UNARY(nearbyint) GPUAD_UNARY(fabs) GPUAD_UNARY(logb) GPUAD_UNARY(j0)
GPUAD_UNARY(j1) GPUAD_UNARY(y0) GPUAD_UNARY(y1)
// clang-format on
#undef GPUAD_UNARY

#define GPUAD_BINARY(N)                                                        \
  float __nv_##N##f(float X, float Y) { return ::N##f(X, Y); }                 \
  double __nv_##N(double X, double Y) { return ::N(X, Y); }
    // clang-format off
GPUAD_BINARY(pow) GPUAD_BINARY(atan2) GPUAD_BINARY(fmod)
GPUAD_BINARY(remainder) GPUAD_BINARY(hypot) GPUAD_BINARY(fdim)
GPUAD_BINARY(copysign) GPUAD_BINARY(nextafter) GPUAD_BINARY(fmin)
GPUAD_BINARY(fmax)
// clang-format on
#undef GPUAD_BINARY

                    float __nv_fmaf(float X, float Y, float Z) {
  return fmaf(X, Y, Z);
}
double __nv_fma(double X, double Y, double Z) { return fma(X, Y, Z); }

float __nv_rsqrtf(float X) { return 1.0f / sqrtf(X); }
double __nv_rsqrt(double X) { return 1.0 / sqrt(X); }
float __nv_rcbrtf(float X) { return 1.0f / cbrtf(X); }
double __nv_rcbrt(double X) { return 1.0 / cbrt(X); }
float __nv_rhypotf(float X, float Y) { return 1.0f / hypotf(X, Y); }
double __nv_rhypot(double X, double Y) { return 1.0 / hypot(X, Y); }
float __nv_norm3df(float A, float B, float C) {
  return sqrtf(A * A + B * B + C * C);
}
double __nv_norm3d(double A, double B, double C) {
  return sqrt(A * A + B * B + C * C);
}
float __nv_rnorm3df(float A, float B, float C) {
  return 1.0f / __nv_norm3df(A, B, C);
}
double __nv_rnorm3d(double A, double B, double C) {
  return 1.0 / __nv_norm3d(A, B, C);
}
float __nv_norm4df(float A, float B, float C, float D) {
  return sqrtf(A * A + B * B + C * C + D * D);
}
double __nv_norm4d(double A, double B, double C, double D) {
  return sqrt(A * A + B * B + C * C + D * D);
}
float __nv_rnorm4df(float A, float B, float C, float D) {
  return 1.0f / __nv_norm4df(A, B, C, D);
}
double __nv_rnorm4d(double A, double B, double C, double D) {
  return 1.0 / __nv_norm4d(A, B, C, D);
}
float __nv_normf(int N, const float *A) {
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += double(A[I]) * A[I];
  return float(sqrt(S));
}
double __nv_norm(int N, const double *A) {
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += A[I] * A[I];
  return sqrt(S);
}
float __nv_rnormf(int N, const float *A) { return 1.0f / __nv_normf(N, A); }
double __nv_rnorm(int N, const double *A) { return 1.0 / __nv_norm(N, A); }

float __nv_sinpif(float X) { return sinf(float(M_PI) * X); }
double __nv_sinpi(double X) { return sin(M_PI * X); }
float __nv_cospif(float X) { return cosf(float(M_PI) * X); }
double __nv_cospi(double X) { return cos(M_PI * X); }
void __nv_sincosf(float X, float *S, float *C) { *S = sinf(X), *C = cosf(X); }
void __nv_sincos(double X, double *S, double *C) { *S = sin(X), *C = cos(X); }
void __nv_sincospif(float X, float *S, float *C) {
  *S = __nv_sinpif(X), *C = __nv_cospif(X);
}
void __nv_sincospi(double X, double *S, double *C) {
  *S = __nv_sinpi(X), *C = __nv_cospi(X);
}
float __nv_erfinvf(float X) { return float(erfinvD(X)); }
double __nv_erfinv(double X) { return erfinvD(X); }
float __nv_erfcinvf(float X) { return float(erfinvD(1.0 - X)); }
double __nv_erfcinv(double X) { return erfinvD(1.0 - X); }
float __nv_erfcxf(float X) { return float(erfcxD(X)); }
double __nv_erfcx(double X) { return erfcxD(X); }
float __nv_normcdff(float X) { return 0.5f * erfcf(-X / sqrtf(2.0f)); }
double __nv_normcdf(double X) { return 0.5 * erfc(-X / sqrt(2.0)); }
float __nv_normcdfinvf(float P) {
  return float(-sqrt(2.0) * erfinvD(1.0 - 2.0 * P));
}
double __nv_normcdfinv(double P) { return -sqrt(2.0) * erfinvD(1.0 - 2.0 * P); }
float __nv_cyl_bessel_i0f(float X) { return float(besselI(0, X)); }
double __nv_cyl_bessel_i0(double X) { return besselI(0, X); }
float __nv_cyl_bessel_i1f(float X) { return float(besselI(1, X)); }
double __nv_cyl_bessel_i1(double X) { return besselI(1, X); }
float __nv_jnf(int N, float X) { return float(jn(N, X)); }
double __nv_jn(int N, double X) { return jn(N, X); }
float __nv_ynf(int N, float X) { return float(yn(N, X)); }
double __nv_yn(int N, double X) { return yn(N, X); }

float __nv_ldexpf(float X, int E) { return ldexpf(X, E); }
double __nv_ldexp(double X, int E) { return ldexp(X, E); }
float __nv_scalbnf(float X, int E) { return scalbnf(X, E); }
double __nv_scalbn(double X, int E) { return scalbn(X, E); }
float __nv_frexpf(float X, int *E) { return frexpf(X, E); }
double __nv_frexp(double X, int *E) { return frexp(X, E); }
float __nv_modff(float X, float *I) { return modff(X, I); }
double __nv_modf(double X, double *I) { return modf(X, I); }
float __nv_remquof(float X, float Y, int *Q) { return remquof(X, Y, Q); }
double __nv_remquo(double X, double Y, int *Q) { return remquo(X, Y, Q); }
float __nv_powif(float X, int N) { return powf(X, float(N)); }
double __nv_powi(double X, int N) { return pow(X, double(N)); }
int __nv_ilogbf(float X) { return ilogbf(X); }
int __nv_ilogb(double X) { return ilogb(X); }
long long __nv_llrintf(float X) { return llrintf(X); }
long long __nv_llrint(double X) { return llrint(X); }
long long __nv_llroundf(float X) { return llroundf(X); }
long long __nv_llround(double X) { return llround(X); }
float __nv_nanf(const char *) { return NAN; }
double __nv_nan(const char *) { return NAN; }
int __nv_isnanf(float X) { return std::isnan(X); }
int __nv_isnand(double X) { return std::isnan(X); }
int __nv_isinff(float X) { return std::isinf(X); }
int __nv_isinfd(double X) { return std::isinf(X); }
int __nv_finitef(float X) { return std::isfinite(X); }
int __nv_isfinited(double X) { return std::isfinite(X); }
int __nv_signbitf(float X) { return std::signbit(X); }
int __nv_signbitd(double X) { return std::signbit(X); }
float __nv_saturatef(float X) { return X < 0 ? 0 : X > 1 ? 1 : X == X ? X : 0; }
double __nv_rcp64h(double X) { return 1.0 / X; }

// Fast (approximate on the GPU) forms: the accurate functions.
float __nv_fast_sinf(float X) { return sinf(X); }
float __nv_fast_cosf(float X) { return cosf(X); }
float __nv_fast_tanf(float X) { return tanf(X); }
void __nv_fast_sincosf(float X, float *S, float *C) { __nv_sincosf(X, S, C); }
float __nv_fast_expf(float X) { return expf(X); }
float __nv_fast_exp10f(float X) { return exp10f(X); }
float __nv_fast_logf(float X) { return logf(X); }
float __nv_fast_log2f(float X) { return log2f(X); }
float __nv_fast_log10f(float X) { return log10f(X); }
float __nv_fast_powf(float X, float Y) { return powf(X, Y); }
float __nv_fast_fdividef(float X, float Y) { return X / Y; }

// Arithmetic in an explicit rounding mode: _rn, _rz, _rd, _ru.
#define GPUAD_ROUNDED(SUFFIX, MODE)                                            \
  float __nv_fadd_##SUFFIX(float X, float Y) {                                 \
    return rounded<float>(MODE, [&] { return X + Y; });                        \
  }                                                                            \
  float __nv_fsub_##SUFFIX(float X, float Y) {                                 \
    return rounded<float>(MODE, [&] { return X - Y; });                        \
  }                                                                            \
  float __nv_fmul_##SUFFIX(float X, float Y) {                                 \
    return rounded<float>(MODE, [&] { return X * Y; });                        \
  }                                                                            \
  float __nv_fdiv_##SUFFIX(float X, float Y) {                                 \
    return rounded<float>(MODE, [&] { return X / Y; });                        \
  }                                                                            \
  float __nv_frcp_##SUFFIX(float X) {                                          \
    return rounded<float>(MODE, [&] { return 1.0f / X; });                     \
  }                                                                            \
  float __nv_fsqrt_##SUFFIX(float X) {                                         \
    return rounded<float>(MODE, [&] { return sqrtf(X); });                     \
  }                                                                            \
  float __nv_fmaf_##SUFFIX(float X, float Y, float Z) {                        \
    return rounded<float>(MODE, [&] { return fmaf(X, Y, Z); });                \
  }                                                                            \
  float __nv_fmaf_ieee_##SUFFIX(float X, float Y, float Z) {                   \
    return __nv_fmaf_##SUFFIX(X, Y, Z);                                        \
  }                                                                            \
  double __nv_dadd_##SUFFIX(double X, double Y) {                              \
    return rounded<double>(MODE, [&] { return X + Y; });                       \
  }                                                                            \
  double __nv_dsub_##SUFFIX(double X, double Y) {                              \
    return rounded<double>(MODE, [&] { return X - Y; });                       \
  }                                                                            \
  double __nv_dmul_##SUFFIX(double X, double Y) {                              \
    return rounded<double>(MODE, [&] { return X * Y; });                       \
  }                                                                            \
  double __nv_ddiv_##SUFFIX(double X, double Y) {                              \
    return rounded<double>(MODE, [&] { return X / Y; });                       \
  }                                                                            \
  double __nv_drcp_##SUFFIX(double X) {                                        \
    return rounded<double>(MODE, [&] { return 1.0 / X; });                     \
  }                                                                            \
  double __nv_dsqrt_##SUFFIX(double X) {                                       \
    return rounded<double>(MODE, [&] { return sqrt(X); });                     \
  }                                                                            \
  double __nv_fma_##SUFFIX(double X, double Y, double Z) {                     \
    return rounded<double>(MODE, [&] { return fma(X, Y, Z); });                \
  }                                                                            \
  float __nv_double2float_##SUFFIX(double X) {                                 \
    return rounded<float>(MODE, [&] { return float(X); });                     \
  }                                                                            \
  float __nv_int2float_##SUFFIX(int X) {                                       \
    return rounded<float>(MODE, [&] { return float(X); });                     \
  }                                                                            \
  float __nv_uint2float_##SUFFIX(unsigned X) {                                 \
    return rounded<float>(MODE, [&] { return float(X); });                     \
  }                                                                            \
  float __nv_ll2float_##SUFFIX(long long X) {                                  \
    return rounded<float>(MODE, [&] { return float(X); });                     \
  }                                                                            \
  float __nv_ull2float_##SUFFIX(unsigned long long X) {                        \
    return rounded<float>(MODE, [&] { return float(X); });                     \
  }                                                                            \
  double __nv_ll2double_##SUFFIX(long long X) {                                \
    return rounded<double>(MODE, [&] { return double(X); });                   \
  }                                                                            \
  double __nv_ull2double_##SUFFIX(unsigned long long X) {                      \
    return rounded<double>(MODE, [&] { return double(X); });                   \
  }                                                                            \
  int __nv_float2int_##SUFFIX(float X) {                                       \
    return rounded<int>(MODE, [&] { return int(nearbyintf(X)); });             \
  }                                                                            \
  unsigned __nv_float2uint_##SUFFIX(float X) {                                 \
    return rounded<unsigned>(MODE, [&] { return unsigned(nearbyintf(X)); });   \
  }                                                                            \
  int __nv_double2int_##SUFFIX(double X) {                                     \
    return rounded<int>(MODE, [&] { return int(nearbyint(X)); });              \
  }                                                                            \
  unsigned __nv_double2uint_##SUFFIX(double X) {                               \
    return rounded<unsigned>(MODE, [&] { return unsigned(nearbyint(X)); });    \
  }                                                                            \
  long long __nv_float2ll_##SUFFIX(float X) {                                  \
    return rounded<long long>(MODE, [&] { return (long long)nearbyintf(X); }); \
  }                                                                            \
  unsigned long long __nv_float2ull_##SUFFIX(float X) {                        \
    return rounded<unsigned long long>(                                        \
        MODE, [&] { return (unsigned long long)nearbyintf(X); });              \
  }                                                                            \
  long long __nv_double2ll_##SUFFIX(double X) {                                \
    return rounded<long long>(MODE, [&] { return (long long)nearbyint(X); });  \
  }                                                                            \
  unsigned long long __nv_double2ull_##SUFFIX(double X) {                      \
    return rounded<unsigned long long>(                                        \
        MODE, [&] { return (unsigned long long)nearbyint(X); });               \
  }
GPUAD_ROUNDED(rn, FE_TONEAREST)
GPUAD_ROUNDED(rz, FE_TOWARDZERO)
GPUAD_ROUNDED(rd, FE_DOWNWARD)
GPUAD_ROUNDED(ru, FE_UPWARD)
#undef GPUAD_ROUNDED
float __nv_frsqrt_rn(float X) { return 1.0f / sqrtf(X); }
double __nv_int2double_rn(int X) { return X; }
double __nv_uint2double_rn(unsigned X) { return X; }

// Bits.
int __nv_float_as_int(float X) { return bits<int>(X); }
float __nv_int_as_float(int X) { return bits<float>(X); }
unsigned __nv_float_as_uint(float X) { return bits<unsigned>(X); }
float __nv_uint_as_float(unsigned X) { return bits<float>(X); }
long long __nv_double_as_longlong(double X) { return bits<long long>(X); }
double __nv_longlong_as_double(long long X) { return bits<double>(X); }
int __nv_double2hiint(double X) { return int(bits<uint64_t>(X) >> 32); }
int __nv_double2loint(double X) { return int(bits<uint64_t>(X)); }
double __nv_hiloint2double(int Hi, int Lo) {
  return bits<double>((uint64_t(uint32_t(Hi)) << 32) | uint32_t(Lo));
}

// Integers.
int __nv_clz(int X) { return X ? __builtin_clz(unsigned(X)) : 32; }
int __nv_clzll(long long X) {
  return X ? __builtin_clzll((unsigned long long)X) : 64;
}
int __nv_popc(unsigned X) { return __builtin_popcount(X); }
int __nv_popcll(unsigned long long X) { return __builtin_popcountll(X); }
int __nv_ffs(int X) { return __builtin_ffs(X); }
int __nv_ffsll(long long X) { return __builtin_ffsll(X); }
unsigned __nv_brev(unsigned X) {
  unsigned R = 0;
  for (int I = 0; I < 32; ++I)
    R |= ((X >> I) & 1u) << (31 - I);
  return R;
}
unsigned long long __nv_brevll(unsigned long long X) {
  return (uint64_t(__nv_brev(unsigned(X))) << 32) |
         __nv_brev(unsigned(X >> 32));
}
int __nv_min(int A, int B) { return A < B ? A : B; }
int __nv_max(int A, int B) { return A > B ? A : B; }
unsigned __nv_umin(unsigned A, unsigned B) { return A < B ? A : B; }
unsigned __nv_umax(unsigned A, unsigned B) { return A > B ? A : B; }
long long __nv_llmin(long long A, long long B) { return A < B ? A : B; }
long long __nv_llmax(long long A, long long B) { return A > B ? A : B; }
unsigned long long __nv_ullmin(unsigned long long A, unsigned long long B) {
  return A < B ? A : B;
}
unsigned long long __nv_ullmax(unsigned long long A, unsigned long long B) {
  return A > B ? A : B;
}
int __nv_abs(int X) { return X < 0 ? -X : X; }
long long __nv_llabs(long long X) { return X < 0 ? -X : X; }
int __nv_mulhi(int A, int B) { return int((int64_t(A) * B) >> 32); }
unsigned __nv_umulhi(unsigned A, unsigned B) {
  return unsigned((uint64_t(A) * B) >> 32);
}
long long __nv_mul64hi(long long A, long long B) {
  return (long long)((__int128(A) * B) >> 64);
}
unsigned long long __nv_umul64hi(unsigned long long A, unsigned long long B) {
  return (unsigned long long)((unsigned __int128)A * B >> 64);
}
int __nv_mul24(int A, int B) {
  return int((int64_t(A << 8 >> 8) * int64_t(B << 8 >> 8)));
}
unsigned __nv_umul24(unsigned A, unsigned B) {
  return (A & 0xffffff) * (B & 0xffffff);
}
int __nv_hadd(int A, int B) { return int((int64_t(A) + B) >> 1); }
int __nv_rhadd(int A, int B) { return int((int64_t(A) + B + 1) >> 1); }
unsigned __nv_uhadd(unsigned A, unsigned B) {
  return unsigned((uint64_t(A) + B) >> 1);
}
unsigned __nv_urhadd(unsigned A, unsigned B) {
  return unsigned((uint64_t(A) + B + 1) >> 1);
}
unsigned __nv_sad(int A, int B, unsigned C) {
  return C + unsigned(A > B ? A - B : B - A);
}
unsigned __nv_usad(unsigned A, unsigned B, unsigned C) {
  return C + (A > B ? A - B : B - A);
}
unsigned __nv_byte_perm(unsigned X, unsigned Y, unsigned S) {
  uint64_t V = (uint64_t(Y) << 32) | X;
  unsigned R = 0;
  for (int I = 0; I < 4; ++I)
    R |= unsigned((V >> (8 * ((S >> (4 * I)) & 7))) & 0xff) << (8 * I);
  return R;
}

// Half precision conversions (the bits of an IEEE binary16).
unsigned short __nv_float2half_rn(float X) {
  _Float16 H = (_Float16)X;
  return bits<unsigned short>(H);
}
float __nv_half2float(unsigned short X) { return float(bits<_Float16>(X)); }

} // extern "C"
