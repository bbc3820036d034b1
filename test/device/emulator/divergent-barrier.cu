// A barrier only some threads of a block reach, at two different call
// sites: on a GPU a hang or undefined behaviour; the emulator stops with the
// kernel's name, the block, the thread and both barrier sites.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// RUN: not env GPUAD_EMU_SCHEDULE=concurrent %t 2>&1 | FileCheck %s
// CHECK: gpuad-emu: error in kernel 'split(float*)', block (0,0,0), thread
// CHECK-SAME: divergent __syncthreads: thread ({{[0-9]+}},0,0) waits at barrier {{[0-9]+}} while others of its block wait at barrier {{[0-9]+}}

#include <cstdio>

__global__ void split(float *x) {
  if (threadIdx.x < 16) {
    x[threadIdx.x] = 1;
    __syncthreads();
  } else {
    x[threadIdx.x] = 2;
    __syncthreads();
  }
}

int main() {
  float *x;
  cudaMalloc(&x, 64 * sizeof(float));
  split<<<1, 64>>>(x);
  cudaDeviceSynchronize();
  printf("not reached: the launch must fail\n");
  return 0;
}
