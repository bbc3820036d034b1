// A kernel gpuad cannot differentiate (an atomicCAS loop on the data) gets
// no derivative kernels: the device compile says why in a remark, not an
// error (nothing asked for them), and a differentiated host driver that
// launches it stops at run time with a message naming the derivative
// kernel, the kernel and where to look -- never a wrong gradient.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -S %s -o /dev/null -Rpass-missed=gpuad 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: no adjoint kernel of 'runningMax(double*, double const*, int)' for launches from differentiated host code: cannot differentiate compare-and-swap on differentiated memory
// Memory the host could not keep for the adjoint: reached through pointers
// in memory, a device variable, a write through a const parameter.
// REMARK-DAG: remark: no adjoint kernel of 'gather(double**, int)' for launches from differentiated host code: it reaches memory through a pointer gpuad cannot trace to an argument
// REMARK-DAG: remark: no tangent kernel of 'accumulate(double const*, int)' for launches from differentiated host code: it uses the device variable 'total', whose contents a launch's derivative cannot keep
// REMARK-DAG: remark: no adjoint kernel of 'castAway(double const*, int)' for launches from differentiated host code: it writes through its parameter declared const
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// CHECK: gpuad: cannot launch '__gpuad_rev__Z10runningMaxPdPKdi', the adjoint kernel of 'runningMax(double*, double const*, int)'; the device code has none where gpuad could not differentiate the kernel (-Rpass-missed=gpuad says why) or saw no host request of its file launch it (-mllvm -gpuad-launch-derivatives=all makes them for every kernel)
// CHECK-NOT: gradient

#include <gpuad/gpuad.h>

#include <cstdio>

__global__ void runningMax(double *m, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  auto *bits = reinterpret_cast<unsigned long long *>(m);
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    double larger = fmax(x[i], __longlong_as_double(assumed));
    old = atomicCAS(bits, assumed, __double_as_longlong(larger));
  } while (assumed != old);
}

__global__ void gather(double **rows, int n) {
  int i = threadIdx.x;
  if (i < n)
    rows[0][i] *= rows[1][i];
}

__device__ double total;
__global__ void accumulate(const double *x, int n) {
  if (threadIdx.x < n)
    atomicAdd(&total, x[threadIdx.x]);
}

__global__ void castAway(const double *x, int n) {
  if (threadIdx.x < n)
    const_cast<double *>(x)[threadIdx.x] *= 2;
}

double others(double **rows, const double *x, int n) {
  gather<<<1, 32>>>(rows, n);
  accumulate<<<1, 32>>>(x, n);
  castAway<<<1, 32>>>(x, n);
  return 0;
}

double loss(const double *x, int n) {
  double *dx, *dm, m = -1e300;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dm, sizeof(double));
  cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, &m, sizeof(double), cudaMemcpyHostToDevice);
  runningMax<<<1, 32>>>(dm, dx, n);
  cudaMemcpy(&m, dm, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dm);
  return m;
}

int main() {
  double x[8] = {1, 5, 2, 7, 3, 0, 4, 6}, g[8] = {};
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, g, enzyme_const, 8);
  if (g[0] == 12345) // never: the request names others' kernels
    __enzyme_autodiff<void>((void *)others, enzyme_const, nullptr, enzyme_dup,
                            x, g, enzyme_const, 8);
  std::printf("gradient %g\n", g[3]);
  return 0;
}
