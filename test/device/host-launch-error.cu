// A host function that launches a kernel, differentiated from host code:
// kernel launches are not differentiated yet, so gpuad stops with an error
// naming the launch instead of leaving the kernel's derivative out, at -O2
// and -O0 (the launch configuration's push and pop are not the problem);
// the same function's runtime copies alone are differentiated
// (runtime-memory.cu).
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: CallConfiguration
// CHECK: error: gpuad: cannot differentiate the launch of kernel '__device_stub__square(double*, double const*, int)' ('cudaLaunchKernel'): kernel launches from differentiated host code are not supported yet
// CHECK-NOT: CallConfiguration

#include <gpuad/gpuad.h>

__global__ void square(double *y, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i];
}

double loss(const double *x, int n) {
  double *dx, *dy;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dy, n * sizeof(double));
  cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice);
  square<<<(n + 63) / 64, 64>>>(dy, dx, n);
  double y0;
  cudaMemcpy(&y0, dy, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return y0;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_const, n);
}
