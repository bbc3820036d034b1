// Loops whose trip counts come from the data keep their tapes in the tape
// pool's arena: a triangular nest (the inner bound is the outer counter)
// inside a loop of len[i] iterations, so frame arrays grow and nest.  The
// gradient is launched three times on one pool (each launch must leave the
// arena empty behind it), checked against central finite differences of a
// host copy and by the dot product against forward mode; with a pool too
// small for the arena, the arrays that do not fit come from the device
// heap (one warning at run time) and the gradient is the same.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// WARN: warning: gpuad: the tape of this loop grows at run time
// The gradient kernel does not malloc; the device heap is only the
// fallback of a pool that is missing or full.
// CHECK-LABEL: .entry _Z4gradPKdPdPKiS1_S1_i(
// CHECK-NOT: malloc
// CHECK: ret;
// CHECK-LABEL: gpuad_$_heap_$_alloc(
// CHECK: call.uni (retval0), malloc,
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t
// RUN: %gpuad-cc --emulate -O0 %s -o %t0 && %t0
// RUN: %gpuad-cc --emulate -O2 -DSMALL_POOL %s -o %t.small && %t.small 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: gpuad: warning: gradient tapes are taken from the device heap, because the program provides no tape pool or one too small
// SMALL-NOT: gpuad: warning
// SMALL: tape-arena.cu: PASS

#include <gpuad/gpuad.h>

__device__ double walk(const double *__restrict__ x, const int *__restrict__ len,
                       double *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return 0;
  double v = x[i];
  for (int a = 0; a < len[i]; ++a)
    for (int b = 0; b <= a; ++b)
      v = v + 0.02 * sin(v * (1.0 + 0.1 * b));
  y[i] = v;
  return 0;
}

__global__ void grad(const double *x, double *xb, const int *len, double *y,
                     double *yb, int n) {
  __enzyme_autodiff<double>((void *)walk, enzyme_dup, x, xb, enzyme_const, len,
                            enzyme_dup, y, yb, enzyme_const, n);
}
__global__ void tangent(const double *x, const double *xd, const int *len,
                        double *y, double *yd, int n) {
  __enzyme_fwddiff<double>((void *)walk, enzyme_dup, x, xd, enzyme_const, len,
                           enzyme_dup, y, yd, enzyme_const, n);
}

// ---- Run on the emulator (and natively with a GPU) ----
#include "include/devcheck.h"

static double hostWalk(double v, int len) {
  for (int a = 0; a < len; ++a)
    for (int b = 0; b <= a; ++b)
      v = v + 0.02 * std::sin(v * (1.0 + 0.1 * b));
  return v;
}

int main() {
  const int n = 200, block = 64, blocks = (n + block - 1) / block;
#ifdef SMALL_POOL
  size_t fixed = 0;
  CHECK(gpuad::tapePoolBytesPerThread(&fixed));
  void *pool;
  CHECK(devMalloc(&pool, (fixed + 64) * blocks * block));
  CHECK(gpuad::setTapePool(pool, fixed + 64));
#else
  providePool(blocks * block);
#endif
  std::vector<double> x(n), xdot(n), ybar(n), zero(n, 0.0);
  std::vector<int> len(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.0 + 2.0 * i / n;
    xdot[i] = 0.3 - 0.003 * i;
    ybar[i] = 1.0 + 0.01 * (i % 9);
    len[i] = 1 + (i * 5) % 15; // up to 15 x 16 / 2 = 120 inner steps
  }
  double *dx = deviceCopy(x), *dy = deviceCopy(zero), *dyb = deviceCopy(ybar);
  int *dlen = deviceCopy(len);
  std::vector<double> xbar;
  for (int launch = 0; launch < 3; ++launch) {
    double *dxb = deviceCopy(zero);
    CHECK(devCopyToDevice(dyb, ybar.data(), n * sizeof(double)));
    grad<<<blocks, block>>>(dx, dxb, dlen, dy, dyb, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<double> again = hostCopy(dxb, n);
    if (launch && again != xbar)
      std::printf("tape-arena.cu: FAIL launch %d differs\n", launch),
          ++devcheck::failures;
    xbar = again;
  }
  double *dxd = deviceCopy(xdot), *dyd = deviceCopy(zero);
  tangent<<<blocks, block>>>(dx, dxd, dlen, dy, dyd, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> ydot = hostCopy(dyd, n);
  // FD (h = 1e-6) of up to 120 steps: 1e-6.  Dot product of 200 terms: 1e-12.
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-12};
  const double h = 1e-6;
  for (int i = 0; i < n; ++i)
    expectNear(fd, "xbar", i, xbar[i],
               ybar[i] * (hostWalk(x[i] + h, len[i]) -
                          hostWalk(x[i] - h, len[i])) / (2 * h));
  expectNear(dot, "dot", 0, dotProduct(ybar, ydot), dotProduct(xbar, xdot));
  return finish("growing nested tapes in the pool's arena, 3 launches",
                {&fd, &dot});
}
