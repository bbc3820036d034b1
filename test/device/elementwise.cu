// Elementwise forward derivative on the device: y_i = f(x_i), and the tangent
// dy_i = f'(x_i) * dx_i is computed by one __enzyme_fwddiff request per
// thread.  The differentiated function mixes arithmetic, a libdevice call and
// a branch; the kernel guards the index and writes both primal and tangent.
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

__device__ double f(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

__global__ void elementwise_tangent(const double *x, const double *dx,
                                    double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = f(x[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], dx[i]);
  }
}

// A unit seed in the kernel: the derivative itself, not a directional one.
__global__ void elementwise_derivative(const double *x, double *dfdx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dfdx[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], 1.0);
}

// CHECK-DAG: .entry {{.*}}elementwise_tangent
// CHECK-DAG: .entry {{.*}}elementwise_derivative

// No request, marker or unresolved libdevice function is left.
// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Both kernels against central differences of a host copy of f (the
// derivative kernel's unit seed and the tangent kernel's dx direction), the
// tangent kernel's primal output against the host copy itself.

#include "include/devcheck.h"

static double hostF(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += std::exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

int main() {
  // Central differences in double with h = 1e-6: truncation ~h^2 |f'''| and
  // rounding ~1e-16 |f| / h, both far below 1e-6 relative for |x| <= 3.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal is the same expression on the device: a few ulps apart at
  // most (libdevice's exp is within 1 ulp; contraction into FMAs).
  Tol primal{"primal", 1e-13};

  const int n = 1000; // not a multiple of the block: the guard matters
  std::vector<double> x(n), dx(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -3.0 + 6.0 * (i + 0.5) / n; // both branches, never within h of 0
    dx[i] = 0.5 + 0.25 * std::sin(0.1 * i);
  }
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  std::vector<double> zero(n, 0.0);
  double *dY = deviceCopy(zero), *dDy = deviceCopy(zero),
         *dDfdx = deviceCopy(zero);

  const int block = 128, grid = (n + block - 1) / block;
  elementwise_tangent<<<grid, block>>>(dX, dDx, dY, dDy, n);
  CHECK(cudaGetLastError());
  elementwise_derivative<<<grid, block>>>(dX, dDfdx, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<double> y = hostCopy(dY, n), dy = hostCopy(dDy, n),
                      dfdx = hostCopy(dDfdx, n);
  for (int i = 0; i < n; ++i) {
    double slope = (hostF(x[i] + H) - hostF(x[i] - H)) / (2 * H);
    expectNear(primal, "y", i, y[i], hostF(x[i]));
    expectNear(fd, "dy", i, dy[i], slope * dx[i]);
    expectNear(fd, "dfdx", i, dfdx[i], slope);
  }
  return finish("y vs host f; dy along dx and df/dx vs central FD h=1e-6; "
                "n=1000",
                {&fd, &primal});
}
