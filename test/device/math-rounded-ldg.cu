// Device math spelled with CUDA's intrinsics: __ldg loads, the
// explicitly rounded __dsqrt_rn/__drcp_rn/__dadd_rn/__dmul_rn/__fma_rn,
// __fsqrt_rn, __frsqrt_rn, __saturatef (llvm.nvvm.saturate), __expf,
// exp2f (ex2.approx), __fdividef, __powf and fminf, in forward and reverse
// mode, against central finite differences of host copies.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// CHECK-LABEL: .entry _Z7derivesPKdPKfPdPfi(
// CHECK-NOT: call
// CHECK: ret;

#include <gpuad/gpuad.h>

__device__ double rounded(const double *p, double x) {
  double a = __ldg(p) * x;
  return __dsqrt_rn(a * a + 1.0) + __drcp_rn(x) +
         __dadd_rn(x, a) * __dmul_rn(a, x) + __fma_rn(x, a, 1.0);
}

__device__ float fast(const float *p, float x) {
  float a = __ldg(p) * x;
  return __fsqrt_rn(a) + __frsqrt_rn(a) + __expf(x) + exp2f(x) +
         fminf(x, a) + __fdividef(x, a) + __saturatef(x * 0.1f) +
         __powf(a, 1.5f);
}

// out[4i..4i+3]: forward and reverse of both, at x = xs[i].
__global__ void derives(const double *p, const float *q, double *d, float *f,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = 0.2 + 0.1 * i;
  d[2 * i] = __enzyme_fwddiff<double>((void *)rounded, enzyme_const, p, x, 1.0);
  d[2 * i + 1] = __enzyme_autodiff<double>((void *)rounded, enzyme_const, p, x);
  float xf = 0.2f + 0.1f * i;
  f[2 * i] = __enzyme_fwddiff<float>((void *)fast, enzyme_const, q, xf, 1.0f);
  f[2 * i + 1] = __enzyme_autodiff<float>((void *)fast, enzyme_const, q, xf);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

static double hostRounded(double x) {
  double a = 1.3 * x;
  return std::sqrt(a * a + 1) + 1 / x + (x + a) * (a * x) + (x * a + 1);
}
static double hostFast(double x) {
  double a = 1.3 * x;
  return std::sqrt(a) + 1 / std::sqrt(a) + std::exp(x) + std::exp2(x) +
         std::fmin(x, a) + x / a + std::fmin(std::fmax(x * 0.1, 0.0), 1.0) +
         std::pow(a, 1.5);
}

int main() {
  const int n = 40; // x from 0.2 to 4.1: __saturatef clamps above x = 10 only
  double *p = deviceCopy(std::vector<double>{1.3});
  float *q = deviceCopy(std::vector<float>{1.3f});
  double *d = deviceCopy(std::vector<double>(2 * n));
  float *f = deviceCopy(std::vector<float>(2 * n));
  derives<<<2, 32>>>(p, q, d, f, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> hd = hostCopy(d, 2 * n);
  std::vector<float> hf = hostCopy(f, 2 * n);
  // Central differences (h = 1e-6) of double host copies.  double: 1e-7;
  // float: the device computes in float (and the fast forms approximately
  // on a GPU), 1e-4.
  Tol dTol{"double", 1e-7}, fTol{"float", 1e-4};
  const double h = 1e-6;
  for (int i = 0; i < n; ++i) {
    double x = 0.2 + 0.1 * i, xf = double(0.2f + 0.1f * i);
    double gd = (hostRounded(x + h) - hostRounded(x - h)) / (2 * h);
    double gf = (hostFast(xf + h) - hostFast(xf - h)) / (2 * h);
    expectNear(dTol, "rounded fwd", i, hd[2 * i], gd);
    expectNear(dTol, "rounded rev", i, hd[2 * i + 1], gd);
    expectNear(fTol, "fast fwd", i, hf[2 * i], gf);
    expectNear(fTol, "fast rev", i, hf[2 * i + 1], gf);
  }
  return finish("__ldg, rounded and fast intrinsics, saturate: forward and "
                "reverse vs FD",
                {&dTol, &fTol});
}
