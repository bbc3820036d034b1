// Device variables the host sets with cudaMemcpyToSymbol and kernels read:
// set before the first launch, the driver's gradient is right (checked
// against central differences, rtol 1e-6, on the emulator); set again
// between launches, reverse mode stops with an error at the copy (the
// adjoint kernels, run in the reverse sweep, would read what the last copy
// left), while forward mode, which runs the tangent kernels in the
// primal's order, differentiates it.  A table computed from the input
// (its derivative would be lost) is an error in every mode.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s --check-prefix=RESULT
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s --check-prefix=RESULT
// RUN: not %gpuad-cc --cuda-host-only -O2 -DBETWEEN -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only -O0 -DBETWEEN -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %gpuad-cc --emulate -O2 -DBETWEEN -DFORWARD_ONLY %s -o %t.fwd && %t.fwd | FileCheck %s --check-prefix=RESULT
// RESULT-NOT: FAIL
// RESULT: {{^}}host-launch-symbol.cu: PASS
// RUN: not %gpuad-cc --cuda-host-only -O2 -DACTIVE_SOURCE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACTIVE
// RUN: not %gpuad-cc --cuda-host-only -O0 -DACTIVE_SOURCE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACTIVE
// ACTIVE: error: gpuad: cannot differentiate 'cudaMemcpyToSymbol': it copies data that carries derivatives into a device variable, which gpuad does not follow (pass the values as kernel arguments)
// CHECK: error: gpuad: cannot differentiate 'cudaMemcpyToSymbol' after a kernel launch in reverse mode: the launch's adjoint kernel would read the device variable as this copy leaves it

#include <gpuad/gpuad.h>

#include <cmath>
#include <cstdio>

constexpr int N = 64;
__constant__ double scale[2];

__global__ void apply(double *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = sin(u[i]) * scale[0] + scale[1] * u[i];
}

double loss(const double *x) {
  double *u, h[N];
  cudaMalloc(&u, N * sizeof(double));
  cudaMemcpy(u, x, N * sizeof(double), cudaMemcpyHostToDevice);
#ifdef ACTIVE_SOURCE
  double first[2] = {1.5 * x[0], 0.25};
#else
  double first[2] = {1.5, 0.25};
#endif
  cudaMemcpyToSymbol(scale, first, sizeof(first));
  apply<<<1, N>>>(u, N);
#ifdef BETWEEN
  double second[2] = {0.5, 2.0};
  cudaMemcpyToSymbol(scale, second, sizeof(second));
#endif
  apply<<<1, N>>>(u, N);
  cudaMemcpy(h, u, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(u);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += h[i] * h[i];
  return s;
}

int main() {
  double x[N], g[N] = {}, v[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.1 * i - 2, v[i] = std::cos(0.3 * i);
  int failures = 0;
  double worst = 0, jv = 0;
#ifndef FORWARD_ONLY
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, g);
#endif
  for (int i = 0; i < N; ++i) {
    double p[N], m[N];
    for (int j = 0; j < N; ++j)
      p[j] = m[j] = x[j];
    p[i] += 1e-6;
    m[i] -= 1e-6;
    double fd = (loss(p) - loss(m)) / 2e-6;
    jv += fd * v[i];
#ifndef FORWARD_ONLY
    double err = std::fabs(g[i] - fd) / std::fmax(std::fabs(fd), 1.0);
    worst = std::fmax(worst, err);
    failures += !(err <= 1e-6);
#endif
  }
  double t = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, x, v);
  double err = std::fabs(t - jv) / std::fmax(std::fabs(jv), 1.0);
  failures += !(err <= 1e-6);
  std::printf("host-launch-symbol.cu: %s (reverse vs central differences "
              "%.1e, forward vs central differences %.1e; tol 1e-6)\n",
              failures ? "FAIL" : "PASS", worst, err);
  return failures != 0;
}
