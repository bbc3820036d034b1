// AMDGPU returns float _Complex as [2 x i32], so __mulsc3's result is not
// a pair of floats the complex-mul row can read: differentiating through it
// is an error naming the call, never a silently missing derivative.
// (double _Complex returns {double, double} and works: complex.hip.)
//
// REQUIRES: hip
// RUN: not %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: cannot differentiate '__mulsc3' by the rule of 'complex-mul'{{.*}}AMDGPU returns float _Complex as integers

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__device__ float f(float x) {
  float _Complex a;
  __real__ a = x, __imag__ a = 2.0f * x;
  float _Complex p = a * a;
  return __real__ p;
}

__global__ void k(const float *x, float *d) {
  d[0] = __enzyme_fwddiff<float>((void *)f, enzyme_dup, x[0], 1.0f);
}
