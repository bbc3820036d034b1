// HIP: vector forward mode and atomics on amdgcn.
//   - enzyme_width 2 with the result declared as struct { double d[2]; }
//     (C++ template form), two shadows per dup argument
//   - enzyme_dupv: pointer shadows at base + lane * stride bytes
//   - atomicAdd on double and float outputs inside the differentiated
//     function: the shadow update must be an atomic add too (an atomicrmw
//     fadd per primal one in the kernel's IR)
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
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

struct Vec2 {
  double d[2];
};

__device__ double g(double x, double y) { return sin(x) * y + exp(x * y); }

__device__ void store_sq(const double *x, double *y, int i) {
  y[i] = x[i] * x[i] * cos(x[i]);
}

__global__ void width2_hip(const double *x, const double *y, Vec2 *grad,
                           const double *px, const double *dpx, double *py,
                           double *dpy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  grad[i] = __enzyme_fwddiff<Vec2>((void *)g, enzyme_width, 2, enzyme_dup,
                                   x[i], 1.0, 0.0, enzyme_dup, y[i], 0.0, 1.0);
  // dpx and dpy are [2][n].
  __enzyme_fwddiff<void>((void *)store_sq, enzyme_width, 2, enzyme_dupv,
                         (long)(n * sizeof(double)), px, dpx, enzyme_dupv,
                         (long)(n * sizeof(double)), py, dpy, enzyme_const, i);
}

__device__ void sum_sq(const double *x, double *sum, int i) {
  atomicAdd(sum, x[i] * x[i]);
}

__device__ void histogram(const float *v, const int *key, float *bins, int i) {
  atomicAdd(&bins[key[i]], expf(v[i]));
}

__global__ void atomics_hip(const double *x, const double *dx, double *sum,
                            double *dsum, const float *v, const float *dv,
                            const int *key, float *bins, float *dbins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)sum_sq, enzyme_dup, x, dx, enzyme_dup, sum,
                         dsum, enzyme_const, i);
  __enzyme_fwddiff<void>((void *)histogram, enzyme_dup, v, dv, enzyme_const,
                         key, enzyme_dup, bins, dbins, enzyme_const, i);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}width2_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}atomics_hip

// NOSYM-NOT: enzyme

// IR-LABEL: define {{.*}} @_Z11atomics_hip
// IR-COUNT-4: atomicrmw fadd
// IR-NOT: atomicrmw fadd

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// width2_hip: each lane against width1_hip below (the same requests at width
// 1, one per seed direction) and against central differences of host
// copies; atomics_hip: the accumulated primal sums and their tangents
// against host sums and central differences along the seeds.

// The width-2 requests of width2_hip, one lane at a time.
__global__ void width1_hip(const double *x, const double *y, double *grad,
                           const double *px, const double *dpx, double *py,
                           double *dpy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  grad[2 * i] = __enzyme_fwddiff<double>((void *)g, enzyme_dup, x[i], 1.0,
                                         enzyme_dup, y[i], 0.0);
  grad[2 * i + 1] = __enzyme_fwddiff<double>((void *)g, enzyme_dup, x[i], 0.0,
                                             enzyme_dup, y[i], 1.0);
  for (int lane = 0; lane < 2; ++lane)
    __enzyme_fwddiff<void>((void *)store_sq, enzyme_dup, px, dpx + lane * n,
                           enzyme_dup, py, dpy + lane * n, enzyme_const, i);
}

#include "include/devcheck.h"

static double hostG(double x, double y) {
  return std::sin(x) * y + std::exp(x * y);
}
static double hostSq(double x) { return x * x * std::cos(x); }

// Central difference along a direction: (F(+h) - F(-h)) / 2h.
template <class F> static double centralDiff(F f, double h) {
  return (f(h) - f(-h)) / (2 * h);
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-9 here
  Tol fd{"fd", 1e-6};
  // A lane of a width-2 request and the width-1 request with that lane's
  // seed run the same arithmetic: equal up to FMA contraction.
  Tol lanes{"lane vs width 1", 1e-14};
  // Primal sums of double atomics in an arbitrary order; store_sq's primal.
  Tol sum{"sum", 1e-12};
  // Float bins: ~20 float atomic adds of expf (1-2 ulp) per bin, each
  // rounding at 6e-8, against double host sums and derivatives.
  Tol flt{"float", 1e-5};

  const int n = 300, block = 128, grid = (n + block - 1) / block;

  // ---- width 2 ----
  std::vector<double> x(n), y(n), px(n), dpx(2 * n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.5 + 3.0 * (i + 0.5) / n;
    y[i] = 1.0 - 2.0 * (double)((i * 7) % n) / n;
    px[i] = 2.0 * std::sin(0.21 * i);
    dpx[i] = 0.5 + 0.25 * std::cos(0.3 * i); // lane 0
    dpx[n + i] = -1.0 + 0.003 * i;           // lane 1
  }
  std::vector<double> zero2(2 * n, 0.0), zero(n, 0.0);
  double *dX = deviceCopy(x), *dYv = deviceCopy(y), *dPx = deviceCopy(px),
         *dDpx = deviceCopy(dpx);
  double *dGrad = deviceCopy(zero2), *dPy = deviceCopy(zero),
         *dDpy = deviceCopy(zero2);
  double *dGrad1 = deviceCopy(zero2), *dPy1 = deviceCopy(zero),
         *dDpy1 = deviceCopy(zero2);
  // Vec2 is two doubles: grad is [n][2], as width1_hip writes it.
  hipLaunchKernelGGL(width2_hip, dim3(grid), dim3(block), 0, 0, dX, dYv,
                     (Vec2 *)dGrad, dPx, dDpx, dPy, dDpy, n);
  CHECK(hipGetLastError());
  width1_hip<<<grid, block>>>(dX, dYv, dGrad1, dPx, dDpx, dPy1, dDpy1, n);
  CHECK(hipGetLastError());

  // ---- atomics ----
  const int kBins = 16;
  std::vector<double> ax(n), adx(n);
  std::vector<float> v(n), dv(n), bins0(kBins), dbins0(kBins);
  std::vector<int> key(n);
  for (int i = 0; i < n; ++i) {
    ax[i] = 0.1 + 0.9 * (i % 37) / 37.0;
    adx[i] = 0.5 + 0.3 * std::cos(0.7 * i);
    v[i] = -1.0f + 2.0f * (float)((i * 7) % 50) / 50.0f;
    dv[i] = 1.0f - 0.01f * (float)(i % 30);
    key[i] = (i * 5) % kBins;
  }
  for (int b = 0; b < kBins; ++b)
    bins0[b] = 0.5f + b, dbins0[b] = 0.25f * b;
  const double sum0 = 0.5, dsum0 = 0.25; // forward mode adds to them
  double *dAx = deviceCopy(ax), *dAdx = deviceCopy(adx);
  double *dSum = deviceCopy(std::vector<double>{sum0}),
         *dDsum = deviceCopy(std::vector<double>{dsum0});
  float *dV = deviceCopy(v), *dDv = deviceCopy(dv);
  int *dKey = deviceCopy(key);
  float *dBins = deviceCopy(bins0), *dDbins = deviceCopy(dbins0);
  atomics_hip<<<grid, block>>>(dAx, dAdx, dSum, dDsum, dV, dDv, dKey, dBins,
                               dDbins, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());

  std::vector<double> grad = hostCopy(dGrad, 2 * n), py = hostCopy(dPy, n),
                      dpy = hostCopy(dDpy, 2 * n);
  std::vector<double> grad1 = hostCopy(dGrad1, 2 * n), py1 = hostCopy(dPy1, n),
                      dpy1 = hostCopy(dDpy1, 2 * n);
  for (int i = 0; i < n; ++i) {
    double dgdx =
        centralDiff([&](double e) { return hostG(x[i] + e, y[i]); }, H);
    double dgdy =
        centralDiff([&](double e) { return hostG(x[i], y[i] + e); }, H);
    expectNear(fd, "grad lane 0 (d/dx g)", i, grad[2 * i], dgdx);
    expectNear(fd, "grad lane 1 (d/dy g)", i, grad[2 * i + 1], dgdy);
    expectNear(lanes, "grad lane 0 vs width 1", i, grad[2 * i], grad1[2 * i]);
    expectNear(lanes, "grad lane 1 vs width 1", i, grad[2 * i + 1],
               grad1[2 * i + 1]);
    expectNear(sum, "py", i, py[i], hostSq(px[i]));
    expectNear(sum, "py (width 1)", i, py1[i], hostSq(px[i]));
    double slope = centralDiff([&](double e) { return hostSq(px[i] + e); }, H);
    for (int l = 0; l < 2; ++l) {
      const char *lane = l ? "dpy lane 1" : "dpy lane 0";
      expectNear(fd, lane, i, dpy[l * n + i], slope * dpx[l * n + i]);
      expectNear(lanes, l ? "dpy lane 1 vs width 1" : "dpy lane 0 vs width 1",
                 i, dpy[l * n + i], dpy1[l * n + i]);
    }
  }

  double gotSum = hostCopy(dSum, 1)[0], gotDsum = hostCopy(dDsum, 1)[0];
  std::vector<float> bins = hostCopy(dBins, kBins),
                     dbins = hostCopy(dDbins, kBins);
  auto sumSq = [&](double e) {
    double s = sum0 + e * dsum0;
    for (int i = 0; i < n; ++i)
      s += (ax[i] + e * adx[i]) * (ax[i] + e * adx[i]);
    return s;
  };
  expectNear(sum, "sum", 0, gotSum, sumSq(0));
  expectNear(fd, "dsum", 0, gotDsum, centralDiff(sumSq, H));
  for (int b = 0; b < kBins; ++b) {
    auto bin = [&](double e) {
      double s = bins0[b] + e * dbins0[b];
      for (int i = 0; i < n; ++i)
        if (key[i] == b)
          s += std::exp((double)v[i] + e * dv[i]);
      return s;
    };
    expectNear(flt, "bins", b, bins[b], bin(0));
    expectNear(flt, "dbins", b, dbins[b], centralDiff(bin, H));
  }

  return finish("width-2 gradients and dupv shadows per lane vs width 1 and "
                "central FD h=1e-6; atomic sum/dsum and float bins/dbins vs "
                "host sums and central FD; n=300",
                {&fd, &lanes, &sum, &flt});
}
