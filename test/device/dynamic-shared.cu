// Dynamic shared memory (`extern __shared__`) inside the differentiated
// function: a block reduction through a dynamic tile with barriers, in
// double and float (two extern arrays at the same base, used at different
// offsets, as CUDA code does).  The shadow is the second half of the
// launch's dynamic shared memory: the derivative kernels are launched with
// gpuad::derivativeDynamicSharedBytes(bytes).  Reverse mode vs central
// finite differences of a host copy, and vs forward mode by the dot
// product.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// The gradient reads the dynamic size, zeroes the shadow half with the
// block, and adds adjoints there with block-scope atomics.
// CHECK-LABEL: .entry _Z4gradPKdPdS1_S1_i(
// CHECK: %dynamic_smem_size
// CHECK: bar.sync
// CHECK: atom.shared.add.f64
// CHECK: ret;

#include <gpuad/gpuad.h>
#include <gpuad/launch.h>

// out[block] = sum over the block of w[t] * x[i]^2 * (1 + x[i]), reduced
// through a dynamic tile of blockDim.x doubles (tree reduction, barriers in
// a loop); a float tile at an offset scales the terms.
__device__ void blockSum(const double *x, double *out, int n) {
  extern __shared__ double tile[];
  extern __shared__ float scale[]; // same base: offset past the doubles
  float *w = scale + 2 * blockDim.x;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  w[t] = 1.0f + 0.25f * (t % 4);
  double v = i < n ? x[i] : 0.0;
  tile[t] = w[t] * v * v * (1.0 + v);
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tile[0];
}

__global__ void grad(const double *x, double *xb, double *out, double *outb,
                     int n) {
  __enzyme_autodiff<void>((void *)blockSum, enzyme_dup, x, xb, enzyme_dup, out,
                          outb, enzyme_const, n);
}
__global__ void tangent(const double *x, const double *xd, double *out,
                        double *outd, int n) {
  __enzyme_fwddiff<void>((void *)blockSum, enzyme_dup, x, xd, enzyme_dup, out,
                         outd, enzyme_const, n);
}
__global__ void primal(const double *x, double *out, int n) {
  blockSum(x, out, n);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

int main() {
  const int block = 64, blocks = 3, n = block * blocks - 17;
  providePool(block * blocks); // -O0: the tree loop's bound is blockDim's
  // The tile's doubles, then the floats.
  const size_t bytes = block * sizeof(double) + block * sizeof(float);
  std::vector<double> x(n), xdot(n), outbar(blocks), zero(n, 0.0),
      zeroOut(blocks, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = -0.8 + 1.7 * ((i * 29) % n) / n;
    xdot[i] = 0.5 - 0.01 * (i % 13);
  }
  for (int b = 0; b < blocks; ++b)
    outbar[b] = 1.0 + 0.5 * b;
  double *dx = deviceCopy(x), *dxb = deviceCopy(zero),
         *dout = deviceCopy(zeroOut), *doutb = deviceCopy(outbar),
         *dxd = deviceCopy(xdot), *doutd = deviceCopy(zeroOut);
  primal<<<blocks, block, bytes>>>(dx, dout, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> out = hostCopy(dout, blocks);
  grad<<<blocks, block, gpuad::derivativeDynamicSharedBytes(bytes)>>>(
      dx, dxb, dout, doutb, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> xbar = hostCopy(dxb, n);
  tangent<<<blocks, block, gpuad::derivativeDynamicSharedBytes(bytes)>>>(
      dx, dxd, dout, doutd, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> outdot = hostCopy(doutd, blocks);

  // Host copy: the term of x[i] in its block (weights in float, as there).
  auto term = [&](int i, double v) {
    double w = double(1.0f + 0.25f * ((i % block) % 4));
    return w * v * v * (1.0 + v);
  };
  // Primal sums: 1e-13.  FD (h = 1e-6) of each term: 1e-6.  Dot product of
  // 175 products: 1e-12.
  Tol primalTol{"primal", 1e-13}, fd{"fd", 1e-6}, dot{"dot", 1e-12};
  const double h = 1e-6;
  for (int b = 0; b < blocks; ++b) {
    double want = 0;
    for (int i = b * block; i < n && i < (b + 1) * block; ++i)
      want += term(i, x[i]);
    expectNear(primalTol, "out", b, out[b], want);
  }
  for (int i = 0; i < n; ++i)
    expectNear(fd, "xbar", i, xbar[i],
               outbar[i / block] * (term(i, x[i] + h) - term(i, x[i] - h)) /
                   (2 * h));
  expectNear(dot, "dot", 0, dotProduct(outbar, outdot), dotProduct(xbar, xdot));
  return finish("dynamic shared tile: gradient vs FD, dot product",
                {&primalTol, &fd, &dot});
}
