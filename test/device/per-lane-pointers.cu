// Each thread passes its own element's pointer to the differentiated
// function (`f(&x[i])`): inside the derivative the shadow pointer is an
// argument, not provably this thread's alone, so its adjoint is added
// atomically -- and warp aggregation must not merge the lanes' different
// addresses (it checks at run time that the address is the same in every
// lane).  A shared weight passed the same way by every lane is aggregated.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// CHECK-LABEL: .entry _Z4gradPKdPdS0_S1_(
// CHECK: activemask.b32
// CHECK: vote.sync.all.pred
// CHECK: ret;

#include <gpuad/gpuad.h>

__device__ double model(const double *xi, const double *w) {
  return *w * xi[0] * xi[0] + sin(xi[0]);
}

__global__ void grad(const double *x, double *dx, const double *w,
                     double *dw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x + i, dx + i, enzyme_dup,
                          w, dw);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

int main() {
  const int n = 96; // three warps, all active
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.1 * i - 2.0;
  double w = 0.8;
  double *dX = deviceCopy(x), *dDx = deviceCopy(std::vector<double>(n));
  double *dW = deviceCopy(std::vector<double>{w});
  double *dDw = deviceCopy(std::vector<double>{0.0});
  grad<<<1, n>>>(dX, dDx, dW, dDw);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> dx = hostCopy(dDx, n), dw = hostCopy(dDw, 1);
  // Analytic: d/dx_i = 2 w x_i + cos x_i; d/dw = sum x_i^2.  Each element
  // is one product (1e-14); the weight sums 96 terms in warp order (1e-12).
  Tol each{"per element", 1e-14}, sum{"weight", 1e-12};
  double wantW = 0;
  for (int i = 0; i < n; ++i) {
    expectNear(each, "dx", i, dx[i], 2 * w * x[i] + std::cos(x[i]));
    wantW += x[i] * x[i];
  }
  expectNear(sum, "dw", 0, dw[0], wantW);
  return finish("per-lane pointers and a shared weight into a device "
                "function's derivative vs analytic",
                {&each, &sum});
}
