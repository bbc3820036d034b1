// CUDA's fast single-precision intrinsics in a differentiated function.
// __expf, __sinf, __cosf, __logf, __fdividef and __powf lower to approximate
// PTX instructions (ex2.approx, sin.approx, lg2.approx, div.approx) or to
// libdevice __nv_fast_* functions; their derivatives must stay on the device
// (e.g. the derivative of __sinf needs a cosine the source never asks for).
// Also compiled with -ffast-math and flush-to-zero (clang's equivalent of
// nvcc -use_fast_math), which selects the __nv_fast_* and .ftz variants.
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
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -ffast-math -fcuda-flush-denormals-to-zero -S %s -o %t.fast.ptx
// RUN: %ptxas -arch=sm_90 %t.fast.ptx -o %t.fast.cubin
// RUN: FileCheck %s --input-file=%t.fast.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.fast.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// Only __sinf: its derivative needs a cosine.
__device__ float fast_sin(float x) { return __sinf(x); }

__device__ float fast_exp_div(float x, float y) {
  return __fdividef(__expf(x), 1.0f + y * y);
}

__device__ float fast_pow_log(float x, float y) {
  return __powf(x, y) + __logf(1.0f + x * x);
}

__device__ float fast_mix(float x) {
  return __cosf(x) * __expf(-x) + __fdividef(x, 2.0f + __sinf(x));
}

__global__ void fast_intrinsics(const float *x, const float *y, float *d,
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

// CHECK: .entry {{.*}}fast_intrinsics

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// IR-NOT: declare {{.*}} @__nv_
// IR-NOT: declare {{.*}} @cosf(
// IR-NOT: @llvm.cos.f32

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Each derivative against central differences, in double, of a double host
// copy of the function with the accurate functions in place of the fast
// ones (the emulator supplies the accurate ones; a GPU's approximations are
// covered by the tolerance).

#include "include/devcheck.h"

static double hostSin(double x) { return std::sin(x); }
static double hostExpDiv(double x, double y) {
  return std::exp(x) / (1.0 + y * y);
}
static double hostPowLog(double x, double y) {
  return std::pow(x, y) + std::log(1.0 + x * x);
}
static double hostMix(double x) {
  return std::cos(x) * std::exp(-x) + x / (2.0 + std::sin(x));
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-10 here
  // The derivatives are float computations: ~1e-7 relative rounding per
  // operation, and on a GPU the approximate instructions (sin/cos.approx
  // with abs. error 2^-21.4 on [-pi, pi], ex2/lg2.approx within a few ulp,
  // __powf's error growing with |y log2 x| <= 4 here).  2e-4 relative to
  // max(|d|, 1) is well above that and far below a wrong rule's error.
  Tol tol{"float", 2e-4};

  const int n = 500;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.05f + 3.0f * (float)i / n;          // (0, pi]: __powf needs x > 0
    y[i] = -1.5f + 3.0f * (float)((i * 13) % n) / n;
  }
  float *dX = deviceCopy(x), *dY = deviceCopy(y);
  float *dD = deviceCopy(std::vector<float>(4 * n, 0.0f));
  const int block = 128, grid = (n + block - 1) / block;
  fast_intrinsics<<<grid, block>>>(dX, dY, dD, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
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
