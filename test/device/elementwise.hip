// HIP: elementwise forward derivative on amdgcn (gfx90a).  y_i = f(x_i) with
// one __enzyme_fwddiff request per thread; f mixes arithmetic, ocml math and
// a branch.  A second kernel differentiates a function that loops (fixed and
// data-dependent trip counts) and writes through shadowed pointers.  The -S
// output is checked for the kernel and for leftover requests or markers; the
// -c compile links the code object with lld, which fails on any undefined
// symbol (e.g. an __ocml_* function the derivative needs but nobody defined).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__device__ double f(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

__device__ void smooth_loop(const double *x, double *y, int i, int n,
                            int iters) {
  double v = x[i];
  for (int k = 0; k < 4; ++k) // fixed
    v = v * 0.75 + sqrt(v * v + 1.0) * 0.25;
  for (int k = 0; k < iters; ++k) // data-dependent
    v += x[(i + k) % n] / (k + 1);
  y[i] = v;
}

__global__ void elementwise_hip(const double *x, const double *dx, double *y,
                                double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = f(x[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], dx[i]);
  }
}

__global__ void loop_pointers_hip(const double *x, const double *dx, double *y,
                                  double *dy, const int *iters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_fwddiff<void>((void *)smooth_loop, enzyme_dup, x, dx, enzyme_dup,
                           y, dy, enzyme_const, i, enzyme_const, n,
                           enzyme_const, iters[i]);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}elementwise_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}loop_pointers_hip

// NOSYM-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Both kernels against central differences of host copies in double: f along
// each thread's dx[i], smooth_loop along the whole dx vector (its data-
// dependent loop reads other threads' x); the primal outputs against the
// host copies themselves.

#include "include/devcheck.h"

static double hostF(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += std::exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

static double hostSmoothLoop(const std::vector<double> &x, int i, int iters) {
  int n = (int)x.size();
  double v = x[i];
  for (int k = 0; k < 4; ++k)
    v = v * 0.75 + std::sqrt(v * v + 1.0) * 0.25;
  for (int k = 0; k < iters; ++k)
    v += x[(i + k) % n] / (k + 1);
  return v;
}

int main() {
  // Central differences in double with h = 1e-6: truncation ~h^2 |f'''| and
  // rounding ~1e-16 |f| / h, both far below 1e-6 relative for |x| <= 3.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal is the same expression on the device: a few ulps apart at
  // most (ocml's exp and sqrt vs libm; contraction into FMAs).
  Tol primal{"primal", 1e-13};

  const int n = 1000; // not a multiple of the block: the guard matters
  std::vector<double> x(n), dx(n);
  std::vector<int> iters(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -3.0 + 6.0 * (i + 0.5) / n; // both branches, never within h of 0
    dx[i] = 0.5 + 0.25 * std::sin(0.1 * i);
    iters[i] = (i * 7) % 6; // 0..5 trips of the data-dependent loop
  }
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  int *dIters = deviceCopy(iters);
  std::vector<double> zero(n, 0.0);
  double *dY = deviceCopy(zero), *dDy = deviceCopy(zero);
  double *dLy = deviceCopy(zero), *dLdy = deviceCopy(zero);

  const int block = 128, grid = (n + block - 1) / block;
  hipLaunchKernelGGL(elementwise_hip, dim3(grid), dim3(block), 0, 0, dX, dDx,
                     dY, dDy, n);
  CHECK(hipGetLastError());
  loop_pointers_hip<<<grid, block>>>(dX, dDx, dLy, dLdy, dIters, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());

  std::vector<double> y = hostCopy(dY, n), dy = hostCopy(dDy, n),
                      ly = hostCopy(dLy, n), ldy = hostCopy(dLdy, n);
  std::vector<double> xp(n), xm(n);
  for (int i = 0; i < n; ++i)
    xp[i] = x[i] + H * dx[i], xm[i] = x[i] - H * dx[i];
  for (int i = 0; i < n; ++i) {
    double slope = (hostF(x[i] + H) - hostF(x[i] - H)) / (2 * H);
    expectNear(primal, "y", i, y[i], hostF(x[i]));
    expectNear(fd, "dy", i, dy[i], slope * dx[i]);
    expectNear(primal, "loop y", i, ly[i], hostSmoothLoop(x, i, iters[i]));
    expectNear(
        fd, "loop dy", i, ldy[i],
        (hostSmoothLoop(xp, i, iters[i]) - hostSmoothLoop(xm, i, iters[i])) /
            (2 * H));
  }
  return finish("f and smooth_loop: primal vs host copies, tangent along dx "
                "vs central FD h=1e-6; n=1000",
                {&fd, &primal});
}
