// HIP: double and float math through ocml in differentiated functions, at
// every level.  The first kernel uses every covered function; the file is
// also compiled with -DONLY_MISSING, which keeps only functions whose
// derivatives need ocml functions the source never calls (sin needs cos,
// sinh needs cosh, pow with an active exponent needs log, erf and expm1 need
// exp, asin needs sqrt; likewise for float).  clang links ocml before the
// pipeline and drops what is unused, so the pass must supply those bodies:
// the IR must not declare an __ocml_* function without defining it, and lld
// must link the code object.  A third configuration, -DCONST_ARGS, calls the
// two-argument functions only with a constant second (or first) argument: at
// -O2 the pipeline may specialise the internal __ocml_* function on that
// constant before gpuad sees it, and the derivative must still be right.
// (The fast intrinsics are in fast-intrinsics.hip.)
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
//
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -S %s -o %t.m.O0.s
// RUN: FileCheck %s --input-file=%t.m.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O0.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -c %s -o %t.m.O0.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -S %s -o %t.m.O2.s
// RUN: FileCheck %s --input-file=%t.m.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O2.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -c %s -o %t.m.O2.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O3 -S %s -o %t.m.O3.s
// RUN: FileCheck %s --input-file=%t.m.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O3.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O3 -c %s -o %t.m.O3.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.m.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O0.ll
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.m.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O2.ll
//
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -S %s -o %t.fast.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.fast.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.fast.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -c %s -o %t.fast.o
//
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O0 -S %s -o %t.c.O0.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O0.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O0 -c %s -o %t.c.O0.o
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O2 -S %s -o %t.c.O2.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O2.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O2 -c %s -o %t.c.O2.o
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O3 -S %s -o %t.c.O3.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O3.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O3 -c %s -o %t.c.O3.o
//
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

#if defined(CONST_ARGS)
// Every call to pow/atan2/hypot/fmod has the same constant operand.
__device__ double const_args(double x) {
  return pow(x, 2.5) + atan2(x, 2.0) + hypot(x, 3.0) + fmod(x, 3.0);
}
__device__ float const_argsf(float x) {
  return powf(2.0f, x) + atan2f(x, 2.0f) + hypotf(x, 3.0f) + fmodf(x, 3.0f);
}
__global__ void math_const_args_hip(const double *x, const float *xf,
                                    double *d, float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)const_args, enzyme_dup, x[i], 1.0);
  df[i] = __enzyme_fwddiff<float>((void *)const_argsf, enzyme_dup, xf[i], 1.0f);
}
// CONST: .amdhsa_kernel {{.*}}math_const_args_hip
#else

#ifndef ONLY_MISSING
__device__ double all_math(double x) {
  double a = sin(x) + cos(x);
  double b = exp(x) * log(x);
  double c = pow(x, 2.5) + sqrt(x);
  double d = tanh(x) - erf(x);
  double e = atan2(x, 1.0 + x * x);
  double f = fmin(x, 0.5) + fmax(x, 0.25) + fabs(x - 1.0);
  return a + b + c + d + e + f;
}

__device__ float all_mathf(float x) {
  float a = sinf(x) + cosf(x) + expf(x) * logf(x) + powf(x, 2.5f) + sqrtf(x);
  float b = tanhf(x) - erff(x) + atan2f(x, 1.0f + x * x);
  return a + b + fminf(x, 0.5f) + fmaxf(x, 0.25f) + fabsf(x - 1.0f);
}

__global__ void math_all_hip(const double *x, const float *xf, double *d,
                             float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)all_math, enzyme_dup, x[i], 1.0);
  df[i] = __enzyme_fwddiff<float>((void *)all_mathf, enzyme_dup, xf[i], 1.0f);
}
// ALL: .amdhsa_kernel {{.*}}math_all_hip
#endif

__device__ double missing(double x, double y) {
  return sin(x) + sinh(x) * pow(x, y) - erf(y) + expm1(x) * asin(y);
}

__device__ float missingf(float x, float y) {
  return sinf(x) + sinhf(x) * powf(x, y) - erff(y) + expm1f(x) * asinf(y);
}

__global__ void math_missing_hip(const double *x, const double *y,
                                 const float *xf, const float *yf, double *d,
                                 float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)missing, enzyme_dup, x[i], 1.0,
                                  enzyme_dup, y[i], 0.5);
  df[i] = __enzyme_fwddiff<float>((void *)missingf, enzyme_dup, xf[i], 1.0f,
                                  enzyme_dup, yf[i], 0.5f);
}

// CHECK: .amdhsa_kernel {{.*}}math_missing_hip
#endif

// NOSYM-NOT: enzyme

// IR-NOT: declare {{.*}} @__ocml_
// IR-NOT: declare {{.*}} @cos(
// IR-NOT: declare {{.*}} @cosh(
// IR-NOT: declare {{.*}} @log(
// IR-NOT: declare {{.*}} @exp(
// IR-NOT: declare {{.*}} @cosf(
// IR-NOT: declare {{.*}} @logf(

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Each configuration's kernels against central differences, in double, of
// double host copies: all_math/all_mathf at unit seed, missing/missingf
// along (1, 0.5), or (-DCONST_ARGS) const_args/const_argsf at unit seed.
// The points keep away from the kinks of fmin/fmax/fabs/fmod.

#include "include/devcheck.h"

static double hostAllMath(double x) {
  double a = std::sin(x) + std::cos(x);
  double b = std::exp(x) * std::log(x);
  double c = std::pow(x, 2.5) + std::sqrt(x);
  double d = std::tanh(x) - std::erf(x);
  double e = std::atan2(x, 1.0 + x * x);
  double f = std::fmin(x, 0.5) + std::fmax(x, 0.25) + std::fabs(x - 1.0);
  return a + b + c + d + e + f;
}

static double hostMissing(double x, double y) {
  return std::sin(x) + std::sinh(x) * std::pow(x, y) - std::erf(y) +
         std::expm1(x) * std::asin(y);
}

static double hostConstArgs(double x) {
  return std::pow(x, 2.5) + std::atan2(x, 2.0) + std::hypot(x, 3.0) +
         std::fmod(x, 3.0);
}
static double hostConstArgsF(double x) {
  return std::pow(2.0, x) + std::atan2(x, 2.0) + std::hypot(x, 3.0) +
         std::fmod(x, 3.0);
}

// Central difference of f at x (along the seed (1, s) for two arguments).
template <class F> static double slope(F f, double x, double h) {
  return (f(x + h) - f(x - h)) / (2 * h);
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-9 here
  Tol fd{"double fd", 1e-6};
  // The float derivatives: ~6e-8 rounding per operation and a few ulps per
  // ocml function, amplified by at most ~20 (exp(x) log(x) and x^2.5 at
  // x ~ 3).  1e-4 relative to max(|d|, 1) is well above that and far below
  // a wrong rule's error.
  Tol flt{"float", 1e-4};

  const int n = 500, block = 128, grid = (n + block - 1) / block;
  std::vector<double> x(n), y(n);
  std::vector<float> xf(n), yf(n);
  for (int i = 0; i < n; ++i) {
    // x in (0.05, 3.05), y in (-0.9, 0.9): log, sqrt and pow need x > 0,
    // asin |y| < 1; the kinks (0.25, 0.5, 1 and fmod's 3) are at least
    // 1e-3 away.
    x[i] = 0.05 + 3.0 * (i + 0.37) / n;
    for (double k : {0.25, 0.5, 1.0, 3.0})
      if (std::fabs(x[i] - k) < 1e-3)
        x[i] += 2e-3;
    y[i] = -0.9 + 1.8 * (double)((i * 29) % n) / n + 0.001;
    xf[i] = (float)x[i];
    yf[i] = (float)y[i];
  }
  double *dX = deviceCopy(x), *dY = deviceCopy(y);
  float *dXf = deviceCopy(xf), *dYf = deviceCopy(yf);
  std::vector<double> zero(n, 0.0);
  std::vector<float> zerof(n, 0.0f);

#if defined(CONST_ARGS)
  double *dC = deviceCopy(zero);
  float *dCf = deviceCopy(zerof);
  hipLaunchKernelGGL(math_const_args_hip, dim3(grid), dim3(block), 0, 0, dX,
                     dXf, dC, dCf, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<double> c = hostCopy(dC, n);
  std::vector<float> cf = hostCopy(dCf, n);
  for (int i = 0; i < n; ++i) {
    expectNear(fd, "const_args", i, c[i], slope(hostConstArgs, x[i], H));
    expectNear(flt, "const_argsf", i, cf[i],
               slope(hostConstArgsF, (double)xf[i], H));
  }
  const char *checked = "-DCONST_ARGS: const_args and const_argsf x 500 vs "
                        "central FD h=1e-6 of double host copies";
#else
#ifndef ONLY_MISSING
  double *dA = deviceCopy(zero);
  float *dAf = deviceCopy(zerof);
  hipLaunchKernelGGL(math_all_hip, dim3(grid), dim3(block), 0, 0, dX, dXf, dA,
                     dAf, n);
  CHECK(hipGetLastError());
#endif
  double *dM = deviceCopy(zero);
  float *dMf = deviceCopy(zerof);
  math_missing_hip<<<grid, block>>>(dX, dY, dXf, dYf, dM, dMf, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
#ifndef ONLY_MISSING
  std::vector<double> a = hostCopy(dA, n);
  std::vector<float> af = hostCopy(dAf, n);
  for (int i = 0; i < n; ++i) {
    expectNear(fd, "all_math", i, a[i], slope(hostAllMath, x[i], H));
    expectNear(flt, "all_mathf", i, af[i],
               slope(hostAllMath, (double)xf[i], H));
  }
#endif
  std::vector<double> m = hostCopy(dM, n);
  std::vector<float> mf = hostCopy(dMf, n);
  for (int i = 0; i < n; ++i) {
    // The kernel seeds (x, y) with (1, 0.5).
    double v = x[i], w = y[i], vf = xf[i], wf = yf[i];
    expectNear(fd, "missing (1,0.5)", i, m[i],
               slope([&](double s) { return hostMissing(v + s, w + 0.5 * s); },
                     0.0, H));
    expectNear(
        flt, "missingf (1,0.5)", i, mf[i],
        slope([&](double s) { return hostMissing(vf + s, wf + 0.5 * s); }, 0.0,
              H));
  }
#ifdef ONLY_MISSING
  const char *checked = "-DONLY_MISSING: missing and missingf along (1, 0.5) "
                        "x 500 vs central FD h=1e-6 of double host copies";
#else
  const char *checked = "all_math, all_mathf, and missing, missingf along "
                        "(1, 0.5), x 500 vs central FD h=1e-6 of double host "
                        "copies";
#endif
#endif
  return finish(checked, {&fd, &flt});
}
