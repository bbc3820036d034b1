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
