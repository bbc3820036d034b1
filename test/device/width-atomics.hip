// HIP: vector forward mode and atomics on amdgcn.
//   - enzyme_width 2 with the result declared as struct { double d[2]; }
//     (C++ template form), two shadows per dup argument
//   - enzyme_dupv: pointer shadows at base + lane * stride bytes
//   - atomicAdd on double and float outputs inside the differentiated
//     function: the shadow update must be an atomic add too (an atomicrmw
//     fadd per primal one in the kernel's IR)
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

struct Vec2 {
  double d[2];
};

__device__ double g(double x, double y) { return sin(x) * y + exp(x * y); }

__device__ void store_sq(const double *x, double *y, int i) {
  y[i] = x[i] * x[i] * cos(x[i]);
}

__global__ void width2_hip(const double *x, const double *y, Vec2 *grad,
                           const double *px, const double *dpx, double *py,
                           double *dpy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  grad[i] = __enzyme_fwddiff<Vec2>((void *)g, enzyme_width, 2, enzyme_dup,
                                   x[i], 1.0, 0.0, enzyme_dup, y[i], 0.0, 1.0);
  // dpx and dpy are [2][n].
  __enzyme_fwddiff<void>((void *)store_sq, enzyme_width, 2, enzyme_dupv,
                         (long)(n * sizeof(double)), px, dpx, enzyme_dupv,
                         (long)(n * sizeof(double)), py, dpy, enzyme_const, i);
}

__device__ void sum_sq(const double *x, double *sum, int i) {
  atomicAdd(sum, x[i] * x[i]);
}

__device__ void histogram(const float *v, const int *key, float *bins, int i) {
  atomicAdd(&bins[key[i]], expf(v[i]));
}

__global__ void atomics_hip(const double *x, const double *dx, double *sum,
                            double *dsum, const float *v, const float *dv,
                            const int *key, float *bins, float *dbins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)sum_sq, enzyme_dup, x, dx, enzyme_dup, sum,
                         dsum, enzyme_const, i);
  __enzyme_fwddiff<void>((void *)histogram, enzyme_dup, v, dv, enzyme_const,
                         key, enzyme_dup, bins, dbins, enzyme_const, i);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}width2_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}atomics_hip

// NOSYM-NOT: enzyme

// IR-LABEL: define {{.*}} @_Z11atomics_hip
// IR-COUNT-4: atomicrmw fadd
// IR-NOT: atomicrmw fadd
