// Thrust on device vectors, and a gradient reduced by Thrust.  CUB's kernels
// under Thrust use inline PTX (ld.global.nc, shfl.sync with predicates,
// vote.ballot, %lanemask_*, ld.relaxed/st.relaxed pairs of the single-pass
// scan's look-back, nanosleep, ...), which the emulator translates; this
// program runs unchanged on a GPU.
//
// Checked against host computations:
//   - thrust::reduce and thrust::inclusive_scan of doubles (relative 1e-12:
//     the order of the additions differs from the host's);
//   - thrust::sort_by_key of float keys with int values (exact: the keys
//     sorted as std::sort sorts them, the values a permutation that carries
//     each key);
//   - thrust::count and thrust::count_if (exact), thrust::transform (exact:
//     one multiplication);
// and a gradient: a per-element loss f(x, theta) = theta x^2 sin(x) +
// exp(-theta x), differentiated by __enzyme_autodiff in a __global__ kernel
// (both arguments active) and in a thrust::transform functor; the sum over
// the elements of df/dtheta is a thrust::reduce.  Each df/dx_i, df/dtheta_i
// and the reduced dL/dtheta are compared with central differences of a host
// copy of f (h = 1e-6, relative 1e-6: truncation ~h^2 |f'''| and rounding
// ~1e-16 |f| / h are far below it for |x| <= 2).
//
// n = 6000 elements: several tiles for the scan's look-back and the sort's
// passes, and a last block that is not full.
//
// Here sm_90's CUB paths run on the emulator (one schedule: Thrust compiles
// are slow); kernel-tests.cmake runs sm_75 in every schedule, and natively.
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 --cuda-gpu-arch=sm_90 %s -o %t
// RUN: env GPUAD_EMU_SCHEDULE=shuffled GPUAD_EMU_SEED=7 %t | FileCheck %s
// CHECK: thrust.cu: PASS

#include <gpuad/gpuad.h>

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

__device__ double loss(double x, double theta) {
  return theta * x * x * sin(x) + exp(-theta * x);
}

struct LossGradient {
  double dx, dtheta;
};

__global__ void lossGradient(const double *x, double theta, double *dx,
                             double *dtheta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  LossGradient g = __enzyme_autodiff<LossGradient>(
      (void *)loss, enzyme_out, x[i], enzyme_out, theta);
  dx[i] = g.dx;
  dtheta[i] = g.dtheta;
}

// The same derivative from inside a Thrust algorithm's kernel.
struct ThetaGradient {
  double theta;
  __device__ double operator()(double x) const {
    return __enzyme_autodiff<double>((void *)loss, enzyme_const, x,
                                     enzyme_out, theta);
  }
};

struct Square {
  __host__ __device__ double operator()(double x) const { return x * x; }
};

struct Above {
  double bound;
  __host__ __device__ bool operator()(double x) const { return x > bound; }
};

#include "include/devcheck.h"

#include <algorithm>

static double hostLoss(double x, double theta) {
  return theta * x * x * std::sin(x) + std::exp(-theta * x);
}

static void checkAlgorithms(const std::vector<double> &x, Tol &sum) {
  int n = int(x.size());
  thrust::device_vector<double> dX(x.begin(), x.end());

  double total = thrust::reduce(dX.begin(), dX.end());
  double want = 0;
  for (double v : x)
    want += v;
  expectNear(sum, "reduce", 0, total, want);

  thrust::device_vector<double> dScan(n);
  thrust::inclusive_scan(dX.begin(), dX.end(), dScan.begin());
  thrust::host_vector<double> scan = dScan;
  double running = 0;
  for (int i = 0; i < n; ++i)
    expectNear(sum, "inclusive_scan", i, scan[i], running += x[i]);

  thrust::device_vector<double> dSquares(n);
  thrust::transform(dX.begin(), dX.end(), dSquares.begin(), Square());
  thrust::host_vector<double> squares = dSquares;
  int exact = 0;
  for (int i = 0; i < n; ++i)
    exact += squares[i] != x[i] * x[i];

  long above = thrust::count_if(dX.begin(), dX.end(), Above{0.5});
  long wantAbove = std::count_if(x.begin(), x.end(),
                                 [](double v) { return v > 0.5; });
  exact += above != wantAbove;

  // Keys with repeats (count) and ties (sort), values their positions.
  thrust::host_vector<float> keys(n);
  thrust::host_vector<int> values(n);
  for (int i = 0; i < n; ++i) {
    keys[i] = float((i * 7919) % 1000) * 0.25f - 100.0f;
    values[i] = i;
  }
  thrust::device_vector<float> dKeys = keys;
  thrust::device_vector<int> dValues = values;
  long tens = thrust::count(dKeys.begin(), dKeys.end(), 10.0f);
  exact += tens != std::count(keys.begin(), keys.end(), 10.0f);
  thrust::sort_by_key(dKeys.begin(), dKeys.end(), dValues.begin());
  thrust::host_vector<float> sortedKeys = dKeys;
  thrust::host_vector<int> carried = dValues;
  std::vector<float> wantKeys(keys.begin(), keys.end());
  std::sort(wantKeys.begin(), wantKeys.end());
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; ++i) {
    bool inRange = carried[i] >= 0 && carried[i] < n;
    exact += sortedKeys[i] != wantKeys[i] || !inRange ||
             (inRange && (seen[carried[i]] || keys[carried[i]] != sortedKeys[i]));
    if (inRange)
      seen[carried[i]] = true;
  }
  if (exact)
    std::printf("%s: FAIL %d exact mismatches (transform, count, count_if, "
                "sort_by_key)\n",
                devcheck::fileName(), exact);
  devcheck::failures += exact;
}

int main() {
  const int n = 6000;
  const double H = 1e-6, theta = 0.7;
  Tol fd{"fd", 1e-6}, sum{"sum", 1e-12};
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = -2.0 + 4.0 * ((i * 37) % n + 0.5) / n;

  checkAlgorithms(x, sum);

  // The gradient kernel, and dL/dtheta reduced by Thrust.
  thrust::device_vector<double> dX(x.begin(), x.end()), dDx(n), dDtheta(n);
  const int block = 256;
  lossGradient<<<(n + block - 1) / block, block>>>(
      thrust::raw_pointer_cast(dX.data()), theta,
      thrust::raw_pointer_cast(dDx.data()),
      thrust::raw_pointer_cast(dDtheta.data()), n);
  CHECK(cudaGetLastError());
  double dL = thrust::reduce(dDtheta.begin(), dDtheta.end());
  thrust::host_vector<double> gx = dDx, gtheta = dDtheta;

  // The same dL/dtheta, each term differentiated inside thrust::transform.
  thrust::device_vector<double> dTerms(n);
  thrust::transform(dX.begin(), dX.end(), dTerms.begin(),
                    ThetaGradient{theta});
  double dLTransform = thrust::reduce(dTerms.begin(), dTerms.end());

  double fdTotal = 0;
  for (int i = 0; i < n; ++i) {
    double slopeX = (hostLoss(x[i] + H, theta) - hostLoss(x[i] - H, theta)) / (2 * H);
    double slopeT = (hostLoss(x[i], theta + H) - hostLoss(x[i], theta - H)) / (2 * H);
    expectNear(fd, "df/dx", i, gx[i], slopeX);
    expectNear(fd, "df/dtheta", i, gtheta[i], slopeT);
    fdTotal += slopeT;
  }
  expectNear(fd, "dL/dtheta (reduce)", 0, dL, fdTotal);
  expectNear(fd, "dL/dtheta (transform)", 0, dLTransform, fdTotal);
  return finish("reduce, inclusive_scan, sort_by_key, count, count_if, "
                "transform vs host; df/dx, df/dtheta and their thrust::reduce "
                "vs central FD h=1e-6; n=6000",
                {&sum, &fd});
}
