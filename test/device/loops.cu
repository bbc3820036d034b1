// Loops inside the differentiated __device__ function: a fixed trip count
// (unrolled at -O2/-O3, a real loop at -O0), a trip count read from the data
// (an inactive integer argument), a trip count from memory, and a loop whose
// exit depends on the active value (Newton iterations).  The kernel also
// loops around the request (grid-stride), so the derivative is called in a
// loop too.
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

// Horner evaluation of a fixed-degree polynomial.
__device__ double poly8(double x) {
  const double c[8] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125, 0.015625,
                       -0.0078125};
  double r = 0.0;
  for (int k = 7; k >= 0; --k)
    r = r * x + c[k];
  return r;
}

// Data-dependent trip count: n is an integer argument (inactive).
__device__ double power_sum(double x, int n) {
  double acc = 0.0, p = 1.0;
  for (int k = 0; k < n; ++k) {
    p *= x;
    acc += sin(p) / (k + 1);
  }
  return acc;
}

// Trip count loaded from memory; the loop reads an active array (w, dup).
__device__ double weighted(const double *w, const int *len, double x) {
  double s = 0.0;
  for (int k = 0; k < *len; ++k)
    s += w[k] * exp(-x * k);
  return s;
}

// The exit condition depends on the active value.
__device__ double newton_sqrt(double a) {
  double r = a > 1.0 ? a : 1.0;
  for (int it = 0; it < 50; ++it) {
    double next = 0.5 * (r + a / r);
    if (fabs(next - r) < 1e-14 * r)
      break;
    r = next;
  }
  return r;
}

__global__ void loops(const double *x, const double *dx, const int *counts,
                      const double *w, const double *dw, const int *len,
                      double *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    double v = x[i], dv = dx[i];
    d[4 * i + 0] = __enzyme_fwddiff<double>((void *)poly8, enzyme_dup, v, dv);
    d[4 * i + 1] = __enzyme_fwddiff<double>((void *)power_sum, enzyme_dup, v,
                                            dv, enzyme_const, counts[i]);
    d[4 * i + 2] = __enzyme_fwddiff<double>((void *)weighted, enzyme_dup, w, dw,
                                            enzyme_const, len, enzyme_dup, v,
                                            dv);
    d[4 * i + 3] =
        __enzyme_fwddiff<double>((void *)newton_sqrt, enzyme_dup, v, dv);
  }
}

// CHECK: .entry {{.*}}loops

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
