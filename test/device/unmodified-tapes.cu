// A program written for Enzyme, unchanged: no gpuad header, no tape pool;
// its host code only raises the device heap (cudaDeviceSetLimit), as it
// would for Enzyme's tapes.  Two gradients need what the pool would give:
// a loop whose trip count comes from the data (a tape that grows) and one
// of 5000 steps (40 KB per thread, over the thread-local budget).  Each
// thread takes that memory from the device heap; the gradients are checked
// against central finite differences of a host copy (1e-6) and the dot
// product against forward mode (1e-12), over two launches.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// WARN-DAG: warning: gpuad: this derivative keeps its tape (arrays that grow at run time) in the global tape pool, which the program does not provide
// WARN-DAG: warning: gpuad: this derivative keeps its tape (40000 bytes per thread) in the global tape pool, which the program does not provide

#include "include/plaincheck.h"

#include <cmath>
#include <cstdio>
#include <vector>

extern __device__ int enzyme_dup, enzyme_const;
__device__ void __enzyme_autodiff(void *, ...);
__device__ void __enzyme_fwddiff(void *, ...);

constexpr int Long = 5000;

// y[i] = x[i] after len[i] steps of v += 0.05 sin(v + 0.1 k).
__host__ __device__ double relax(double v, int len) {
  for (int k = 0; k < len; ++k)
    v = v + 0.05 * sin(v + 0.1 * k);
  return v;
}
__device__ void byData(const double *x, const int *len, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = relax(x[i], len[i]);
}
__device__ void byConstant(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i];
#pragma unroll 1
  for (int k = 0; k < Long; ++k)
    v = v + 0.05 * sin(v + 0.1 * k);
  y[i] = v;
}

__global__ void gradData(const double *x, double *xb, const int *len,
                         double *y, double *yb, int n) {
  __enzyme_autodiff((void *)byData, enzyme_dup, x, xb, enzyme_const, len,
                    enzyme_dup, y, yb, enzyme_const, n);
}
__global__ void tangentData(const double *x, const double *xd, const int *len,
                            double *y, double *yd, int n) {
  __enzyme_fwddiff((void *)byData, enzyme_dup, x, xd, enzyme_const, len,
                   enzyme_dup, y, yd, enzyme_const, n);
}
__global__ void gradConstant(const double *x, double *xb, double *y,
                             double *yb, int n) {
  __enzyme_autodiff((void *)byConstant, enzyme_dup, x, xb, enzyme_dup, y, yb,
                    enzyme_const, n);
}

template <class T> T *upload(const std::vector<T> &v) {
  T *p = nullptr;
  if (cudaMalloc((void **)&p, v.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice) !=
          cudaSuccess)
    return nullptr;
  return p;
}
template <class T> std::vector<T> download(const T *p, size_t n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

int main() {
  const int n = 96, block = 32, blocks = n / block;
#ifndef __HIP__ // ROCm 5.2's device heap grows by itself
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t(64) << 20));
#endif
  std::vector<double> x(n), ybar(n), xdot(n), zero(n, 0.0);
  std::vector<int> len(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.0 + 2.0 * i / n;
    ybar[i] = 1.0 + 0.01 * (i % 7);
    xdot[i] = 0.5 - 0.004 * i;
    len[i] = 1 + (i * 7) % 40;
  }
  double *dx = upload(x), *dy = upload(zero), *dyb = upload(ybar);
  double *dxd = upload(xdot), *dyd = upload(zero), *dxb = upload(zero);
  int *dlen = upload(len);
  for (int launch = 0; launch < 2; ++launch) {
    CHECK_CUDA(cudaMemcpy(dxb, zero.data(), n * sizeof(double),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dyb, ybar.data(), n * sizeof(double),
                          cudaMemcpyHostToDevice));
    gradData<<<blocks, block>>>(dx, dxb, dlen, dy, dyb, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> xbar = download(dxb, n);
    tangentData<<<blocks, block>>>(dx, dxd, dlen, dy, dyd, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> ydot = download(dyd, n);
    for (int i = 0; i < n; ++i) {
      double h = 1e-6;
      double fd = (relax(x[i] + h, len[i]) - relax(x[i] - h, len[i])) / (2 * h);
      expectNear("data fd", i, xbar[i], ybar[i] * fd, 1e-6);
      // <J xdot, ybar> = <xdot, J^T ybar>, per element (J is diagonal).
      expectNear("data dot", i, xdot[i] * xbar[i], ydot[i] * ybar[i], 1e-12);
    }
  }
  CHECK_CUDA(cudaMemcpy(dxb, zero.data(), n * sizeof(double),
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dyb, ybar.data(), n * sizeof(double),
                        cudaMemcpyHostToDevice));
  gradConstant<<<blocks, block>>>(dx, dxb, dy, dyb, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<double> xbar = download(dxb, n);
  for (int i = 0; i < n; ++i) {
    double h = 1e-6;
    double fd = (relax(x[i] + h, Long) - relax(x[i] - h, Long)) / (2 * h);
    expectNear("constant fd", i, xbar[i], ybar[i] * fd, 1e-6);
  }
  if (failures) {
    std::printf("unmodified-tapes: FAIL (%d mismatches)\n", failures);
    return 1;
  }
  std::printf("unmodified-tapes: PASS (growing and 40 KB tapes from the "
              "device heap, 2 launches, vs FD 1e-6 and the dot product)\n");
  return 0;
}
