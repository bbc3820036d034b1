// More of CUDA's math API in differentiated __device__ functions, beyond the
// basic set in math-double.cu/math-float.cu: sincos/sincospi (two results
// through pointers), sinpi/cospi, ldexp/scalbn/frexp/modf (exponent and
// integer-part handling), fdim, remainder, erfinv/erfcinv, normcdf/normcdfinv,
// rhypot, norm3d, rcbrt.  All are differentiable almost everywhere with
// derivatives in terms of libdevice functions, so they need rules (DESIGN
// section 4: __nv_* are differentiated by rule, not through their bodies,
// which use bit tricks and inline PTX).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

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

// CHECK: .entry {{.*}}math_extra

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Each derivative (double and float) against central differences, in
// double, of a double host copy: libm where it has the function, and
// erfinv/erfcinv/normcdfinv/rhypot/norm3d/rcbrt/sinpi/cospi from their
// definitions.  The points stay away from the kinks and jumps of frexp
// (powers of 2), remainder (x/y = k + 1/2) and fdim (x = y).

#include "include/devcheck.h"

const double kPi = 3.14159265358979323846;

// erf^-1 by Newton's method from 0: erf is concave on x > 0 (convex on
// x < 0), so the iterates increase (decrease) monotonically to the root.
static double hostErfinv(double y) {
  double x = 0;
  for (int it = 0; it < 100; ++it) {
    double step = (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fmax(std::fabs(x), 1e-300))
      break;
  }
  return x;
}

static double hostTrigPairs(double x) {
  double s = std::sin(x), c = std::cos(x);
  double sp = std::sin(kPi * x), cp = std::cos(kPi * x);
  return s * c + sp * cp + sp + cp;
}

static double hostExponentParts(double x) {
  int e;
  double m = std::frexp(x, &e);
  double ip;
  double fp = std::modf(x, &ip);
  return std::ldexp(m, 3) + std::scalbn(x, -2) + fp + m * e;
}

static double hostPiecewise(double x, double y) {
  return std::fdim(x, y) + std::remainder(x, y);
}

static double hostSpecial(double x) {
  double normcdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
  double normcdfinv = std::sqrt(2.0) * hostErfinv(2 * (0.5 + 0.25 * x) - 1);
  double erfcinv = hostErfinv(1.0 - (1.0 - x)); // erfcinv(z) = erfinv(1 - z)
  return hostErfinv(x) + erfcinv + normcdf + normcdfinv;
}

static double hostNorms(double x, double y) {
  return 1.0 / std::hypot(x, y) + std::sqrt(x * x + y * y + 1.0) +
         1.0 / std::cbrt(x);
}

// Central difference of f along (dx, dy) at (x, y).
template <class F> double slope2(F f, double x, double y, double dy) {
  const double H = 1e-6;
  return (f(x + H, y + H * dy) - f(x - H, y - H * dy)) / (2 * H);
}

// True when x in (-0.9, 0.9) keeps 1e-3 away from 0, powers of 2, and
// remainder's jumps and fdim's kink for y.
static bool goodPoint(double x, double y) {
  if (std::fabs(x) < 0.05 || std::fabs(x) > 0.9 || std::fabs(x - y) < 1e-3)
    return false;
  int e;
  double m = std::fabs(std::frexp(x, &e)); // in [0.5, 1)
  if (m - 0.5 < 1e-3 || 1.0 - m < 1e-3)
    return false;
  double q = x / y - std::floor(x / y); // jumps where this is 1/2
  return std::fabs(q - 0.5) > 1e-3;
}

int main() {
  // Double: central differences with h = 1e-6, error ~1e-9 for these O(1)
  // arguments (|erfinv''| stays moderate for |x| <= 0.9).
  Tol fd{"double fd", 1e-6};
  // Float: the derivative is a float computation (~1e-7 per operation,
  // libdevice float functions within a few ulp), compared with the double
  // slope at the same float point.
  Tol flt{"float fd", 1e-4};

  const int n = 600;
  std::vector<double> x(n), y(n);
  std::vector<float> xf(n), yf(n);
  unsigned seed = 12345;
  auto uniform = [&](double lo, double hi) {
    seed = seed * 1664525u + 1013904223u;
    return lo + (hi - lo) * (seed >> 8) / 16777216.0;
  };
  for (int i = 0; i < n; ++i) {
    do {
      xf[i] = (float)uniform(-0.9, 0.9);
      yf[i] = (float)uniform(0.6, 1.4);
    } while (!goodPoint(xf[i], yf[i]));
    do {
      x[i] = uniform(-0.9, 0.9);
      y[i] = uniform(0.6, 1.4);
    } while (!goodPoint(x[i], y[i]));
  }
  double *dX = deviceCopy(x), *dY = deviceCopy(y);
  float *dXf = deviceCopy(xf), *dYf = deviceCopy(yf);
  double *dD = deviceCopy(std::vector<double>(5 * n, 0.0));
  float *dDf = deviceCopy(std::vector<float>(5 * n, 0.0f));
  const int block = 128, grid = (n + block - 1) / block;
  math_extra<<<grid, block>>>(dX, dY, dXf, dYf, dD, dDf, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> d = hostCopy(dD, 5 * n);
  std::vector<float> df = hostCopy(dDf, 5 * n);

  auto one = [](double (*f)(double)) {
    return [f](double a, double) { return f(a); };
  };
  const char *names[5] = {"trig_pairs", "exponent_parts", "piecewise",
                          "special", "norms"};
  for (int i = 0; i < n; ++i)
    for (int pass = 0; pass < 2; ++pass) { // the double, then the float kernel
      double v = pass ? (double)xf[i] : x[i], w = pass ? (double)yf[i] : y[i];
      // The kernel seeds the one-argument functions with 1 and the
      // two-argument ones with (1, 1).
      double want[5] = {slope2(one(hostTrigPairs), v, w, 0.0),
                        slope2(one(hostExponentParts), v, w, 0.0),
                        slope2(hostPiecewise, v, w, 1.0),
                        slope2(one(hostSpecial), v, w, 0.0),
                        slope2(hostNorms, v, w, 1.0)};
      for (int k = 0; k < 5; ++k) {
        char what[48];
        std::snprintf(what, sizeof what, "%s%s", names[k], pass ? "f" : "");
        double got = pass ? (double)df[5 * i + k] : d[5 * i + k];
        expectNear(pass ? flt : fd, what, i, got, want[k]);
      }
    }
  return finish("5 double and 5 float forward derivatives x 600 vs central "
                "FD h=1e-6 of double host copies",
                {&fd, &flt});
}
