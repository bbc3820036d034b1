// Thread, block and grid ids and sizes used inside the differentiated
// function: they are inactive (no shadow), the function indexes global arrays
// with them, computes a global index and a grid stride, and uses the lane id
// in arithmetic (converted to double, still inactive).  Also __ldg and a
// warp shuffle of an inactive value.
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

// y[gid] = x[gid]^2 * (1 + threadIdx.x) + sum over a grid-stride walk.
__device__ void by_thread(const double *x, double *y, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  double v = x[gid];
  double s = v * v * (1.0 + threadIdx.x);
  for (int j = gid + blockDim.x * gridDim.x; j < n; j += blockDim.x * gridDim.x)
    s += x[j] * (double)(blockIdx.y + 1);
  y[gid] = s;
}

// Returns a value: the lane id and a warp-shuffled integer select a constant.
__device__ double lane_weighted(const double *x) {
  unsigned lane = threadIdx.x % 32;
  int other = __shfl_xor_sync(0xffffffffu, (int)lane, 1);
  double w = (double)(other + 1) / 32.0;
  return w * tanh(__ldg(&x[blockIdx.x * blockDim.x + threadIdx.x]));
}

__global__ void thread_ids(const double *x, const double *dx, double *y,
                           double *dy, double *d, int n) {
  __enzyme_fwddiff<void>((void *)by_thread, enzyme_dup, x, dx, enzyme_dup, y,
                         dy, enzyme_const, n);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n)
    d[gid] = __enzyme_fwddiff<double>((void *)lane_weighted, enzyme_dup, x, dx);
}

// CHECK: .entry {{.*}}thread_ids
// CHECK: %tid.x

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
