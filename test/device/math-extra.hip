// HIP: more of the math API in differentiated __device__ functions, beyond
// the basic set in math.hip: sincos/sincospi (two results through pointers),
// sinpi/cospi, ldexp/scalbn/frexp/modf (exponent and
// integer-part handling), fdim, remainder, erfinv/erfcinv, normcdf/normcdfinv,
// rhypot, norm3d, rcbrt.  All are differentiable almost everywhere with
// derivatives in terms of ocml functions, so they need rules (DESIGN
// section 4: __ocml_* are differentiated by rule, not through their bodies,
// which use bit tricks and target intrinsics such as llvm.amdgcn.fract,
// llvm.amdgcn.trig.preop, llvm.ldexp and llvm.frexp).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

// ---- double ----------------------------------------------------------------
__device__ double trig_pairs(double x) {
  double s, c, sp, cp;
  sincos(x, &s, &c);
  sincospi(x, &sp, &cp);
  return s * c + sp * cp + sinpi(x) + cospi(x);
}

__device__ double exponent_parts(double x) {
  int e;
  double m = frexp(x, &e);
  double ip;
  double fp = modf(x, &ip);
  return ldexp(m, 3) + scalbn(x, -2) + fp + m * e;
}

__device__ double piecewise(double x, double y) {
  return fdim(x, y) + remainder(x, y);
}

__device__ double special(double x) {
  return erfinv(x) + erfcinv(1.0 - x) + normcdf(x) + normcdfinv(0.5 + 0.25 * x);
}

__device__ double norms(double x, double y) {
  return rhypot(x, y) + norm3d(x, y, 1.0) + rcbrt(x);
}

// ---- float -----------------------------------------------------------------
__device__ float trig_pairsf(float x) {
  float s, c, sp, cp;
  sincosf(x, &s, &c);
  sincospif(x, &sp, &cp);
  return s * c + sp * cp + sinpif(x) + cospif(x);
}

__device__ float exponent_partsf(float x) {
  int e;
  float m = frexpf(x, &e);
  float ip;
  float fp = modff(x, &ip);
  return ldexpf(m, 3) + scalbnf(x, -2) + fp + m * e;
}

__device__ float piecewisef(float x, float y) {
  return fdimf(x, y) + remainderf(x, y);
}

__device__ float specialf(float x) {
  return erfinvf(x) + erfcinvf(1.0f - x) + normcdff(x) +
         normcdfinvf(0.5f + 0.25f * x);
}

__device__ float normsf(float x, float y) {
  return rhypotf(x, y) + norm3df(x, y, 1.0f) + rcbrtf(x);
}

__global__ void math_extra(const double *x, const double *y, const float *xf,
                           const float *yf, double *d, float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i], w = y[i];
  float vf = xf[i], wf = yf[i];
  d[5 * i + 0] = __enzyme_fwddiff<double>((void *)trig_pairs, enzyme_dup, v, 1.0);
  d[5 * i + 1] =
      __enzyme_fwddiff<double>((void *)exponent_parts, enzyme_dup, v, 1.0);
  d[5 * i + 2] = __enzyme_fwddiff<double>((void *)piecewise, enzyme_dup, v, 1.0,
                                          enzyme_dup, w, 1.0);
  d[5 * i + 3] = __enzyme_fwddiff<double>((void *)special, enzyme_dup, v, 1.0);
  d[5 * i + 4] = __enzyme_fwddiff<double>((void *)norms, enzyme_dup, v, 1.0,
                                          enzyme_dup, w, 1.0);
  df[5 * i + 0] =
      __enzyme_fwddiff<float>((void *)trig_pairsf, enzyme_dup, vf, 1.0f);
  df[5 * i + 1] =
      __enzyme_fwddiff<float>((void *)exponent_partsf, enzyme_dup, vf, 1.0f);
  df[5 * i + 2] = __enzyme_fwddiff<float>((void *)piecewisef, enzyme_dup, vf,
                                          1.0f, enzyme_dup, wf, 1.0f);
  df[5 * i + 3] =
      __enzyme_fwddiff<float>((void *)specialf, enzyme_dup, vf, 1.0f);
  df[5 * i + 4] = __enzyme_fwddiff<float>((void *)normsf, enzyme_dup, vf, 1.0f,
                                          enzyme_dup, wf, 1.0f);
}

// CHECK: .amdhsa_kernel {{.*}}math_extra

// NOSYM-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// All ten derivatives against central differences, in double, of double
// host copies (erfinv, which the host library lacks, by Newton's method on
// erf).  The points keep away from the functions' kinks and jumps (powers
// of two for frexp, integers for modf, x = y for fdim, x / y at a
// half-integer for remainder) so that x +- h stays on one piece.

#include "include/devcheck.h"

static const double kPi = 3.14159265358979323846;

// erf is increasing, concave for y > 0 and convex for y < 0: Newton from 0
// approaches the root monotonically.
static double hostErfinv(double x) {
  double y = 0;
  for (int k = 0; k < 100; ++k) {
    double step = (std::erf(y) - x) / (2 / std::sqrt(kPi) * std::exp(-y * y));
    y -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(y))
      break;
  }
  return y;
}

static double hostTrigPairs(double x) {
  double sp = std::sin(kPi * x), cp = std::cos(kPi * x);
  return std::sin(x) * std::cos(x) + sp * cp + sp + cp;
}

static double hostExponentParts(double x) {
  int e;
  double m = std::frexp(x, &e), ip;
  double fp = std::modf(x, &ip);
  return std::ldexp(m, 3) + std::ldexp(x, -2) + fp + m * e;
}

static double hostPiecewise(double x, double y) {
  return std::fdim(x, y) + std::remainder(x, y);
}

static double hostSpecial(double x) {
  // erfcinv(1 - x) = erfinv(x); normcdfinv(p) = sqrt(2) erfinv(2p - 1).
  return 2 * hostErfinv(x) + 0.5 * std::erfc(-x / std::sqrt(2.0)) +
         std::sqrt(2.0) * hostErfinv(0.5 * x);
}

static double hostNorms(double x, double y) {
  return 1 / std::hypot(x, y) + std::sqrt(x * x + y * y + 1.0) +
         1 / std::cbrt(x);
}

// Distance from x (or the pair) to the nearest point where one of the
// functions above is not smooth.
static double kinkDistance(double x, double y) {
  double d = std::fabs(x - y);                    // fdim
  d = std::fmin(d, std::fabs(x - std::round(x))); // modf
  int e;
  double m = std::frexp(std::fabs(x), &e); // frexp: m in [0.5, 1)
  d = std::fmin(d, std::fabs(x) * std::fmin(m - 0.5, 1 - m));
  double q = x / y; // remainder
  d = std::fmin(d, std::fabs(y) * std::fabs(q - std::floor(q) - 0.5));
  return d;
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-9 here
  Tol fd{"double fd", 1e-6};
  // The float derivatives: ~6e-8 rounding per operation and a few ulps per
  // ocml function, amplified by at most ~10 through these expressions.
  // 1e-4 relative to max(|d|, 1) leaves room for that and is far below a
  // wrong rule's error.
  Tol flt{"float", 1e-4};
  const double kMinKink = 1e-3; // far beyond h; float points move ~1e-7

  const int n = 400;
  std::vector<double> x(n), y(n);
  std::vector<float> xf(n), yf(n);
  for (int i = 0; i < n; ++i) {
    // x in [-0.85, -0.05] u [0.05, 0.85]: inside erfinv's (-1, 1), away
    // from rcbrt's pole; y in +-[0.3, 1.2].
    double s = std::sin(1.3 * i + 0.2);
    x[i] = (s < 0 ? -1 : 1) * (0.05 + 0.8 * std::fabs(s));
    y[i] = (i % 3 == 0 ? -1 : 1) * (0.3 + 0.9 * (double)((i * 37) % n) / n);
    while (kinkDistance(x[i], y[i]) < kMinKink ||
           kinkDistance((float)x[i], (float)y[i]) < kMinKink)
      x[i] += (x[i] < 0 ? -1 : 1) * 2e-3; // towards +-0.85, never past 0.9
    xf[i] = (float)x[i];
    yf[i] = (float)y[i];
  }
  double *dX = deviceCopy(x), *dY = deviceCopy(y);
  float *dXf = deviceCopy(xf), *dYf = deviceCopy(yf);
  double *dD = deviceCopy(std::vector<double>(5 * n, 0.0));
  float *dDf = deviceCopy(std::vector<float>(5 * n, 0.0f));
  const int block = 128, grid = (n + block - 1) / block;
  hipLaunchKernelGGL(math_extra, dim3(grid), dim3(block), 0, 0, dX, dY, dXf,
                     dYf, dD, dDf, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<double> d = hostCopy(dD, 5 * n);
  std::vector<float> df = hostCopy(dDf, 5 * n);

  static const char *const names[5] = {"trig_pairs", "exponent_parts",
                                       "piecewise (1,1)", "special",
                                       "norms (1,1)"};
  for (int i = 0; i < n; ++i) {
    for (int prec = 0; prec < 2; ++prec) {
      double v = prec ? (double)xf[i] : x[i], w = prec ? (double)yf[i] : y[i];
      double want[5] = {
          (hostTrigPairs(v + H) - hostTrigPairs(v - H)) / (2 * H),
          (hostExponentParts(v + H) - hostExponentParts(v - H)) / (2 * H),
          (hostPiecewise(v + H, w + H) - hostPiecewise(v - H, w - H)) / (2 * H),
          (hostSpecial(v + H) - hostSpecial(v - H)) / (2 * H),
          (hostNorms(v + H, w + H) - hostNorms(v - H, w - H)) / (2 * H)};
      for (int f = 0; f < 5; ++f) {
        if (prec)
          expectNear(flt, names[f], i, df[5 * i + f], want[f]);
        else
          expectNear(fd, names[f], i, d[5 * i + f], want[f]);
      }
    }
  }
  return finish("5 double and 5 float forward derivatives x 400 vs central "
                "FD h=1e-6 of double host copies",
                {&fd, &flt});
}
