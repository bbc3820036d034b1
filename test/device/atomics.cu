// atomicAdd on a float/double output inside the differentiated function.
// Many threads add into the same address, so forward mode must turn the
// atomic add on the primal into an atomic add (of the tangent) on the shadow
// at the same address; a plain load/add/store on the shadow would race.
// Variants: double and float, a reduction into one cell, a scatter into a
// histogram bin chosen by an inactive index, and a use of the returned old
// value (whose tangent is the shadow's old value).
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
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// sum += x[i]^2 (double).
__device__ void sum_sq(const double *x, double *sum, int i) {
  atomicAdd(sum, x[i] * x[i]);
}

// bins[key[i]] += exp(v[i]) (float); key is inactive.
__device__ void histogram(const float *v, const int *key, float *bins, int i) {
  atomicAdd(&bins[key[i]], expf(v[i]));
}

// Uses the old value: returns old * x.
__device__ double fetch_add(double *acc, double x) {
  double old = atomicAdd(acc, x);
  return old * x;
}

__global__ void atomics(const double *x, const double *dx, double *sum,
                        double *dsum, const float *v, const float *dv,
                        const int *key, float *bins, float *dbins, double *acc,
                        double *dacc, double *dret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)sum_sq, enzyme_dup, x, dx, enzyme_dup, sum,
                         dsum, enzyme_const, i);
  __enzyme_fwddiff<void>((void *)histogram, enzyme_dup, v, dv, enzyme_const,
                         key, enzyme_dup, bins, dbins, enzyme_const, i);
  dret[i] = __enzyme_fwddiff<double>((void *)fetch_add, enzyme_dup, acc, dacc,
                                     enzyme_dup, x[i], dx[i]);
}

// The shadow updates are atomics as well: at least two double and one float
// atomic adds per kernel (primal and shadow).
// CHECK: .entry {{.*}}atomics
// CHECK-DAG: atom{{(.global)?}}.add.f64
// CHECK-DAG: atom{{(.global)?}}.add.f32

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// In the kernel's IR every fadd atomic has a twin on the shadow: six in all
// (the primal functions, still defined above it, have theirs).
// IR-LABEL: define {{.*}} @_Z7atomicsPKd
// IR-COUNT-6: atomicrmw fadd
// IR-NOT: atomicrmw fadd

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Many threads add into the same cells, so only what does not depend on the
// order of the atomics is compared: the final sum, bins and acc and their
// tangents against central differences of host copies, and for fetch_add's
// returned old value (whose tangent is the shadow's old value) the sum of
// dret over the threads with dx proportional to x, which is the same for
// every order of the primal and shadow atomics (each pair of threads i, j
// contributes x_i x_j once); a one-thread launch checks dret alone.

#include "include/devcheck.h"

struct AtomicsRun {
  double sum, dsum, acc, dacc;
  std::vector<float> bins, dbins;
  std::vector<double> dret;
};

const int kBins = 16;

// One launch of `atomics` over n threads; the accumulators start at the
// given values (seeds included: forward mode adds into them).
static AtomicsRun launch(const std::vector<double> &x,
                         const std::vector<double> &dx,
                         const std::vector<float> &v,
                         const std::vector<float> &dv,
                         const std::vector<int> &key, double sum0,
                         double dsum0, double acc0, double dacc0) {
  int n = (int)x.size();
  std::vector<float> bins0(kBins), dbins0(kBins);
  for (int b = 0; b < kBins; ++b)
    bins0[b] = 0.5f + b, dbins0[b] = 0.25f * b;
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  double *dSum = deviceCopy(std::vector<double>{sum0}),
         *dDsum = deviceCopy(std::vector<double>{dsum0});
  float *dV = deviceCopy(v), *dDv = deviceCopy(dv);
  int *dKey = deviceCopy(key);
  float *dBins = deviceCopy(bins0), *dDbins = deviceCopy(dbins0);
  double *dAcc = deviceCopy(std::vector<double>{acc0}),
         *dDacc = deviceCopy(std::vector<double>{dacc0});
  double *dDret = deviceCopy(std::vector<double>(n, 0.0));
  const int block = 128, grid = (n + block - 1) / block;
  atomics<<<grid, block>>>(dX, dDx, dSum, dDsum, dV, dDv, dKey, dBins, dDbins,
                           dAcc, dDacc, dDret, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  AtomicsRun r;
  r.sum = hostCopy(dSum, 1)[0], r.dsum = hostCopy(dDsum, 1)[0];
  r.acc = hostCopy(dAcc, 1)[0], r.dacc = hostCopy(dDacc, 1)[0];
  r.bins = hostCopy(dBins, kBins), r.dbins = hostCopy(dDbins, kBins);
  r.dret = hostCopy(dDret, n);
  return r;
}

// Central difference along a direction: (F(+h) - F(-h)) / 2h.
template <class F> double centralDiff(F f, double h) {
  return (f(h) - f(-h)) / (2 * h);
}

int main() {
  // Double results: central differences with h = 1e-6 of quadratics and
  // exponentials of O(1) arguments; truncation ~h^2, rounding ~1e-16 |F| / h
  // with |F| <= 1e4 here, so 1e-6 relative is far from both.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal sums are double atomics in an arbitrary order: rounding of a
  // few hundred additions.
  Tol sum{"sum", 1e-12};
  // Float bins: ~20 float atomic adds of expf (2 ulp) per bin, each rounding
  // at 6e-8, compared with a double host sum / derivative.
  Tol flt{"float", 1e-5};

  const int n = 300;
  std::vector<double> x(n), dx(n), dxProp(n);
  std::vector<float> v(n), dv(n);
  std::vector<int> key(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.1 + 0.9 * (i % 37) / 37.0;
    dx[i] = 0.5 + 0.3 * std::cos(0.7 * i);
    dxProp[i] = 0.75 * x[i];
    v[i] = -1.0f + 2.0f * (float)((i * 7) % 50) / 50.0f;
    dv[i] = 1.0f - 0.01f * (float)(i % 30);
    key[i] = (i * 5) % kBins;
  }
  const double sum0 = 0.5, dsum0 = 0.25, acc0 = 1.5, dacc0 = -0.5;

  // Launch 1: a generic direction; the totals.
  AtomicsRun r = launch(x, dx, v, dv, key, sum0, dsum0, acc0, dacc0);
  auto sumSq = [&](double e) {
    double s = sum0 + e * dsum0;
    for (int i = 0; i < n; ++i)
      s += (x[i] + e * dx[i]) * (x[i] + e * dx[i]);
    return s;
  };
  expectNear(sum, "sum", 0, r.sum, sumSq(0));
  expectNear(fd, "dsum", 0, r.dsum, centralDiff(sumSq, H));
  for (int b = 0; b < kBins; ++b) {
    auto bin = [&](double e) {
      double s = 0.5 + b + e * 0.25 * b;
      for (int i = 0; i < n; ++i)
        if (key[i] == b)
          s += std::exp((double)v[i] + e * dv[i]);
      return s;
    };
    expectNear(flt, "bins", b, r.bins[b], bin(0));
    expectNear(flt, "dbins", b, r.dbins[b], centralDiff(bin, H));
  }
  auto accFinal = [&](double e) {
    double s = acc0 + e * dacc0;
    for (int i = 0; i < n; ++i)
      s += x[i] + e * dx[i];
    return s;
  };
  expectNear(sum, "acc", 0, r.acc, accFinal(0));
  expectNear(fd, "dacc", 0, r.dacc, centralDiff(accFinal, H));

  // Launch 2: dx proportional to x; sum_i dret_i against the derivative of
  // sum_i old_i x_i (in thread order here; any order gives the same).
  r = launch(x, dxProp, v, dv, key, sum0, dsum0, acc0, dacc0);
  auto sumOldTimesX = [&](double e) {
    double acc = acc0 + e * dacc0, s = 0;
    for (int i = 0; i < n; ++i) {
      double xi = x[i] + e * dxProp[i];
      s += acc * xi;
      acc += xi;
    }
    return s;
  };
  double dretSum = 0;
  for (double d : r.dret)
    dretSum += d;
  expectNear(fd, "sum(dret)", 0, dretSum, centralDiff(sumOldTimesX, H));

  // Launch 3: one thread, a generic direction; dret = d(acc0 * x0).
  std::vector<double> x1{x[3]}, dx1{dx[3]};
  std::vector<float> v1{v[3]}, dv1{dv[3]};
  std::vector<int> key1{key[3]};
  r = launch(x1, dx1, v1, dv1, key1, sum0, dsum0, acc0, dacc0);
  auto oldTimesX = [&](double e) {
    return (acc0 + e * dacc0) * (x1[0] + e * dx1[0]);
  };
  expectNear(fd, "dret (one thread)", 0, r.dret[0],
             centralDiff(oldTimesX, H));

  return finish("sum/dsum, float bins/dbins, acc/dacc and sum of dret over "
                "300 threads, dret of one thread, vs host sums and central FD "
                "h=1e-6",
                {&fd, &sum, &flt});
}
