// HIP: elementwise forward derivative on amdgcn (gfx90a).  y_i = f(x_i) with
// one __enzyme_fwddiff request per thread; f mixes arithmetic, ocml math and
// a branch.  A second kernel differentiates a function that loops (fixed and
// data-dependent trip counts) and writes through shadowed pointers.  The -S
// output is checked for the kernel and for leftover requests or markers; the
// -c compile links the code object with lld, which fails on any undefined
// symbol (e.g. an __ocml_* function the derivative needs but nobody defined).
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
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__device__ double f(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

__device__ void smooth_loop(const double *x, double *y, int i, int n,
                            int iters) {
  double v = x[i];
  for (int k = 0; k < 4; ++k) // fixed
    v = v * 0.75 + sqrt(v * v + 1.0) * 0.25;
  for (int k = 0; k < iters; ++k) // data-dependent
    v += x[(i + k) % n] / (k + 1);
  y[i] = v;
}

__global__ void elementwise_hip(const double *x, const double *dx, double *y,
                                double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = f(x[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], dx[i]);
  }
}

__global__ void loop_pointers_hip(const double *x, const double *dx, double *y,
                                  double *dy, const int *iters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_fwddiff<void>((void *)smooth_loop, enzyme_dup, x, dx, enzyme_dup,
                           y, dy, enzyme_const, i, enzyme_const, n,
                           enzyme_const, iters[i]);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}elementwise_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}loop_pointers_hip

// NOSYM-NOT: enzyme
