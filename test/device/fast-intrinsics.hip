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
