// Threads that can never meet: lanes 0-15 shuffle with a full mask while
// lanes 16-31 wait at __syncthreads.  The emulator names where each thread
// waits instead of hanging.  (Threads that *return* before a barrier are
// not an error: as on the GPU, the barrier counts only threads that have
// not exited; the `exit` run checks that.)
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: not env GPUAD_EMU_SCHEDULE=concurrent %t 2>&1 | FileCheck %s
// RUN: %t exit | FileCheck %s --check-prefix=EXIT
// CHECK: gpuad-emu: error in kernel 'mismatched(float*)'
// CHECK-SAME: threads wait for each other forever: 16 thread(s) at __syncthreads, the first thread (16,0,0); 16 thread(s) at a warp operation, the first thread (0,0,0);
// CHECK-SAME: (a barrier not every thread reaches, or a warp operation whose mask names lanes that wait elsewhere)
// EXIT: early exit: ok

#include <cstdio>

__global__ void mismatched(float *x) {
  float v = threadIdx.x;
  if (threadIdx.x < 16)
    v = __shfl_sync(0xffffffffu, v, 0);
  else
    __syncthreads();
  x[threadIdx.x] = v;
}

__global__ void early_exit(float *x, float *y, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  x[i] = i;
  __syncthreads();
  y[i] = x[i] + x[(i + 1) % n];
}

int main(int argc, char **argv) {
  float *x, *y;
  cudaMalloc(&x, 64 * sizeof(float));
  cudaMalloc(&y, 64 * sizeof(float));
  if (argc == 1) {
    mismatched<<<1, 32>>>(x);
    cudaDeviceSynchronize();
    return 0;
  }
  const int n = 40;
  early_exit<<<1, 64>>>(x, y, n);
  float h[n];
  cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != float(i + (i + 1) % n)) {
      printf("early exit: x[%d] = %g, expected %d\n", i, h[i], i + (i + 1) % n);
      return 1;
    }
  printf("early exit: ok\n");
  return 0;
}
