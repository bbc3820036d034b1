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

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// by_thread's stores and tangents and lane_weighted's tangent against host
// copies (given the thread's ids) and their central differences along dx.
// 3 blocks of 64 threads for 500 elements: the grid-stride sum has 2 or 3
// terms, and elements past the grid are never written (they keep 777).

#include "include/devcheck.h"

// by_thread for the thread with global index gid and threadIdx.x tid.
static double hostByThread(const std::vector<double> &x, int gid, int tid,
                           int stride) {
  double v = x[gid];
  double s = v * v * (1.0 + tid);
  for (int j = gid + stride; j < (int)x.size(); j += stride)
    s += x[j] * 1.0; // blockIdx.y + 1 with a one-dimensional grid
  return s;
}

static double hostLaneWeighted(double x, int tid) {
  int other = (tid % 32) ^ 1;
  return (double)(other + 1) / 32.0 * std::tanh(x);
}

int main() {
  // Double central differences with h = 1e-6: error ~1e-9 here.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal stores: the same double expressions.
  Tol primal{"primal", 1e-13};

  const int n = 500, block = 64, grid = 3, stride = block * grid;
  std::vector<double> x(n), dx(n), sentinel(n, 777.0);
  for (int i = 0; i < n; ++i) {
    x[i] = std::sin(0.37 * i);
    dx[i] = 0.5 + 0.25 * std::cos(0.11 * i);
  }
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx), *dY = deviceCopy(sentinel),
         *dDy = deviceCopy(sentinel), *dD = deviceCopy(sentinel);
  thread_ids<<<grid, block>>>(dX, dDx, dY, dDy, dD, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> y = hostCopy(dY, n), dy = hostCopy(dDy, n),
                      d = hostCopy(dD, n);

  std::vector<double> xp(n), xm(n);
  for (int i = 0; i < n; ++i)
    xp[i] = x[i] + H * dx[i], xm[i] = x[i] - H * dx[i];
  for (int i = 0; i < n; ++i) {
    if (i >= stride) { // no thread has this global index
      expectNear(primal, "y (unwritten)", i, y[i], 777.0);
      expectNear(primal, "dy (unwritten)", i, dy[i], 777.0);
      expectNear(primal, "d (unwritten)", i, d[i], 777.0);
      continue;
    }
    int tid = i % block;
    expectNear(primal, "y", i, y[i], hostByThread(x, i, tid, stride));
    expectNear(fd, "dy", i, dy[i],
               (hostByThread(xp, i, tid, stride) -
                hostByThread(xm, i, tid, stride)) /
                   (2 * H));
    expectNear(fd, "lane_weighted", i, d[i],
               (hostLaneWeighted(xp[i], tid) - hostLaneWeighted(xm[i], tid)) /
                   (2 * H));
  }
  return finish("by_thread y/dy (grid-stride sum) and lane_weighted along dx "
                "vs host copies and central FD h=1e-6; n=500 on 3x64 threads",
                {&fd, &primal});
}
