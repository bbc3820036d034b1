// A __global__ kernel is itself the function differentiated: a wrapper
// kernel passes it to __enzyme_autodiff / __enzyme_fwddiff with shadows for
// its pointer arguments, and every thread runs the derivative of its own
// part (thread ids stay inactive; the adjoint of the shared weight is
// accumulated atomically by all threads).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// With restrict parameters, x's adjoint slot is this thread's alone (a
// plain add).  The shared weight's adjoint is summed in the warp first when
// the whole warp is active and every lane adds to the same address
// (activemask, a vote, a butterfly, lane 0 adds), else added by each lane.
// CHECK-LABEL: .entry _Z4gradPKdPdS0_S1_S1_S1_i(
// CHECK: activemask.b32
// CHECK: vote.sync.all.pred
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: atom.global.add.f64
// CHECK: ret;

#include <gpuad/gpuad.h>

// y[i] = w * sin(x[i]) * x[i] + sum_{k<3} x[i]^k / (k+1)
__global__ void model(const double *__restrict__ x, const double *__restrict__ w,
                      double *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double s = 0, p = 1;
  for (int k = 0; k < 3; ++k, p *= x[i])
    s += p / (k + 1);
  y[i] = *w * sin(x[i]) * x[i] + s;
}

__global__ void grad(const double *x, double *dx, const double *w, double *dw,
                     double *y, double *dy, int n) {
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dup, w, dw,
                          enzyme_dup, y, dy, enzyme_const, n);
}

__global__ void tangent(const double *x, const double *dx, const double *w,
                        const double *dw, double *y, double *dy, int n) {
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dup, w, dw,
                         enzyme_dup, y, dy, enzyme_const, n);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

static double hostModel(double x, double w) {
  double s = 0, p = 1;
  for (int k = 0; k < 3; ++k, p *= x)
    s += p / (k + 1);
  return w * std::sin(x) * x + s;
}

int main() {
  const int n = 300, block = 128, blocks = (n + block - 1) / block;
  std::vector<double> x(n), dx(n), ybar(n), zero(n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.5 + 3.0 * i / n;
    dx[i] = 0.3 - 0.002 * i;
    ybar[i] = 1.0 + 0.01 * (i % 7);
  }
  double w = 0.7, dw = -0.4;
  double *dX = deviceCopy(x), *dW = deviceCopy(std::vector<double>{w});
  double *dY = deviceCopy(zero), *dXbar = deviceCopy(zero);
  double *dWbar = deviceCopy(std::vector<double>{0.0});
  double *dYbar = deviceCopy(ybar);
  grad<<<blocks, block>>>(dX, dXbar, dW, dWbar, dY, dYbar, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> xbar = hostCopy(dXbar, n), wbar = hostCopy(dWbar, 1),
                      y = hostCopy(dY, n);

  double *dDx = deviceCopy(dx), *dDw = deviceCopy(std::vector<double>{dw});
  double *dDy = deviceCopy(zero);
  tangent<<<blocks, block>>>(dX, dDx, dW, dDw, dY, dDy, n);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<double> ydot = hostCopy(dDy, n);

  // Central differences (h = 1e-6) of the host copy: rtol 1e-6.  Primal
  // outputs: 1e-13.  Dot product <ybar, ydot> = <xbar, dx> + wbar dw: sums
  // of 300 products, 1e-11.
  Tol fd{"fd", 1e-6}, primal{"primal", 1e-13}, dot{"dot product", 1e-11};
  const double h = 1e-6;
  double lhs = 0, rhs = wbar[0] * dw, wFd = 0;
  for (int i = 0; i < n; ++i) {
    expectNear(primal, "y", i, y[i], hostModel(x[i], w));
    double dFdx = (hostModel(x[i] + h, w) - hostModel(x[i] - h, w)) / (2 * h);
    double dFdw = (hostModel(x[i], w + h) - hostModel(x[i], w - h)) / (2 * h);
    expectNear(fd, "xbar", i, xbar[i], ybar[i] * dFdx);
    expectNear(fd, "ydot", i, ydot[i], dFdx * dx[i] + dFdw * dw);
    wFd += ybar[i] * dFdw;
    lhs += ybar[i] * ydot[i];
    rhs += xbar[i] * dx[i];
  }
  expectNear(fd, "wbar", 0, wbar[0], wFd);
  expectNear(dot, "dot", 0, lhs, rhs);
  return finish("a kernel as the differentiated function: gradient (x and "
                "the shared w) and tangent vs FD, dot product",
                {&fd, &primal, &dot});
}
