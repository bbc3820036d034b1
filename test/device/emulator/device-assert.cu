// assert() in a kernel stops the program with the expression, the source
// position, the kernel and the thread; host asserts stay glibc's.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: gpuad-emu: error in kernel 'positive(float const*, int)', block (1,0,0), thread (2,0,0): {{.*}}device-assert.cu:15: {{.*}}positive{{.*}}: assertion `x[i] > 0' failed

#include <cassert>
#include <cstdio>

__global__ void positive(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assert(x[i] > 0);
}

int main() {
  float h[64];
  for (int i = 0; i < 64; ++i)
    h[i] = i == 34 ? -1.0f : 1.0f;
  float *x;
  cudaMalloc(&x, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  positive<<<2, 32>>>(x, 64);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
