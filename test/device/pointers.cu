// A differentiated __device__ function that takes pointers and writes its
// result through them: x and y are enzyme_dup with shadow arrays, the result
// has no return value (__enzyme_fwddiff<void>).  Forward mode writes the
// tangent of every store into the shadow of the destination.  Variants: a
// small per-thread stencil reading neighbours, an in-place update (the output
// aliases the input), a scalar result returned as well as stored, and an
// inactive (enzyme_const) pointer argument.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// y[i] = x[i-1] - 2 x[i] + x[i+1] + c[i] * x[i]^2 for interior i.
__device__ void stencil(const double *x, const double *c, double *y, int i,
                        int n) {
  if (i > 0 && i + 1 < n)
    y[i] = x[i - 1] - 2.0 * x[i] + x[i + 1] + c[i] * x[i] * x[i];
  else
    y[i] = 0.0;
}

// In place: x[i] = exp(x[i]) * x[i].
__device__ void scale_in_place(double *x, int i) { x[i] = exp(x[i]) * x[i]; }

// Stores a value and returns another: the request returns the shadow of the
// return value and writes the shadow of the store.
__device__ float store_and_return(const float *a, float *out, int i) {
  float v = a[i] * a[i];
  out[i] = sqrtf(v + 1.0f);
  return v * 3.0f;
}

__global__ void pointers(const double *x, const double *dx, const double *c,
                         double *y, double *dy, double *z, double *dz, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)stencil, enzyme_dup, x, dx, enzyme_const, c,
                         enzyme_dup, y, dy, enzyme_const, i, enzyme_const, n);
  __enzyme_fwddiff<void>((void *)scale_in_place, enzyme_dup, z, dz,
                         enzyme_const, i);
}

__global__ void pointers_float(const float *a, const float *da, float *out,
                               float *dout, float *dret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dret[i] = __enzyme_fwddiff<float>((void *)store_and_return, enzyme_dup, a,
                                      da, enzyme_dup, out, dout, enzyme_const,
                                      i);
}

// CHECK-DAG: .entry {{.*}}pointersPKd
// CHECK-DAG: .entry {{.*}}pointers_float

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
