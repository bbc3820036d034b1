// HIP: launches gpuad cannot differentiate from host code stop with an
// error naming the kernel, hipLaunchKernel and the reason, at -O2 and -O0
// (host-launch-error.cu has the CUDA forms).
//
// REQUIRES: hip
// RUN: not %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -x hip --cuda-host-only -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: gpuad: cannot differentiate the launch of a kernel through a pointer ('hipLaunchKernel'): the kernel is a pointer gpuad cannot resolve to a kernel

#include <gpuad/gpuad.h>
#include <hip/hip_runtime.h>

__global__ void square(double *y, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i];
}

__global__ void cube(double *y, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] * x[i];
}

double throughPointer(double *y, const double *x, int n, int which) {
  void *kernel = which ? (void *)square : (void *)cube;
  void *args[] = {&y, &x, &n};
  (void)hipLaunchKernel(kernel, dim3(1), dim3(64), args, 0, 0);
  double r;
  (void)hipMemcpy(&r, y, sizeof(double), hipMemcpyDeviceToHost);
  return r;
}

void grad(double *y, double *dy, const double *x, double *dx, int n) {
  __enzyme_autodiff<void>((void *)throughPointer, enzyme_dup, y, dy,
                          enzyme_dup, x, dx, enzyme_const, n, enzyme_const, 1);
}
