// __syncthreads() and __shared__ memory in the kernel around the request, not
// inside the differentiated function (shadow shared memory is later work).
// The kernel stages inputs through a shared tile, synchronizes, calls the
// derivative on values read from the tile (the tile itself is passed to the
// request as enzyme_const and the tangents come from global memory), then
// synchronizes again and does a block reduction of the tangents in shared
// memory.  A dynamic extern __shared__ buffer is used the same way.
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

#define TILE 128

__device__ double smooth(double left, double mid, double right) {
  return 0.25 * left + 0.5 * mid + 0.25 * right + tanh(mid);
}

// Differentiated w.r.t. a single value read from a (shared) tile by the
// caller; the tile pointer itself is inactive.
__device__ double from_tile(const double *tile, int j, double scale) {
  return scale * tile[j] * tile[j];
}

__global__ void __launch_bounds__(TILE)
    shared_sync(const double *x, const double *dx, double *dy,
                double *block_sums, int n) {
  __shared__ double tile[TILE + 2];
  __shared__ double dtile[TILE + 2];
  int t = threadIdx.x;
  int i = blockIdx.x * TILE + t;
  tile[t + 1] = i < n ? x[i] : 0.0;
  dtile[t + 1] = i < n ? dx[i] : 0.0;
  if (t == 0) {
    tile[0] = i > 0 ? x[i - 1] : 0.0;
    dtile[0] = i > 0 ? dx[i - 1] : 0.0;
  }
  if (t == TILE - 1) {
    tile[TILE + 1] = i + 1 < n ? x[i + 1] : 0.0;
    dtile[TILE + 1] = i + 1 < n ? dx[i + 1] : 0.0;
  }
  __syncthreads();

  // Scalars from shared memory go in by value, with their tangents.
  double d = __enzyme_fwddiff<double>((void *)smooth, enzyme_dup, tile[t],
                                      dtile[t], enzyme_dup, tile[t + 1],
                                      dtile[t + 1], enzyme_dup, tile[t + 2],
                                      dtile[t + 2]);
  // A pointer into shared memory, inactive, and an active scalar.
  d += __enzyme_fwddiff<double>((void *)from_tile, enzyme_const, tile,
                                enzyme_const, t + 1, enzyme_dup, 2.0, 1.0);
  if (i < n)
    dy[i] = d;
  __syncthreads();

  // Block reduction of the tangents, reusing dtile.
  dtile[t] = d;
  __syncthreads();
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (t < s)
      dtile[t] += dtile[t + s];
    __syncthreads();
  }
  if (t == 0)
    block_sums[blockIdx.x] = dtile[0];
}

// Dynamic shared memory.
__global__ void shared_dynamic(const double *x, double *dy, int n) {
  extern __shared__ double buf[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? x[i] : 0.0;
  __syncthreads();
  double left = t > 0 ? buf[t - 1] : 0.0;
  double right = t + 1 < blockDim.x ? buf[t + 1] : 0.0;
  double d = __enzyme_fwddiff<double>((void *)smooth, enzyme_const, left,
                                      enzyme_dup, buf[t], 1.0, enzyme_const,
                                      right);
  __syncthreads();
  buf[t] = d;
  __syncthreads();
  if (i < n)
    dy[i] = buf[blockDim.x - 1 - t];
}

// CHECK-DAG: .entry {{.*}}shared_sync
// CHECK-DAG: .entry {{.*}}shared_dynamic
// CHECK-DAG: .shared
// CHECK-DAG: bar.sync

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// The tangents each thread computes (dy), the block sums of them, and the
// dynamic-shared-memory kernel's reversed derivatives, against central
// differences of host copies of smooth and from_tile on the same
// zero-padded neighbourhoods the kernels stage (n is not a multiple of the
// block, so padded threads contribute to the last block's sum).

#include "include/devcheck.h"

static double hostSmooth(double left, double mid, double right) {
  return 0.25 * left + 0.5 * mid + 0.25 * right + std::tanh(mid);
}

static double hostFromTile(const double *tile, int j, double scale) {
  return scale * tile[j] * tile[j];
}

int main() {
  // Double central differences with h = 1e-6: error ~1e-10 here; the block
  // sums add 128 of them.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};

  const int n = 1000;
  std::vector<double> x(n), dx(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 1.5 * std::sin(0.013 * i * i);
    dx[i] = 0.5 + 0.5 * std::cos(0.21 * i);
  }
  auto xp = [&](int i) { return i >= 0 && i < n ? x[i] : 0.0; };
  auto dxp = [&](int i) { return i >= 0 && i < n ? dx[i] : 0.0; };

  // shared_sync: blocks of exactly TILE threads.
  const int grid = (n + TILE - 1) / TILE;
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  double *dDy = deviceCopy(std::vector<double>(n, 777.0)),
         *dSums = deviceCopy(std::vector<double>(grid, 777.0));
  shared_sync<<<grid, TILE>>>(dX, dDx, dDy, dSums, n);
  CHECK(cudaGetLastError());

  // shared_dynamic: blocks of 96, one double of shared memory per thread.
  const int block2 = 96, grid2 = (n + block2 - 1) / block2;
  double *dDy2 = deviceCopy(std::vector<double>(n, 777.0));
  shared_dynamic<<<grid2, block2, block2 * sizeof(double)>>>(dX, dDy2, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> dy = hostCopy(dDy, n), sums = hostCopy(dSums, grid),
                      dy2 = hostCopy(dDy2, n);

  // The tangent of thread i of shared_sync: smooth along the padded
  // neighbourhood's tangents, plus from_tile's d/dscale = tile[i]^2.
  auto tangent = [&](int i) {
    double l = xp(i - 1), m = xp(i), r = xp(i + 1);
    double dl = dxp(i - 1), dm = dxp(i), dr = dxp(i + 1);
    double tile[3] = {l, m, r};
    return (hostSmooth(l + H * dl, m + H * dm, r + H * dr) -
            hostSmooth(l - H * dl, m - H * dm, r - H * dr)) /
               (2 * H) +
           (hostFromTile(tile, 1, 2.0 + H) - hostFromTile(tile, 1, 2.0 - H)) /
               (2 * H);
  };
  for (int i = 0; i < n; ++i)
    expectNear(fd, "shared_sync dy", i, dy[i], tangent(i));
  for (int b = 0; b < grid; ++b) {
    double s = 0;
    for (int t = 0; t < TILE; ++t)
      s += tangent(b * TILE + t);
    expectNear(fd, "shared_sync block_sums", b, sums[b], s);
  }
  // shared_dynamic: thread t stores the d/dmid of thread block2-1-t, whose
  // left and right neighbours are in its block only.
  for (int i = 0; i < n; ++i) {
    int b = i / block2, t = i % block2, u = block2 - 1 - t,
        j = b * block2 + u;
    double l = u > 0 ? xp(j - 1) : 0.0, m = xp(j),
           r = u + 1 < block2 ? xp(j + 1) : 0.0;
    expectNear(fd, "shared_dynamic dy", i, dy2[i],
               (hostSmooth(l, m + H, r) - hostSmooth(l, m - H, r)) / (2 * H));
  }
  return finish("shared_sync dy and block sums (TILE=128), shared_dynamic's "
                "reversed d/dmid (blocks of 96) vs central FD h=1e-6; n=1000",
                {&fd});
}
