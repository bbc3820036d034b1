// The old value atomicAdd returns, in reverse mode.  On a location only
// this thread adds to (y[gid] of restrict parameters) it is an ordinary
// value: z = old * x with old = y's contents before, checked against the
// analytic gradient on the emulator.  On a location every thread adds to
// (a shared accumulator) its derivative depends on the order in which the
// threads added, which nothing records: a clear error, not a gradient that
// changes from run to run.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -c %s -o /dev/null -DSHARED_ACC 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O0 -c %s -o /dev/null -DSHARED_ACC 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: gpuad: '{{.*}}atomicrmw fadd{{.*}}' returns the old contents of memory other threads may add to as well, and that value carries a derivative: it depends on the order of the threads' additions, which gpuad does not record
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t
// RUN: %gpuad-cc --emulate -O0 %s -o %t0 && %t0

#include <gpuad/gpuad.h>

__device__ void own(const double *__restrict__ x, double *__restrict__ y,
                    double *__restrict__ z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double old = atomicAdd(&y[i], x[i]);
  z[i] = old * x[i];
}

#ifdef SHARED_ACC
__device__ void shared(const double *x, double *acc, double *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double old = atomicAdd(acc, x[i]);
  z[i] = old * x[i];
}
__global__ void gradShared(const double *x, double *xb, double *acc,
                           double *accb, double *z, double *zb) {
  __enzyme_autodiff<void>((void *)shared, enzyme_dup, x, xb, enzyme_dup, acc,
                          accb, enzyme_dup, z, zb);
}
#endif

__global__ void gradOwn(const double *x, double *xb, double *y, double *yb,
                        double *z, double *zb) {
  __enzyme_autodiff<void>((void *)own, enzyme_dup, x, xb, enzyme_dup, y, yb,
                          enzyme_dup, z, zb);
}

#include "include/devcheck.h"

int main() {
  const int n = 96;
  std::vector<double> x(n), y(n), zbar(n), ybar(n), zero(n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5 + 0.01 * i;
    y[i] = -1.0 + 0.02 * i;
    zbar[i] = 1.0 + 0.1 * (i % 5);
    ybar[i] = 0.25 * (i % 3);
  }
  double *dx = deviceCopy(x), *dxb = deviceCopy(zero), *dy = deviceCopy(y),
         *dyb = deviceCopy(ybar), *dz = deviceCopy(zero),
         *dzb = deviceCopy(zbar);
  gradOwn<<<3, 32>>>(dx, dxb, dy, dyb, dz, dzb);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> xbar = hostCopy(dxb, n), ybarOut = hostCopy(dyb, n);
  // old = y0, z = old x, y1 = y0 + x:  xbar = zbar y0 + ybar,
  // y0bar = zbar x + ybar (analytic; rtol 1e-14).
  Tol exact{"analytic", 1e-14};
  for (int i = 0; i < n; ++i) {
    expectNear(exact, "xbar", i, xbar[i], zbar[i] * y[i] + ybar[i]);
    expectNear(exact, "ybar", i, ybarOut[i], zbar[i] * x[i] + ybar[i]);
  }
  return finish("old value of a thread's own atomicAdd, reverse mode",
                {&exact});
}
