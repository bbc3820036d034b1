// HIP: a __host__ __device__ function differentiated from host code and from
// a kernel in the same file, plus a __host__ __device__ caller that makes the
// request on both sides.  The device side must link (lld), the host object
// must not reference any __enzyme_* request or enzyme_* marker.
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
//
// RUN: %gpuad-cc -x hip --cuda-host-only -O0 -c %s -o %t.host.O0.o
// RUN: llvm-nm %t.host.O0.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.O2.o
// RUN: llvm-nm %t.host.O2.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc -x hip --cuda-host-only -O3 -c %s -o %t.host.O3.o
// RUN: llvm-nm %t.host.O3.o | FileCheck %s --check-prefix=HOST

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__host__ __device__ double model(double x, double k) {
  return k * x * x + sin(x) * exp(-k * x);
}

__global__ void host_device_hip(const double *x, const double *k, double *d,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x[i], 1.0,
                                    enzyme_const, k[i]);
}

double host_derivative(double x, double k) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_const, k);
}

__host__ __device__ double dual_caller(double x) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_dup, 2.0, 0.5);
}

__global__ void dual_kernel_hip(const double *x, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = dual_caller(x[i]);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}host_device_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}dual_kernel_hip

// NOSYM-NOT: enzyme

// HOST-NOT: enzyme
// HOST: T {{.*}}host_derivative
// HOST-NOT: enzyme
