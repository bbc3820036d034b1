// Single-precision CUDA math in differentiated __device__ functions.  The
// first function calls every covered float function; the second calls only
// functions whose derivatives need others the source never uses (sinf needs
// cosf, sinhf needs coshf, powf with an active exponent needs logf, erff and
// expm1f need expf, asinf needs sqrtf), so the pass must supply __nv_cosf,
// __nv_coshf, __nv_logf and __nv_expf itself.  The file is compiled twice:
// with every kernel, and with -DONLY_MISSING, where the second kernel is alone
// and nothing else pulls those functions into the module.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
//
// RUN: %gpuad-cc -DONLY_MISSING --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.m.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.m.O0.ptx -o %t.m.O0.cubin
// RUN: FileCheck %s --input-file=%t.m.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O0.ptx
// RUN: %gpuad-cc -DONLY_MISSING --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.m.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.m.O2.ptx -o %t.m.O2.cubin
// RUN: FileCheck %s --input-file=%t.m.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O2.ptx
// RUN: %gpuad-cc -DONLY_MISSING --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.m.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.m.O3.ptx -o %t.m.O3.cubin
// RUN: FileCheck %s --input-file=%t.m.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O3.ptx
// RUN: %gpuad-cc -DONLY_MISSING --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.m.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O0.ll
// RUN: %gpuad-cc -DONLY_MISSING --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.m.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O2.ll
//
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

#ifndef ONLY_MISSING
__device__ float all_mathf(float x) {
  float a = sinf(x) + cosf(x);
  float b = expf(x) * logf(x);
  float c = powf(x, 2.5f) + sqrtf(x);
  float d = tanhf(x) - erff(x);
  float e = atan2f(x, 1.0f + x * x);
  float f = fminf(x, 0.5f) + fmaxf(x, 0.25f) + fabsf(x - 1.0f);
  return a + b + c + d + e + f;
}

__global__ void math_float(const float *x, const float *dx, float *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dy[i] = __enzyme_fwddiff<float>((void *)all_mathf, enzyme_dup, x[i], dx[i]);
}
// ALL: .entry _Z10math_floatPKf
#endif

__device__ float missingf(float x, float y) {
  return sinf(x) + sinhf(x) * powf(x, y) - erff(y) + expm1f(x) * asinf(y);
}

__global__ void math_float_missing(const float *x, const float *y, float *d,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<float>((void *)missingf, enzyme_dup, x[i], 1.0f,
                                   enzyme_dup, y[i], 0.5f);
}

// CHECK: .entry {{.*}}math_float_missing

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// IR-NOT: declare {{.*}} @__nv_
// IR-NOT: declare {{.*}} @cosf(
// IR-NOT: declare {{.*}} @coshf(
// IR-NOT: declare {{.*}} @logf(
// IR-NOT: declare {{.*}} @expf(
// IR-NOT: @llvm.cos.f32
// IR-NOT: @llvm.cosh.f32

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Each float derivative against central differences, in double, of a double
// host copy at the same float point, away from the kinks of fmin/fmax/fabs.
// With -DONLY_MISSING the file has only math_float_missing, and main checks
// that.

#include "include/devcheck.h"

#ifndef ONLY_MISSING
static double hostAllMath(double x) {
  double a = std::sin(x) + std::cos(x);
  double b = std::exp(x) * std::log(x);
  double c = std::pow(x, 2.5) + std::sqrt(x);
  double d = std::tanh(x) - std::erf(x);
  double e = std::atan2(x, 1.0 + x * x);
  double f = std::fmin(x, 0.5) + std::fmax(x, 0.25) + std::fabs(x - 1.0);
  return a + b + c + d + e + f;
}
#endif

static double hostMissing(double x, double y) {
  return std::sin(x) + std::sinh(x) * std::pow(x, y) - std::erf(y) +
         std::expm1(x) * std::asin(y);
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-9 here
  // The derivatives are float computations: ~1e-7 relative rounding per
  // operation and libdevice's float functions within a few ulp, with terms
  // up to ~30 adding up; 1e-4 relative to max(|d|, 1) is far above that and
  // far below the error of a wrong rule.
  Tol flt{"float fd", 1e-4};

  const int n = 800, block = 128, grid = (n + block - 1) / block;
  std::vector<float> x(n), dx(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.1f + 2.4f * (float)(i + 0.5) / n; // logf, powf: x > 0
    for (float kink : {0.25f, 0.5f, 1.0f}) // fmin, fmax, fabs
      if (std::fabs(x[i] - kink) < 1e-3f)
        x[i] += 2e-3f;
    dx[i] = 0.5f + 0.5f * std::sin(0.37f * (float)i);
    y[i] = -0.9f + 1.8f * (float)((i * 31) % n) / n; // asinf: |y| < 1
  }
  float *dX = deviceCopy(x), *dY = deviceCopy(y);

#ifndef ONLY_MISSING
  float *dDx = deviceCopy(dx), *dDy = deviceCopy(std::vector<float>(n, 0.0f));
  math_float<<<grid, block>>>(dX, dDx, dDy, n);
  CHECK(cudaGetLastError());
#endif
  float *dD = deviceCopy(std::vector<float>(n, 0.0f));
  math_float_missing<<<grid, block>>>(dX, dY, dD, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<float> d = hostCopy(dD, n);
#ifndef ONLY_MISSING
  std::vector<float> dy = hostCopy(dDy, n);
#endif
  for (int i = 0; i < n; ++i) {
    double v = x[i], w = y[i];
#ifndef ONLY_MISSING
    double dv = dx[i];
    expectNear(flt, "all_mathf along dx", i, dy[i],
               (hostAllMath(v + H * dv) - hostAllMath(v - H * dv)) / (2 * H));
#endif
    // The kernel's direction is (1, 0.5).
    expectNear(flt, "missingf along (1, 0.5)", i, d[i],
               (hostMissing(v + H, w + 0.5 * H) -
                hostMissing(v - H, w - 0.5 * H)) /
                   (2 * H));
  }
#ifdef ONLY_MISSING
  return finish("-DONLY_MISSING: missingf along (1, 0.5) vs central FD "
                "h=1e-6 of a double host copy; n=800",
                {&flt});
#else
  return finish("all_mathf along dx and missingf along (1, 0.5) vs central "
                "FD h=1e-6 of double host copies; n=800",
                {&flt});
#endif
}
