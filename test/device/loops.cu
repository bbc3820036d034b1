// Loops inside the differentiated __device__ function: a fixed trip count
// (unrolled at -O2/-O3, a real loop at -O0), a trip count read from the data
// (an inactive integer argument), a trip count from memory, and a loop whose
// exit depends on the active value (Newton iterations).  The kernel also
// loops around the request (grid-stride), so the derivative is called in a
// loop too.
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

// Horner evaluation of a fixed-degree polynomial.
__device__ double poly8(double x) {
  const double c[8] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125, 0.015625,
                       -0.0078125};
  double r = 0.0;
  for (int k = 7; k >= 0; --k)
    r = r * x + c[k];
  return r;
}

// Data-dependent trip count: n is an integer argument (inactive).
__device__ double power_sum(double x, int n) {
  double acc = 0.0, p = 1.0;
  for (int k = 0; k < n; ++k) {
    p *= x;
    acc += sin(p) / (k + 1);
  }
  return acc;
}

// Trip count loaded from memory; the loop reads an active array (w, dup).
__device__ double weighted(const double *w, const int *len, double x) {
  double s = 0.0;
  for (int k = 0; k < *len; ++k)
    s += w[k] * exp(-x * k);
  return s;
}

// The exit condition depends on the active value.
__device__ double newton_sqrt(double a) {
  double r = a > 1.0 ? a : 1.0;
  for (int it = 0; it < 50; ++it) {
    double next = 0.5 * (r + a / r);
    if (fabs(next - r) < 1e-14 * r)
      break;
    r = next;
  }
  return r;
}

__global__ void loops(const double *x, const double *dx, const int *counts,
                      const double *w, const double *dw, const int *len,
                      double *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    double v = x[i], dv = dx[i];
    d[4 * i + 0] = __enzyme_fwddiff<double>((void *)poly8, enzyme_dup, v, dv);
    d[4 * i + 1] = __enzyme_fwddiff<double>((void *)power_sum, enzyme_dup, v,
                                            dv, enzyme_const, counts[i]);
    d[4 * i + 2] = __enzyme_fwddiff<double>((void *)weighted, enzyme_dup, w, dw,
                                            enzyme_const, len, enzyme_dup, v,
                                            dv);
    d[4 * i + 3] =
        __enzyme_fwddiff<double>((void *)newton_sqrt, enzyme_dup, v, dv);
  }
}

// CHECK: .entry {{.*}}loops

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Each of the four derivatives against central differences of a host copy,
// along the kernel's directions (dx per element; dw for the weights), with
// fewer threads than elements so the grid-stride loop repeats; newton_sqrt's
// also against the analytic 1 / (2 sqrt(a)).

#include "include/devcheck.h"

static double hostPoly8(double x) {
  const double c[8] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125, 0.015625,
                       -0.0078125};
  double r = 0.0;
  for (int k = 7; k >= 0; --k)
    r = r * x + c[k];
  return r;
}

static double hostPowerSum(double x, int n) {
  double acc = 0.0, p = 1.0;
  for (int k = 0; k < n; ++k) {
    p *= x;
    acc += std::sin(p) / (k + 1);
  }
  return acc;
}

static double hostWeighted(const double *w, int len, double x) {
  double s = 0.0;
  for (int k = 0; k < len; ++k)
    s += w[k] * std::exp(-x * k);
  return s;
}

static double hostNewtonSqrt(double a) {
  double r = a > 1.0 ? a : 1.0;
  for (int it = 0; it < 50; ++it) {
    double next = 0.5 * (r + a / r);
    if (std::fabs(next - r) < 1e-14 * r)
      break;
    r = next;
  }
  return r;
}

int main() {
  // Double central differences with h = 1e-6 of smooth functions of O(1)
  // arguments (x^k <= 57 in power_sum): error ~1e-9, far below 1e-6.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};

  const int n = 1000, len = 7;
  std::vector<double> x(n), dx(n), w(len), dw(len);
  std::vector<int> counts(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.1 + 1.3 * (i + 0.5) / n; // a > 0 for newton_sqrt; x^12 <= 57
    dx[i] = 1.0 - 0.4 * std::cos(0.3 * i);
    counts[i] = i % 13; // 0..12 iterations, 0 included
  }
  for (int k = 0; k < len; ++k)
    w[k] = 1.0 / (k + 1), dw[k] = 0.1 * (k % 3) - 0.05;
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx), *dW = deviceCopy(w),
         *dDw = deviceCopy(dw);
  int *dCounts = deviceCopy(counts), *dLen = deviceCopy(std::vector<int>{len});
  double *dD = deviceCopy(std::vector<double>(4 * n, 0.0));
  // 2 x 96 threads for 1000 elements: each thread takes 5 or 6.
  loops<<<2, 96>>>(dX, dDx, dCounts, dW, dDw, dLen, dD, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> d = hostCopy(dD, 4 * n);

  std::vector<double> wp(len), wm(len);
  for (int k = 0; k < len; ++k)
    wp[k] = w[k] + H * dw[k], wm[k] = w[k] - H * dw[k];
  for (int i = 0; i < n; ++i) {
    double v = x[i], dv = dx[i], vp = v + H * dv, vm = v - H * dv;
    expectNear(fd, "poly8", i, d[4 * i + 0],
               (hostPoly8(vp) - hostPoly8(vm)) / (2 * H));
    expectNear(fd, "power_sum", i, d[4 * i + 1],
               (hostPowerSum(vp, counts[i]) - hostPowerSum(vm, counts[i])) /
                   (2 * H));
    expectNear(fd, "weighted", i, d[4 * i + 2],
               (hostWeighted(wp.data(), len, vp) -
                hostWeighted(wm.data(), len, vm)) /
                   (2 * H));
    expectNear(fd, "newton_sqrt", i, d[4 * i + 3],
               (hostNewtonSqrt(vp) - hostNewtonSqrt(vm)) / (2 * H));
    expectNear(fd, "newton_sqrt (analytic)", i, d[4 * i + 3],
               dv / (2 * std::sqrt(v)));
  }
  return finish("poly8, power_sum, weighted (x and w active), newton_sqrt "
                "tangents vs central FD h=1e-6, newton_sqrt also vs "
                "1/(2 sqrt a); n=1000 on 192 threads",
                {&fd});
}
