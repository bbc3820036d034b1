// Calls through function pointers in device code: a __device__ table of
// functions indexed at run time by data, and a callback passed to a
// __noinline__ device function.  gpuad dispatches on the primal pointer
// (gpuad.dispatch), so the derivatives of the table's functions are called
// directly; the PTX must still assemble (every derivative defined).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func {{.*}}{{dispatch|_Z|dev_}}

typedef double (*unary)(double);

__device__ double dev_sin(double x) { return sin(x); }
__device__ double dev_cube(double x) { return x * x * x; }
__device__ double dev_soft(double x) { return log1p(exp(x)); }
__device__ unary table[3] = {dev_sin, dev_cube, dev_soft};

__device__ __noinline__ double apply_twice(unary f, double x) {
  return f(f(x) * 0.5);
}

__device__ double term(double x, int op) {
  unary f = table[op];
  return f(x) * x + apply_twice(f, x + 0.25);
}

__global__ void fnptr_kernel(const double *x, const int *op, double *fwd,
                             double *rev, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  fwd[i] = __enzyme_fwddiff<double>((void *)term, x[i], 1.0, enzyme_const,
                                    op[i]);
  rev[i] = __enzyme_autodiff<double>((void *)term, x[i], enzyme_const, op[i]);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----

#include "include/devcheck.h"

static double hostF(int op, double x) {
  switch (op) {
  case 0:
    return std::sin(x);
  case 1:
    return x * x * x;
  default:
    return std::log1p(std::exp(x));
  }
}
static double hostTerm(double x, int op) {
  return hostF(op, x) * x + hostF(op, hostF(op, x + 0.25) * 0.5);
}

int main() {
  const double H = 1e-6;
  Tol fd{"fd", 1e-6}, dot{"fwd = rev", 1e-12};
  const int n = 300, block = 64, grid = (n + block - 1) / block;
  std::vector<double> x(n);
  std::vector<int> op(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.2 + 2.4 * (i + 0.5) / n;
    op[i] = (i * 7) % 3;
  }
  double *dX = deviceCopy(x);
  int *dOp = deviceCopy(op);
  double *dF = deviceCopy(std::vector<double>(n, 0.0)),
         *dR = deviceCopy(std::vector<double>(n, 0.0));
  fnptr_kernel<<<grid, block>>>(dX, dOp, dF, dR, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> f = hostCopy(dF, n), r = hostCopy(dR, n);
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    int k = op[i];
    expectNear(fd, "d term (fwd)", i, f[i],
               (hostTerm(v + H, k) - hostTerm(v - H, k)) / (2 * H));
    expectNear(dot, "d term (rev) = fwd", i, r[i], f[i]);
  }
  return finish("d/dx term through a __device__ function table and a "
                "callback (fwd vs central FD h=1e-6, rev vs fwd); n=300",
                {&fd, &dot});
}
