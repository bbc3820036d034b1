// A gradient kernel whose tape is in the global tape pool, launched by a
// program that provides none (it never mentions gpuad): gpuad says at
// compile time what will happen, and each thread takes its tape from the
// device heap instead.  The first thread to do so prints one warning for
// the whole program; the gradient (two launches) is the analytic one.
// With a heap too small for a tape (64 bytes, with -DEXHAUST), the kernel stops
// with a message naming the limit to raise.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 -mllvm -gpuad-tape-placement=pool %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t 2>&1 | FileCheck %s
// RUN: %gpuad-cc --emulate -O2 -mllvm -gpuad-tape-placement=pool -DEXHAUST %s -o %t.exhaust 2>/dev/null
// RUN: not %t.exhaust 2>&1 | FileCheck %s --check-prefix=EXHAUST
// EXHAUST: gpuad: the device heap is exhausted (a gradient's tape or shadow memory): raise it with cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) before the launch, or give the tapes a pool (gpuad::setTapePool, <gpuad/tape_pool.h>)
// EXHAUST: gpuad-emu: error in kernel 'grad(float const*, float*, float*, float*)', block (0,0,0), thread (0,0,0): trap
// WARN: tape-pool-missing.cu:{{[0-9]+}}:{{.*}}warning: gpuad: this derivative keeps its tape (96 bytes per thread) in the global tape pool, which the program does not provide (<gpuad/tape_pool.h>), so each thread takes it from the device heap, which is slower
// CHECK: gpuad: warning: gradient tapes are taken from the device heap, because the program provides no tape pool or one too small; gpuad::setTapePool (<gpuad/tape_pool.h>) is faster
// CHECK-NOT: gpuad: warning
// CHECK: tape-pool-missing: PASS

#include "../include/plaincheck.h"

#include <cmath>
#include <cstdio>

#if defined(EXHAUST) && defined(__HIP__) // ROCm 5.2 declares only the getter
extern "C" hipError_t hipDeviceSetLimit(hipLimit_t, size_t);
#define cudaDeviceSetLimit hipDeviceSetLimit
#define cudaLimitMallocHeapSize hipLimitMallocHeapSize
#endif

extern __device__ int enzyme_dup;
__device__ void __enzyme_autodiff(void *, ...);

__device__ void steps(const float *x, float *y) {
  float v = x[threadIdx.x];
#pragma unroll 1
  for (int k = 0; k < 24; ++k)
    v = v + 0.1f * sinf(v);
  y[threadIdx.x] = v;
}

__global__ void grad(const float *x, float *xb, float *y, float *yb) {
  __enzyme_autodiff((void *)steps, enzyme_dup, x, xb, enzyme_dup, y, yb);
}

int main() {
  const int n = 32;
#ifdef EXHAUST
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64);
#endif
  float hx[n], hxb[n], hyb[n], zero[n] = {0};
  for (int i = 0; i < n; ++i) {
    hx[i] = -1.5f + 0.1f * i;
    hyb[i] = 1.0f;
  }
  float *x, *xb, *y, *yb;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&xb, sizeof hx);
  cudaMalloc(&y, sizeof hx);
  cudaMalloc(&yb, sizeof hx);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  int bad = 0;
  for (int launch = 0; launch < 2; ++launch) {
    cudaMemcpy(xb, zero, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(yb, hyb, sizeof hx, cudaMemcpyHostToDevice);
    grad<<<1, n>>>(x, xb, y, yb);
    if (cudaDeviceSynchronize() != cudaSuccess)
      return 1;
    cudaMemcpy(hxb, xb, sizeof hx, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
      // d/dv of v + 0.1 sin(v), chained over the 24 steps.
      double v = hx[i], d = 1;
      for (int k = 0; k < 24; ++k) {
        d *= 1 + 0.1 * std::cos(v);
        v = v + 0.1 * std::sin(v);
      }
      if (!(std::fabs(hxb[i] - d) <= 1e-5 * std::fabs(d)))
        ++bad;
    }
  }
  std::printf("tape-pool-missing: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
