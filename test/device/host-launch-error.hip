// HIP: a host function that launches a kernel, differentiated from host
// code, stops with an error naming the kernel and hipLaunchKernel (kernel
// launches are not differentiated yet), at -O2 and -O0.
//
// REQUIRES: hip
// RUN: not %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -x hip --cuda-host-only -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: CallConfiguration
// CHECK: error: gpuad: cannot differentiate the launch of kernel 'square(double*, double const*, int)' ('hipLaunchKernel'): kernel launches from differentiated host code are not supported yet
// CHECK-NOT: CallConfiguration

#include <gpuad/gpuad.h>
#include <hip/hip_runtime.h>

__global__ void square(double *y, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i];
}

double loss(const double *x, int n) {
  double *dx, *dy, y0;
  if (hipMalloc(&dx, n * sizeof(double)) || hipMalloc(&dy, n * sizeof(double)))
    return 0;
  (void)hipMemcpy(dx, x, n * sizeof(double), hipMemcpyHostToDevice);
  square<<<(n + 63) / 64, 64>>>(dy, dx, n);
  (void)hipMemcpy(&y0, dy, sizeof(double), hipMemcpyDeviceToHost);
  (void)hipFree(dx);
  (void)hipFree(dy);
  return y0;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_const, n);
}
