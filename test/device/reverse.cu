// Reverse mode in device code: kernels that call __enzyme_autodiff on device
// functions without barriers or shared memory.  Shadow updates to memory
// another thread may touch are atomic; a slot of the thread's own index
// (x[blockIdx.x * blockDim.x + threadIdx.x]) is a plain read-add-write --
// when optimised: at -O0 the index comes from a call to gid(), which the
// analysis does not look into, so the adds stay atomic (correct, slower).
// Thread ids are inactive; loops keep their tape per thread; a call to a
// noinline device function goes through its split halves.  The PTX must pass
// ptxas at every optimisation level.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefixes=CHECK,OPT --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// y[i] = x[i]^2 sin(x[i]): every access is the thread's own slot, and the
// arrays are restrict (without it, x and y could be one array shifted, and
// another thread's x[j] could be this thread's y[i]).
__device__ void square(const double *__restrict__ x, double *__restrict__ y,
                       int n) {
  int i = gid();
  if (i < n)
    y[i] = x[i] * x[i] * sin(x[i]);
}

// The same without restrict: the adds must stay atomic.
__device__ void square_may_alias(const double *x, double *y, int n) {
  int i = gid();
  if (i < n)
    y[i] = x[i] * x[i] * sin(x[i]);
}

// y[i] = x[i] x[i+1]: x[i+1] is the next thread's slot.
__device__ void stencil(const double *x, double *y, int n) {
  int i = gid();
  if (i + 1 < n)
    y[i] = x[i] * x[i + 1];
}

// y[i] = sum_j a[i n + j] tanh(x[j]): every thread reads all of x.
__device__ void rowdot(const float *a, const float *x, float *y, int n) {
  int i = gid();
  if (i >= n)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    s += a[i * n + j] * tanhf(x[j]);
  y[i] = s;
}

__device__ __noinline__ double spring(double a, double b) {
  double d = b - a - 1.0;
  return 0.5 * d * d + 0.1 * exp(-a * b);
}

// A call to a noinline device function with active scalar arguments.
__device__ void springs(const double *__restrict__ x, double *__restrict__ e,
                        int n) {
  int i = gid();
  if (i < n)
    e[i] = spring(x[i], 2.0 * x[i] + 0.5);
}

__global__ void grad_square(const double *x, double *dx, double *y, double *dy,
                            int n) {
  __enzyme_autodiff((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_square
// OPT-NOT: atomicrmw
// CHECK: ret void

__global__ void grad_square_may_alias(const double *x, double *dx, double *y,
                                      double *dy, int n) {
  __enzyme_autodiff((void *)square_may_alias, enzyme_dup, x, dx, enzyme_dup, y,
                    dy, n);
}
// CHECK-LABEL: define {{.*}}grad_square_may_alias
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("device")
// CHECK: ret void

__global__ void grad_stencil(const double *x, double *dx, double *y,
                             double *dy, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_stencil
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("device")
// CHECK: ret void

__global__ void grad_rowdot(const float *a, float *da, const float *x,
                            float *dx, float *y, float *dy, int n) {
  __enzyme_autodiff((void *)rowdot, enzyme_dup, a, da, enzyme_dup, x, dx,
                    enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_rowdot
// CHECK: atomicrmw fadd ptr {{.*}}, float
// CHECK: ret void

__global__ void grad_springs(const double *x, double *dx, double *e,
                             double *de, int n) {
  __enzyme_autodiff((void *)springs, enzyme_dup, x, dx, enzyme_dup, e, de, n);
}
// CHECK-LABEL: define {{.*}}grad_springs
// OPT-NOT: atomicrmw
// CHECK: ret void
