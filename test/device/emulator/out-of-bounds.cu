// Device accesses outside every allocation are errors with the kernel, the
// thread and the address; GPUAD_EMU_CHECK=0 turns the checks off.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: not %t write 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: not %t read 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not %t freed 2>&1 | FileCheck %s --check-prefix=FREED
// RUN: %t none | FileCheck %s --check-prefix=NONE
// WRITE: gpuad-emu: error in kernel 'scale(float*, int)', block (3,0,0), thread (31,0,0): out-of-bounds write of 4 byte(s) at 0x
// READ: gpuad-emu: error in kernel 'gather(float const*, int const*, float*, int)', block (0,0,0), thread (5,0,0): out-of-bounds read of 4 byte(s)
// FREED: gpuad-emu: error in kernel 'scale(float*, int)'
// FREED-SAME: out-of-bounds write
// NONE: in bounds: ok

#include <cstdio>
#include <cstring>
#include <string>

// Off by one: the guard lets i == n through.
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    x[i] = 2.0f * i;
}

__global__ void gather(const float *x, const int *index, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[index[i]];
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "none";
  const int n = 127;
  float *x, *y;
  int *index;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&index, n * sizeof(int));
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = (!strcmp(mode, "read") && i == 5) ? 1 << 20 : n - 1 - i;
  cudaMemcpy(index, host, sizeof host, cudaMemcpyHostToDevice);
  if (!strcmp(mode, "write")) {
    scale<<<4, 32>>>(x, n);
  } else if (!strcmp(mode, "read")) {
    gather<<<4, 32>>>(x, index, y, n);
  } else if (!strcmp(mode, "freed")) {
    cudaFree(x);
    scale<<<4, 32>>>(x, n - 1);
  } else {
    scale<<<4, 32>>>(x, n - 1);
    gather<<<4, 32>>>(x, index, y, n);
  }
  cudaDeviceSynchronize();
  printf("in bounds: %s\n", cudaGetErrorString(cudaGetLastError()) ==
                                    std::string("no error") ? "ok" : "error");
  return 0;
}
