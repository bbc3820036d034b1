// HIP: fast single-precision intrinsics in differentiated functions.  On
// amdgcn __expf, __exp10f, __log2f, __tanf and __frsqrt_rn lower to target
// intrinsics (llvm.amdgcn.exp2/log/rcp/rsq) rather than to ocml calls, so the
// pass needs rules for those; __sinf, __cosf, __logf, __fdividef and __powf
// go through ocml's native_* / fast paths.  -ffast-math is also compiled.
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
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -S %s -o %t.fast.s
// RUN: FileCheck %s --input-file=%t.fast.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.fast.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -c %s -o %t.fast.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

// Only __sinf: its derivative needs a cosine the source never asks for.
__device__ float fast_sin(float x) { return __sinf(x); }

__device__ float fast_exp_div(float x, float y) {
  return __fdividef(__expf(x), 1.0f + y * y);
}

__device__ float fast_pow_log(float x, float y) {
  return __powf(x, y) + __logf(1.0f + x * x) + __log2f(2.0f + y * y);
}

__device__ float fast_mix(float x) {
  return __cosf(x) * __exp10f(-x) + __fdividef(x, 2.0f + __tanf(x)) +
         __frsqrt_rn(1.0f + x * x);
}

__global__ void fast_intrinsics_hip(const float *x, const float *y, float *d,
                                    int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], w = y[i];
  d[4 * i + 0] = __enzyme_fwddiff<float>((void *)fast_sin, enzyme_dup, v, 1.0f);
  d[4 * i + 1] = __enzyme_fwddiff<float>((void *)fast_exp_div, enzyme_dup, v,
                                         1.0f, enzyme_dup, w, 1.0f);
  d[4 * i + 2] = __enzyme_fwddiff<float>((void *)fast_pow_log, enzyme_dup, v,
                                         1.0f, enzyme_dup, w, 1.0f);
  d[4 * i + 3] = __enzyme_fwddiff<float>((void *)fast_mix, enzyme_dup, v, 1.0f);
}

// CHECK: .amdhsa_kernel {{.*}}fast_intrinsics_hip

// NOSYM-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Each derivative against central differences, in double, of a double host
// copy of the function with the accurate functions in place of the fast
// ones (the emulator may supply the accurate ones; a GPU's approximations
// are covered by the tolerance).

#include "include/devcheck.h"

static double hostSin(double x) { return std::sin(x); }
static double hostExpDiv(double x, double y) {
  return std::exp(x) / (1.0 + y * y);
}
static double hostPowLog(double x, double y) {
  return std::pow(x, y) + std::log(1.0 + x * x) + std::log2(2.0 + y * y);
}
static double hostMix(double x) {
  return std::cos(x) * std::pow(10.0, -x) + x / (2.0 + std::tan(x)) +
         1.0 / std::sqrt(1.0 + x * x);
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-10 here
  // The derivatives are float computations: ~6e-8 relative rounding per
  // operation, a few ulps per ocml/native function, and on a GPU the
  // hardware exp2/log2/rcp/rsq/sin approximations (1-2 ulp), __powf's error
  // growing with |y log2 x| <= 7 here.  2e-4 relative to max(|d|, 1) is
  // well above that and far below a wrong rule's error.
  Tol tol{"float", 2e-4};

  const int n = 500;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    // (0.05, 1.4]: __powf needs x > 0; tan stays away from pi/2 and from
    // tan x = -2, where 2 + __tanf(x) vanishes.
    x[i] = 0.05f + 1.35f * (float)(i + 1) / n;
    y[i] = -1.5f + 3.0f * (float)((i * 13) % n) / n;
  }
  float *dX = deviceCopy(x), *dY = deviceCopy(y);
  float *dD = deviceCopy(std::vector<float>(4 * n, 0.0f));
  const int block = 128, grid = (n + block - 1) / block;
  hipLaunchKernelGGL(fast_intrinsics_hip, dim3(grid), dim3(block), 0, 0, dX, dY,
                     dD, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<float> d = hostCopy(dD, 4 * n);

  for (int i = 0; i < n; ++i) {
    double v = x[i], w = y[i];
    // The kernel seeds both arguments with 1: the directional derivative
    // along (1, 1).
    expectNear(tol, "d/dx fast_sin", i, d[4 * i + 0],
               (hostSin(v + H) - hostSin(v - H)) / (2 * H));
    expectNear(tol, "d(1,1) fast_exp_div", i, d[4 * i + 1],
               (hostExpDiv(v + H, w + H) - hostExpDiv(v - H, w - H)) / (2 * H));
    expectNear(tol, "d(1,1) fast_pow_log", i, d[4 * i + 2],
               (hostPowLog(v + H, w + H) - hostPowLog(v - H, w - H)) / (2 * H));
    expectNear(tol, "d/dx fast_mix", i, d[4 * i + 3],
               (hostMix(v + H) - hostMix(v - H)) / (2 * H));
  }
  return finish("4 float forward derivatives x 500 vs central FD h=1e-6 of "
                "double host copies",
                {&tol});
}
