// A gradient kernel whose tape is in the global tape pool, launched without
// one: gpuad warns at compile time (no <gpuad/tape_pool.h>), and the kernel
// stops with a message instead of writing through a null pointer.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 -mllvm -gpuad-tape-placement=pool %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not %t 2>&1 | FileCheck %s
// WARN: tape-pool-missing.cu:[[@LINE+6]]:{{.*}}warning: gpuad: this derivative keeps its tape in the global tape pool, which the program does not declare: include <gpuad/tape_pool.h> and call gpuad::setTapePool before the launch, or the kernel traps
// CHECK: gpuad: this gradient kernel keeps its tape in the tape pool, which the host did not provide or made too small
// CHECK: gpuad-emu: error in kernel 'grad(float const*, float*, float*, float*)', block (0,0,0), thread (0,0,0): trap (__trap())

#include <gpuad/gpuad.h>

__device__ void steps(const float *x, float *y) {
  float v = x[threadIdx.x];
#pragma unroll 1
  for (int k = 0; k < 24; ++k)
    v = v + 0.1f * sinf(v);
  y[threadIdx.x] = v;
}

__global__ void grad(const float *x, float *xb, float *y, float *yb) {
  __enzyme_autodiff<void>((void *)steps, enzyme_dup, x, xb, enzyme_dup, y, yb);
}

int main() {
  float *x, *xb, *y, *yb;
  cudaMalloc(&x, 128);
  cudaMalloc(&xb, 128);
  cudaMalloc(&y, 128);
  cudaMalloc(&yb, 128);
  grad<<<1, 32>>>(x, xb, y, yb);
  cudaDeviceSynchronize();
  return 0;
}
