// Vector forward mode on the device: enzyme_width 2 computes two directional
// derivatives per request.  The result is declared with the C++ template form
// as a struct of two doubles (or floats); every dup argument carries two
// shadows.  enzyme_dupv gives the shadows of a pointer as one base plus a byte
// stride (lane v's shadow at base + v*stride), here a [2][n] shadow array.
// Width-2 shadows become <2 x double> values that NVPTX must legalize, at
// -O0 too.
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

struct Vec2 {
  double d[2];
};
struct Vec2f {
  float f[2];
};

__device__ double g(double x, double y) { return sin(x) * y + exp(x * y); }

__device__ float h(const float *a, int i) { return a[i] * logf(a[i] + 2.0f); }

__device__ void store_sq(const double *x, double *y, int i) {
  y[i] = x[i] * x[i] * cos(x[i]);
}

__global__ void width2(const double *x, const double *y, Vec2 *grad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // The gradient of g in one request: directions e_x and e_y.
  grad[i] = __enzyme_fwddiff<Vec2>((void *)g, enzyme_width, 2, enzyme_dup,
                                   x[i], 1.0, 0.0, enzyme_dup, y[i], 0.0, 1.0);
}

__global__ void width2_pointers(const float *a, const float *da0,
                                const float *da1, Vec2f *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __enzyme_fwddiff<Vec2f>((void *)h, enzyme_width, 2, enzyme_dup, a,
                                     da0, da1, enzyme_const, i);
}

// dx and dy are [2][n]: lane v's shadow starts at dx + v*n.
__global__ void width2_dupv(const double *x, const double *dx, double *y,
                            double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_fwddiff<void>((void *)store_sq, enzyme_width, 2, enzyme_dupv,
                           (long)(n * sizeof(double)), x, dx, enzyme_dupv,
                           (long)(n * sizeof(double)), y, dy, enzyme_const, i);
}

// CHECK-DAG: .entry {{.*}}width2P
// CHECK-DAG: .entry {{.*}}width2_pointers
// CHECK-DAG: .entry {{.*}}width2_dupv

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
