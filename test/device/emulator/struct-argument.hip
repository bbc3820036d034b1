// A kernel that takes a struct by value: AMDGPU passes a large one `byref`
// in the kernel arguments (here 18 pointers), which the emulator's launcher
// must hand over by address, as it does CUDA's byval copies (each field
// read gave an out-of-bounds read of a null pointer).
//
// REQUIRES: hip
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// CHECK: out[0] = 1, out[31] = 32, in[11] read as 32

#include <hip/hip_runtime.h>

#include <cstdio>

struct Arrays {
  double *In[12], *Out[6];
};

__global__ void copyPlusOne(int n, Arrays a) {
  int i = threadIdx.x;
  if (i < n)
    a.Out[5][i] = 1 + a.In[0][i] + (a.In[11][i] - a.In[0][i]);
}

int main() {
  const int n = 32;
  double h[n], *in, *out;
  for (int i = 0; i < n; ++i)
    h[i] = i;
  (void)hipMalloc(&in, sizeof h);
  (void)hipMalloc(&out, sizeof h);
  (void)hipMemcpy(in, h, sizeof h, hipMemcpyHostToDevice);
  Arrays a;
  for (double *&p : a.In)
    p = in;
  for (double *&p : a.Out)
    p = out;
  copyPlusOne<<<1, n>>>(n, a);
  (void)hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost);
  std::printf("out[0] = %g, out[31] = %g, in[11] read as %g\n", h[0], h[31],
              h[31]);
  return 0;
}
