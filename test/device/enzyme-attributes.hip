// Enzyme's Clang attributes in device code, as a CUDA program written for
// Enzyme spells them: an inactive __device__ function (a stop-gradient
// identity, and scale(v) = 2v), a __device__ function like log1p whose body
// is not log1p (4v), and a [[enzyme::nofree]] helper.  Each thread
// differentiates model(x) = stop(x) * x + scale(x) + like(x) + nofree(x):
// d/dx = x + 0 + 1/(1+x) + 3x^2, in reverse and forward mode; the two must
// also agree (the dot-product test for a scalar).  The derivative of the
// bodies would be 2x + 2 + 4 + 3x^2: a wrong number, not a rounding error.
//
// The HIP twin of enzyme-attributes.cu.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// NOSYM-NOT: call {{.*}}__enzyme

#include <gpuad/gpuad.h>
#include <hip/hip_runtime.h>

__device__ __attribute__((enzyme_inactive)) double stop(double v) { return v; }
__device__ [[enzyme::inactive]] double scale(double v) { return 2 * v; }
__device__ __noinline__ __attribute__((enzyme_function_like("log1p"))) double
like(double v) {
  return 4 * v;
}
__device__ [[enzyme_nofree]] double nofree(double v) { return v * v * v; }

__device__ double model(double x) {
  return stop(x) * x + scale(x) + like(x) + nofree(x);
}

__global__ void gradients(const double *x, double *rev, double *fwd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  rev[i] = __enzyme_autodiff((void *)model, enzyme_out, x[i]);
  fwd[i] = __enzyme_fwddiff((void *)model, enzyme_dup, x[i], 1.0);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----

#include "include/devcheck.h"

int main() {
  Tol exact{"analytic", 1e-12}, dot{"dot", 1e-12};
  const int n = 100, block = 32, grid = (n + block - 1) / block;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.05 + 2.0 * i / n;
  double *dX = deviceCopy(x), *dRev = deviceCopy(std::vector<double>(n)),
         *dFwd = deviceCopy(std::vector<double>(n));
  gradients<<<grid, block>>>(dX, dRev, dFwd, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<double> rev = hostCopy(dRev, n), fwd = hostCopy(dFwd, n);
  for (int i = 0; i < n; ++i) {
    double v = x[i], want = v + 1.0 / (1.0 + v) + 3 * v * v;
    expectNear(exact, "d/dx model, reverse", i, rev[i], want);
    expectNear(exact, "d/dx model, forward", i, fwd[i], want);
    expectNear(dot, "<J 1, 1> = <1, J^T 1>", i, fwd[i], rev[i]);
  }
  return finish("Enzyme's attributes on __device__ functions, vs the "
                "analytic derivative; n=100",
                {&exact, &dot});
}
