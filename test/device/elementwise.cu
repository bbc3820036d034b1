// Elementwise forward derivative on the device: y_i = f(x_i), and the tangent
// dy_i = f'(x_i) * dx_i is computed by one __enzyme_fwddiff request per
// thread.  The differentiated function mixes arithmetic, a libdevice call and
// a branch; the kernel guards the index and writes both primal and tangent.
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

__device__ double f(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

__global__ void elementwise_tangent(const double *x, const double *dx,
                                    double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = f(x[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], dx[i]);
  }
}

// A unit seed in the kernel: the derivative itself, not a directional one.
__global__ void elementwise_derivative(const double *x, double *dfdx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dfdx[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], 1.0);
}

// CHECK-DAG: .entry {{.*}}elementwise_tangent
// CHECK-DAG: .entry {{.*}}elementwise_derivative

// No request, marker or unresolved libdevice function is left.
// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
