// atomicAdd on a float/double output inside the differentiated function.
// Many threads add into the same address, so forward mode must turn the
// atomic add on the primal into an atomic add (of the tangent) on the shadow
// at the same address; a plain load/add/store on the shadow would race.
// Variants: double and float, a reduction into one cell, a scatter into a
// histogram bin chosen by an inactive index, and a use of the returned old
// value (whose tangent is the shadow's old value).
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
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// sum += x[i]^2 (double).
__device__ void sum_sq(const double *x, double *sum, int i) {
  atomicAdd(sum, x[i] * x[i]);
}

// bins[key[i]] += exp(v[i]) (float); key is inactive.
__device__ void histogram(const float *v, const int *key, float *bins, int i) {
  atomicAdd(&bins[key[i]], expf(v[i]));
}

// Uses the old value: returns old * x.
__device__ double fetch_add(double *acc, double x) {
  double old = atomicAdd(acc, x);
  return old * x;
}

__global__ void atomics(const double *x, const double *dx, double *sum,
                        double *dsum, const float *v, const float *dv,
                        const int *key, float *bins, float *dbins, double *acc,
                        double *dacc, double *dret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)sum_sq, enzyme_dup, x, dx, enzyme_dup, sum,
                         dsum, enzyme_const, i);
  __enzyme_fwddiff<void>((void *)histogram, enzyme_dup, v, dv, enzyme_const,
                         key, enzyme_dup, bins, dbins, enzyme_const, i);
  dret[i] = __enzyme_fwddiff<double>((void *)fetch_add, enzyme_dup, acc, dacc,
                                     enzyme_dup, x[i], dx[i]);
}

// The shadow updates are atomics as well: at least two double and one float
// atomic adds per kernel (primal and shadow).
// CHECK: .entry {{.*}}atomics
// CHECK-DAG: atom{{(.global)?}}.add.f64
// CHECK-DAG: atom{{(.global)?}}.add.f32

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// In the kernel's IR every fadd atomic has a twin on the shadow: six in all
// (the primal functions, still defined above it, have theirs).
// IR-LABEL: define {{.*}} @_Z7atomicsPKd
// IR-COUNT-6: atomicrmw fadd
// IR-NOT: atomicrmw fadd
