// Calls between __device__ functions inside the differentiated code.  The
// callees are __noinline__, so they survive as real PTX .func calls at every
// level, and the pass must produce derivative versions of them (one callee is
// reached from two call sites with different activity, one is recursive
// through a chain of two, one takes and writes a pointer, and a double
// travels as uint64_t bits through helpers that copy it with memcpy, in
// forward and reverse mode).  The derivative
// functions must be defined in the PTX (ptxas rejects an undefined .func).
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

#include <stdint.h>
#include <string.h>

// A double's bits as an integer, C's way (CUDA's memcpy is a function of
// its own until gpuad runs, and the integer's TBAA tag says "long").
__device__ __noinline__ uint64_t to_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
__device__ __noinline__ double from_bits(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
__device__ __noinline__ uint64_t cube_bits(uint64_t u) {
  double d = from_bits(u);
  return to_bits(d * d * d);
}
__device__ double through_bits(double x) {
  return from_bits(cube_bits(to_bits(x * 0.5))) + x;
}

__device__ __noinline__ double square_sin(double x) {
  double s = sin(x);
  return s * s;
}

// Called once with both arguments active and once with b constant.
__device__ __noinline__ double blend(double a, double b) {
  return a * exp(-b) + b * b;
}

__device__ __noinline__ void accumulate(double *acc, double v) {
  *acc += v * v;
}

// Mutual recursion with a data-dependent depth.
__device__ __noinline__ double odd_chain(double x, int depth);
__device__ __noinline__ double even_chain(double x, int depth) {
  return depth <= 0 ? x : odd_chain(x * 0.5 + 1.0, depth - 1);
}
__device__ __noinline__ double odd_chain(double x, int depth) {
  return depth <= 0 ? x * x : even_chain(sqrt(x * x + 1.0), depth - 1);
}

__device__ double top(double x, double y, int depth) {
  double acc = 0.0;
  accumulate(&acc, square_sin(x));
  accumulate(&acc, blend(x, y));
  accumulate(&acc, blend(y, 2.0));
  return acc + even_chain(x, depth) + through_bits(x);
}

__global__ void noinline_calls(const double *x, const double *y,
                               const int *depth, double *dx, double *dxy,
                               double *gbits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  dx[i] = __enzyme_fwddiff<double>((void *)top, enzyme_dup, x[i], 1.0,
                                   enzyme_const, y[i], enzyme_const, depth[i]);
  dxy[i] = __enzyme_fwddiff<double>((void *)top, enzyme_dup, x[i], 1.0,
                                    enzyme_dup, y[i], 1.0, enzyme_const,
                                    depth[i]);
  gbits[i] = __enzyme_autodiff<double>((void *)through_bits, x[i]);
}

// The kernel and real function calls remain.
// CHECK: .entry {{.*}}noinline_calls
// CHECK: call.uni

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Both derivatives of top against central differences of a host copy of it
// and its callees, for recursion depths 0..6.

#include "include/devcheck.h"

static double hostOddChain(double x, int depth);
static double hostEvenChain(double x, int depth) {
  return depth <= 0 ? x : hostOddChain(x * 0.5 + 1.0, depth - 1);
}
static double hostOddChain(double x, int depth) {
  return depth <= 0 ? x * x
                    : hostEvenChain(std::sqrt(x * x + 1.0), depth - 1);
}

static double hostSquareSin(double x) {
  double s = std::sin(x);
  return s * s;
}
static double hostBlend(double a, double b) { return a * std::exp(-b) + b * b; }
static void hostAccumulate(double *acc, double v) { *acc += v * v; }
static double hostThroughBits(double x) {
  double h = x * 0.5;
  return h * h * h + x;
}

static double hostTop(double x, double y, int depth) {
  double acc = 0.0;
  hostAccumulate(&acc, hostSquareSin(x));
  hostAccumulate(&acc, hostBlend(x, y));
  hostAccumulate(&acc, hostBlend(y, 2.0));
  return acc + hostEvenChain(x, depth) + hostThroughBits(x);
}

int main() {
  // Double central differences with h = 1e-6 of smooth O(1)-argument
  // functions: error ~1e-9, far below 1e-6.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};

  const int n = 500, block = 64, grid = (n + block - 1) / block;
  std::vector<double> x(n), y(n);
  std::vector<int> depth(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.5 + 3.0 * (i + 0.5) / n;
    y[i] = -1.0 + 2.0 * (double)((i * 37) % n) / n;
    depth[i] = i % 7;
  }
  double *dX = deviceCopy(x), *dY = deviceCopy(y);
  int *dDepth = deviceCopy(depth);
  double *dGx = deviceCopy(std::vector<double>(n, 0.0)),
         *dGxy = deviceCopy(std::vector<double>(n, 0.0)),
         *dGbits = deviceCopy(std::vector<double>(n, 0.0));
  noinline_calls<<<grid, block>>>(dX, dY, dDepth, dGx, dGxy, dGbits, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> gx = hostCopy(dGx, n), gxy = hostCopy(dGxy, n),
                      gbits = hostCopy(dGbits, n);

  for (int i = 0; i < n; ++i) {
    double v = x[i], w = y[i];
    int k = depth[i];
    expectNear(fd, "d/dx top", i, gx[i],
               (hostTop(v + H, w, k) - hostTop(v - H, w, k)) / (2 * H));
    expectNear(fd, "d(1,1) top", i, gxy[i],
               (hostTop(v + H, w + H, k) - hostTop(v - H, w - H, k)) /
                   (2 * H));
    expectNear(fd, "reverse d/dx through uint64_t bits", i, gbits[i],
               (hostThroughBits(v + H) - hostThroughBits(v - H)) / (2 * H));
  }
  return finish("d/dx top (y const) and along (1,1), through noinline calls, "
                "recursion depth 0..6 and uint64_t bits, and the reverse "
                "derivative through the bits, vs central FD h=1e-6; n=500",
                {&fd});
}
