// Launches gpuad cannot differentiate from host code stop with an error
// naming the kernel, the launch call and the reason, at -O2 and -O0:
// a kernel chosen through a pointer gpuad cannot resolve, a kernel
// taking a union by value (its bytes may hold either member; the device
// compile makes no derivative kernel of it, and says why), a struct with a
// long double, and one with more than 64 scalar fields.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// (At -O2 the runtime header's wrapper is inlined: the user's line.)
// O2-DAG: host-launch-error.cu:[[#@LINE+36]]:3: error: gpuad: cannot differentiate the launch of a kernel through a pointer ('cudaLaunchKernel'): the kernel is a pointer gpuad cannot resolve to a kernel
// O0-DAG: error: gpuad: cannot differentiate the launch of a kernel through a pointer ('cudaLaunchKernel'): the kernel is a pointer gpuad cannot resolve to a kernel
// CHECK-DAG: error: gpuad: cannot differentiate the launch of kernel 'scaled(double*, Pair, int)' ('cudaLaunchKernel'): its argument 2 is passed by value as an aggregate gpuad cannot read: it holds a union, whose bytes may be of any member
// CHECK-DAG: error: gpuad: cannot differentiate the launch of kernel 'withLongDouble(double*, Wide)' ('cudaLaunchKernel'): its argument 2 is passed by value as an aggregate gpuad cannot read: it holds a value of type 'x86_fp80'
// CHECK-DAG: error: gpuad: cannot differentiate the launch of kernel 'withBuffer(double*, Tagged)' ('cudaLaunchKernel'): its argument 2 is passed by value as an aggregate gpuad cannot read: it has more than 64 scalar fields
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -S -Rpass-missed=gpuad -mllvm -gpuad-launch-derivatives=all %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: remark: no adjoint kernel of 'scaled(double*, Pair, int)' for launches from differentiated host code: its parameter 2 is an aggregate passed by value that gpuad cannot read: it holds a union, whose bytes may be of any member

#include <gpuad/gpuad.h>

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

union Pair {
  double a;
  long long b;
};

__global__ void scaled(double *y, Pair p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= p.a;
}

double throughPointer(double *y, const double *x, int n, int which) {
  void *kernel = which ? (void *)square : (void *)cube;
  void *args[] = {&y, &x, &n};
  cudaLaunchKernel(kernel, dim3(1), dim3(64), args, 0, 0);
  double r;
  cudaMemcpy(&r, y, sizeof(double), cudaMemcpyDeviceToHost);
  return r;
}

double byValue(double *y, double a, int n) {
  Pair p;
  p.a = a;
  scaled<<<1, 64>>>(y, p, n);
  double r;
  cudaMemcpy(&r, y, sizeof(double), cudaMemcpyDeviceToHost);
  return r;
}

struct Wide {
  double a;
  long double b;
};
__global__ void withLongDouble(double *y, Wide w) { y[threadIdx.x] *= w.a; }

struct Tagged {
  double a;
  char tag[80];
};
__global__ void withBuffer(double *y, Tagged t) { y[threadIdx.x] *= t.a; }

double longDouble(double *y, double a) {
  withLongDouble<<<1, 32>>>(y, Wide{a, 1.0L});
  double r;
  cudaMemcpy(&r, y, sizeof(double), cudaMemcpyDeviceToHost);
  return r;
}

double buffer(double *y, double a) {
  withBuffer<<<1, 32>>>(y, Tagged{a, "label"});
  double r;
  cudaMemcpy(&r, y, sizeof(double), cudaMemcpyDeviceToHost);
  return r;
}

void grad(double *y, double *dy, const double *x, double *dx, int n) {
  __enzyme_autodiff<void>((void *)throughPointer, enzyme_dup, y, dy,
                          enzyme_dup, x, dx, enzyme_const, n, enzyme_const, 1);
  __enzyme_autodiff<double>((void *)byValue, enzyme_dup, y, dy, enzyme_out,
                            1.0, enzyme_const, n);
  __enzyme_autodiff<double>((void *)longDouble, enzyme_dup, y, dy, enzyme_out,
                            1.0);
  __enzyme_autodiff<double>((void *)buffer, enzyme_dup, y, dy, enzyme_out,
                            1.0);
}
