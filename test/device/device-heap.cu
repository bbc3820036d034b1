// The device heap inside differentiated code: a device function that takes
// scratch memory with malloc/free and new[]/delete[], in forward mode,
// reverse mode (combined and the user's split) and at width 2.  Each heap
// block gets a shadow from the same allocator, freed where the reverse
// sweep is done with it; the primal's blocks and the shadows are never
// mixed up (a free of a shadow the allocator did not return, or a double
// free, stops the emulator).  Run with the tape pool (POOL) and without it
// (the tapes' arrays then come from the device heap too).  The gradient vs
// central finite differences of a host copy (1e-6), forward mode by the
// dot product (1e-12), split and width 2 vs the combined gradient (1e-13).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t0.ptx
// RUN: %ptxas -arch=sm_90 %t0.ptx -o %t0.cubin

#include <gpuad/gpuad.h>

constexpr int M = 6; // scratch elements per thread

__host__ __device__ inline double scratchSum(const double *x, double *h,
                                             double *g) {
  for (int i = 0; i < M; ++i)
    h[i] = x[i] * x[i] + 0.5 * x[(i + 1) % M];
  for (int i = 0; i < M; ++i)
    g[i] = sin(h[i]) + h[(i + 2) % M] * x[i];
  double s = 0;
  for (int i = 0; i < M; ++i)
    s += g[i] * h[i];
  return s;
}

// Each thread's slice of x, with scratch from both allocators.
__device__ double withHeap(const double *x) {
  const double *mine = x + (blockIdx.x * blockDim.x + threadIdx.x) * M;
  double *h = (double *)malloc(M * sizeof(double));
  double *g = new double[M];
  double s = scratchSum(mine, h, g);
  delete[] g;
  free(h);
  return s;
}

__global__ void grad(const double *x, double *xb) {
  __enzyme_autodiff<void>((void *)withHeap, enzyme_dup, x, xb);
}
__global__ void tangent(const double *x, const double *xd, double *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      __enzyme_fwddiff<double>((void *)withHeap, enzyme_dup, x, xd);
}
__global__ void split(const double *x, double *xb) {
  void *tape = __enzyme_augmentfwd<void *>((void *)withHeap, enzyme_dup, x,
                                           xb, enzyme_noret);
  __enzyme_reverse<void>((void *)withHeap, enzyme_dup, x, xb, 1.0, tape);
}
__global__ void width2(const double *x, double *xb, int stride) {
  __enzyme_autodiff<void>((void *)withHeap, enzyme_width, 2, enzyme_dupv,
                          stride, x, xb);
}

// ---- Run on the emulator (and natively with a GPU) ----
#include "include/devcheck.h"

int main() {
  const int block = 32, blocks = 2, threads = block * blocks, n = threads * M;
#ifdef POOL
  providePool(threads);
#endif
  std::vector<double> x(n), xdot(n), zero(n, 0.0), zero2(2 * n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.0 + 2.0 * (i % 13) / 13 + 0.01 * i;
    xdot[i] = 0.3 - 0.002 * i;
  }
  double *dx = deviceCopy(x), *dxd = deviceCopy(xdot);
  double *dxb = deviceCopy(zero), *dsplit = deviceCopy(zero);
  double *dw2 = deviceCopy(zero2), *dout = deviceCopy(std::vector<double>(threads));
  grad<<<blocks, block>>>(dx, dxb);
  tangent<<<blocks, block>>>(dx, dxd, dout);
  split<<<blocks, block>>>(dx, dsplit);
  width2<<<blocks, block>>>(dx, dw2, n * (int)sizeof(double));
  CHECK(DEVCHECK_API(GetLastError)());
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> xbar = hostCopy(dxb, n), viaSplit = hostCopy(dsplit, n);
  std::vector<double> lanes = hostCopy(dw2, 2 * n), ydot = hostCopy(dout, threads);

  Tol fd{"fd", 1e-6}, dot{"dot", 1e-12}, same{"same", 1e-13};
  double h[M], g[M];
  for (int i = 0; i < n; ++i) {
    int t = i / M;
    std::vector<double> p(x.begin() + t * M, x.begin() + (t + 1) * M), m = p;
    double step = 1e-6 * std::fmax(std::fabs(x[i]), 1.0);
    p[i % M] += step;
    m[i % M] -= step;
    double want = (scratchSum(p.data(), h, g) - scratchSum(m.data(), h, g)) /
                  (2 * step);
    expectNear(fd, "xbar", i, xbar[i], want);
    expectNear(same, "split", i, viaSplit[i], xbar[i]);
    expectNear(same, "lane 0", i, lanes[i], xbar[i]);
    expectNear(same, "lane 1", i, lanes[n + i], xbar[i]);
  }
  for (int t = 0; t < threads; ++t) {
    double jv = 0;
    for (int k = 0; k < M; ++k)
      jv += xdot[t * M + k] * xbar[t * M + k];
    expectNear(dot, "dot", t, ydot[t], jv);
  }
  return finish("malloc/new[] scratch in forward, reverse, split and width 2",
                {&fd, &dot, &same});
}
