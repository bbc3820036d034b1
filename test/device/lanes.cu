// Width-N derivatives in device code computed by lane groups
// (-gpuad-batch-mapping=lanes): each calling thread's N directions on the N
// lanes of its group.  Whatever the mapping (the same program is also built
// with vectors), every thread must get what N width-1 requests give it,
// direction by direction, and what central differences of a host copy give:
//   - a forward Jacobian of an element function (loops with run-time trip
//     counts, a noinline call) at widths 2..32 (64 on AMDGPU), with
//     enzyme_dupv and with N shadow arguments, in double and float;
//   - reverse mode: Jacobian rows by seeding each direction's output
//     (per-lane tapes for the loops), checked against forward mode;
//   - a returned tangent per direction (forward) and an active scalar's
//     adjoint per direction (reverse, enzyme_out);
//   - widths that do not divide the warp (3, 12: lanes left without a
//     group compute alone);
//   - a function with primal atomics: the count and the sum are done once
//     per calling thread, not once per lane;
//   - callers that leave groups partly inactive: a partial last warp
//     (n = 300), half of each warp calling, every other thread calling.
// -DLANES_QUICK keeps width 32 and the atomics on 44 threads (for the
// emulator's slow concurrent schedule, where lanes truly run at once).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o /dev/null \
// RUN:   -mllvm -gpuad-batch-mapping=lanes -Rpass=gpuad 2>&1 | FileCheck %s
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o /dev/null \
// RUN:   -mllvm -gpuad-batch-mapping=vector -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VECTOR
//
// The replayable element function: groups not all active compute their
// directions one after another; tally's atomics are not: those use vectors.
// CHECK-DAG: remark: fwd derivative of '_Z4elemIdEvPKT_PS0_ii' at width 32: {{.*}}; directions: lanes (32 lanes per calling thread; {{.*}}; a lane group not all active computes its directions one after another
// CHECK-DAG: remark: rev derivative of '_Z4elemIdEvPKT_PS0_ii' at width 16: {{.*}}; directions: lanes (16 lanes per calling thread
// CHECK-DAG: remark: fwd derivative of '_Z5tallyPKdPdPi' at width 4: {{.*}}; directions: lanes ({{.*}}; a lane group not all active uses vectors)
// VECTOR: remark: fwd derivative of '_Z4elemIdEvPKT_PS0_ii' at width 32: {{.*}}; directions: vectors (-gpuad-batch-mapping=vector)

#ifdef __HIP__
#include <hip/hip_runtime.h>
#endif
#include <gpuad/gpuad.h>

#include <utility>

// The warp: 32 lanes on NVPTX, a wavefront of 64 on AMDGPU (lanes.hip).
#ifndef LANES_WARP
#define LANES_WARP 32
#endif

constexpr int NOut = 3; // outputs of the forward Jacobian's function
constexpr int NIn = 5;  // inputs of the reverse Jacobian's function

template <class T> __device__ __noinline__ T term(T a, T b) {
  return sin(a) * b + exp(T(0.1) * a * b);
}

// y[0..m) from x[0..k).
template <class T>
__device__ void elem(const T *__restrict__ x, T *__restrict__ y, int k,
                     int m) {
  for (int j = 0; j < m; ++j) {
    T acc = 0;
    for (int i = 0; i < k; ++i)
      acc += term(x[i], x[(i + j) % k]);
    y[j] = acc * x[j % k];
  }
}

// A returned value (forward: W tangents returned) and an active scalar
// argument (reverse: W adjoints returned).
__device__ double norm3(const double *__restrict__ x) {
  return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) + sin(x[0] * x[2]);
}

__device__ void scaled(double s, const double *__restrict__ x,
                       double *__restrict__ y) {
  for (int j = 0; j < 3; ++j)
    y[j] = s * sin(x[j]) + s * s * x[(j + 1) % 3];
}

template <int W> struct Many {
  double d[W];
};

// T[e][l] = direction l's tangent of norm3 at x[e] (dx[e][l]: 3 values).
template <int W>
__global__ void fwdReturn(const double *x, const double *dx, double *T,
                          int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) {
    Many<W> t = __enzyme_fwddiff<Many<W>>(
        (void *)norm3, enzyme_width, W, enzyme_dupv,
        (long)(3 * sizeof(double)), x + 3 * e, dx + 3 * W * e);
    for (int l = 0; l < W; ++l)
      T[e * W + l] = t.d[l];
  }
}

// A[e][l] = d/ds of <seed_l, y> at thread e, seed_l = (l + 1, 1, -1)/W.
template <int W>
__global__ void revScalar(const double *s, const double *x, double *y,
                          double *seeds, double *A, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) {
    Many<W> a = __enzyme_autodiff<Many<W>>(
        (void *)scaled, enzyme_width, W, enzyme_out, s[e], enzyme_const,
        x + 3 * e, enzyme_dupv, (long)(3 * sizeof(double)), y + 3 * e,
        seeds + 3 * W * e);
    for (int l = 0; l < W; ++l)
      A[e * W + l] = a.d[l];
  }
}

__device__ void tally(const double *x, double *sum, int *count) {
  atomicAdd(count, 1);
  atomicAdd(sum, x[0] * x[1] + sin(x[0]));
}

// Which threads call: all (0), the first half of each warp (1), every other
// thread (2).
__device__ bool picked(int e, int n, int pick) {
  if (e >= n)
    return false;
  return pick == 0 ||
         (pick == 1 && (threadIdx.x & (LANES_WARP - 1)) < LANES_WARP / 2) ||
         (pick == 2 && (e & 1) == 0);
}

// Thread e: J[e][l][j] = dy_j/dx_l, x of width W; seed is the W x W
// identity (direction l's dx is row l).
template <int W, class T>
__global__ void fwdJac(const T *x, const T *seed, T *y, T *J, int n,
                       int pick) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (picked(e, n, pick))
    __enzyme_fwddiff<void>((void *)elem<T>, enzyme_width, W, enzyme_dupv,
                           (long)(W * sizeof(T)), x + e * W, seed, enzyme_dupv,
                           (long)(NOut * sizeof(T)), y + e * NOut,
                           J + (size_t)e * W * NOut, enzyme_const, W,
                           enzyme_const, NOut);
}

// The same with W shadow arguments.
template <int W, int... L>
__device__ void fwdArgsAt(const double *x, const double *seed, double *y,
                          double *J, std::integer_sequence<int, L...>) {
  __enzyme_fwddiff<void>((void *)elem<double>, enzyme_width, W, enzyme_dup, x,
                         (seed + L * W)..., enzyme_dup, y, (J + L * NOut)...,
                         enzyme_const, W, enzyme_const, NOut);
}

template <int W>
__global__ void fwdArgs(const double *x, const double *seed, double *y,
                        double *J, int n, int pick) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (picked(e, n, pick))
    fwdArgsAt<W>(x + e * W, seed, y + e * NOut, J + (size_t)e * W * NOut,
                 std::make_integer_sequence<int, W>());
}

// Thread e: G[e][l][i] = dy_l/dx_i, y of width W; S[e] is the W x W
// identity (direction l seeds output l) and is consumed.
template <int W>
__global__ void revJac(const double *x, double *G, double *y, double *S, int n,
                       int pick) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (picked(e, n, pick))
    __enzyme_autodiff<void>((void *)elem<double>, enzyme_width, W, enzyme_dupv,
                            (long)(NIn * sizeof(double)), x + e * NIn,
                            G + (size_t)e * W * NIn, enzyme_dupv,
                            (long)(W * sizeof(double)), y + e * W,
                            S + (size_t)e * W * W, enzyme_const, NIn,
                            enzyme_const, W);
}

// Width-1 references: one direction of thread e, x of k and y of m values.
template <class T>
__global__ void fwdOne(const T *x, const T *dx, T *y, T *dy, int k, int m,
                       int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_fwddiff<void>((void *)elem<T>, enzyme_dup, x + e * k, dx,
                           enzyme_dup, y + e * m, dy + e * m, enzyme_const, k,
                           enzyme_const, m);
}

__global__ void revOne(const double *x, double *g, double *y, double *s, int k,
                       int m, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_autodiff<void>((void *)elem<double>, enzyme_dup, x + e * k,
                            g + e * k, enzyme_dup, y + e * m, s + e * m,
                            enzyme_const, k, enzyme_const, m);
}

// dx[e][l] is direction l's tangent of x[e] (2 values); dsum[l] collects
// direction l of the sum.
template <int W>
__global__ void fwdTally(const double *x, const double *dx, double *sum,
                         double *dsum, int *count, int n, int pick) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (picked(e, n, pick))
    __enzyme_fwddiff<void>((void *)tally, enzyme_width, W, enzyme_dupv,
                           (long)(2 * sizeof(double)), x + 2 * e,
                           dx + 2 * W * e, enzyme_dupv, (long)sizeof(double),
                           sum, dsum, enzyme_const, count);
}

// Reverse: dsum[l] seeds direction l; dx[e][l] gets dsum[l] * grad f.
template <int W>
__global__ void revTally(const double *x, double *dx, double *sum,
                         double *dsum, int *count, int n, int pick) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (picked(e, n, pick))
    __enzyme_autodiff<void>((void *)tally, enzyme_width, W, enzyme_dupv,
                            (long)(2 * sizeof(double)), x + 2 * e,
                            dx + 2 * W * e, enzyme_dupv, (long)sizeof(double),
                            sum, dsum, enzyme_const, count);
}

#include "include/devcheck.h"

namespace {

// A partial last warp: 300 = 9 x 32 + 12 (AMDGPU: 76 = 64 + 12, fewer
// as the emulator's wavefront operations are slower).
#ifndef LANES_N
#ifdef LANES_QUICK
#define LANES_N 44
#else
#define LANES_N 300
#endif
#endif
const int N = LANES_N, Block = 64, Grid = (N + Block - 1) / Block;

bool hostPicked(int e, int pick) {
  return pick == 0 ||
         (pick == 1 && (e % Block & (LANES_WARP - 1)) < LANES_WARP / 2) ||
         (pick == 2 && (e & 1) == 0);
}

double hostTerm(double a, double b) {
  return std::sin(a) * b + std::exp(0.1 * a * b);
}

std::vector<double> hostElem(const std::vector<double> &x, int m) {
  int k = x.size();
  std::vector<double> y(m);
  for (int j = 0; j < m; ++j) {
    double acc = 0;
    for (int i = 0; i < k; ++i)
      acc += hostTerm(x[i], x[(i + j) % k]);
    y[j] = acc * x[j % k];
  }
  return y;
}

// d y_j / d x_i of hostElem at x by central differences (h = 1e-6).
double fdElem(std::vector<double> x, int m, int i, int j) {
  const double H = 1e-6;
  double x0 = x[i];
  x[i] = x0 + H;
  double up = hostElem(x, m)[j];
  x[i] = x0 - H;
  double down = hostElem(x, m)[j];
  return (up - down) / (2 * H);
}

std::vector<double> inputs(int count, int salt) {
  std::vector<double> v(count);
  for (int i = 0; i < count; ++i)
    v[i] = 0.3 + 0.5 * std::sin(0.7 * i + salt);
  return v;
}

template <class T> std::vector<T> identity(int w) {
  std::vector<T> s(w * w, T(0));
  for (int l = 0; l < w; ++l)
    s[l * w + l] = 1;
  return s;
}

// Lanes against width-1 requests, direction by direction.
Tol lane{"lane", 1e-12}, floatLane{"float lane", 1e-5};
// Central differences with h = 1e-6: error ~1e-9 in double; float
// derivatives against the double slope: ~1e-6 per operation.
Tol fd{"fd", 1e-6}, floatFd{"float fd", 2e-4};
// Reverse against forward mode: the same Jacobian entries.
Tol dual{"fwd vs rev", 1e-12};
Tol primal{"primal", 1e-13};

// The forward Jacobian at width W (dupv, or W shadow arguments) for the
// threads \p pick chooses, against W width-1 runs and (pick 0) central
// differences.
template <int W, class T> void checkForward(int pick, bool args) {
  std::vector<double> xd = inputs(N * W, W);
  std::vector<T> x(xd.begin(), xd.end());
  T *dX = deviceCopy(x), *dSeed = deviceCopy(identity<T>(W));
  T *dY = deviceCopy(std::vector<T>(N * NOut, T(0)));
  T *dJ = deviceCopy(std::vector<T>((size_t)N * W * NOut, T(0)));
  if constexpr (std::is_same_v<T, double>) {
    if (args)
      fwdArgs<W><<<Grid, Block>>>(dX, dSeed, dY, dJ, N, pick);
    else
      fwdJac<W, T><<<Grid, Block>>>(dX, dSeed, dY, dJ, N, pick);
  } else {
    fwdJac<W, T><<<Grid, Block>>>(dX, dSeed, dY, dJ, N, pick);
  }
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<T> J = hostCopy(dJ, (size_t)N * W * NOut), y = hostCopy(dY, N * NOut);
  bool isDouble = std::is_same_v<T, double>;
  // The width-1 references, the same for every pick: computed once.
  static std::vector<std::vector<T>> ones;
  if (ones.empty()) {
    T *dY1 = deviceCopy(std::vector<T>(N * NOut, T(0)));
    T *dOne = deviceCopy(std::vector<T>(N * NOut, T(0)));
    for (int l = 0; l < W; ++l) {
      fwdOne<T><<<Grid, Block>>>(dX, dSeed + l * W, dY1, dOne, W, NOut, N);
      CHECK(DEVCHECK_API(DeviceSynchronize)());
      ones.push_back(hostCopy(dOne, N * NOut));
    }
  }
  for (int l = 0; l < W; ++l) {
    const std::vector<T> &one = ones[l];
    for (int e = 0; e < N; ++e)
      for (int j = 0; j < NOut; ++j) {
        double got = J[((size_t)e * W + l) * NOut + j];
        if (!hostPicked(e, pick)) {
          expectNear(lane, "J of a thread that did not call", e, got, 0);
          continue;
        }
        expectNear(isDouble ? lane : floatLane, "J vs width 1", e, got,
                   one[e * NOut + j]);
        if (pick == 0 && (e % 37 == 0 || e >= N - 12)) {
          std::vector<double> xe(xd.begin() + e * W, xd.begin() + (e + 1) * W);
          expectNear(isDouble ? fd : floatFd, "J vs fd", e, got,
                     fdElem(xe, NOut, l, j));
        }
      }
  }
  for (int e = 0; e < N; e += 41) {
    if (!hostPicked(e, pick))
      continue;
    std::vector<double> xe(xd.begin() + e * W, xd.begin() + (e + 1) * W);
    expectNear(isDouble ? primal : floatLane, "y", e, y[e * NOut],
               hostElem(xe, NOut)[0]);
  }
}

// Reverse-mode Jacobian rows at width W against W width-1 reverse runs,
// against forward mode (pick 0: columns by width-1 forward requests) and
// central differences.
template <int W> void checkReverse(int pick) {
  std::vector<double> x = inputs(N * NIn, 3 * W);
  double *dX = deviceCopy(x);
  double *dY = deviceCopy(std::vector<double>(N * W, 0.0));
  std::vector<double> seeds;
  for (int e = 0; e < N; ++e) {
    std::vector<double> s = identity<double>(W);
    seeds.insert(seeds.end(), s.begin(), s.end());
  }
  double *dS = deviceCopy(seeds);
  double *dG = deviceCopy(std::vector<double>((size_t)N * W * NIn, 0.0));
  revJac<W><<<Grid, Block>>>(dX, dG, dY, dS, N, pick);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> G = hostCopy(dG, (size_t)N * W * NIn);
  // The width-1 references, the same for every pick: computed once.
  static std::vector<std::vector<double>> rows(W);
  double *dOneG = deviceCopy(std::vector<double>(N * NIn, 0.0));
  double *dOneS = deviceCopy(std::vector<double>(N * W, 0.0));
  for (int l = 0; l < W && rows[W - 1].empty(); ++l) {
    std::vector<double> s(N * W, 0.0), zero(N * NIn, 0.0);
    for (int e = 0; e < N; ++e)
      s[e * W + l] = 1;
    CHECK(devCopyToDevice(dOneS, s.data(), s.size() * sizeof(double)));
    CHECK(devCopyToDevice(dOneG, zero.data(), zero.size() * sizeof(double)));
    revOne<<<Grid, Block>>>(dX, dOneG, dY, dOneS, NIn, W, N);
    CHECK(DEVCHECK_API(DeviceSynchronize)());
    rows[l] = hostCopy(dOneG, N * NIn);
  }
  // Forward-mode columns: direction e_i of every thread.
  std::vector<std::vector<double>> cols(NIn);
  if (pick == 0) {
    double *dY1 = deviceCopy(std::vector<double>(N * W, 0.0));
    double *dT = deviceCopy(std::vector<double>(N * W, 0.0));
    double *dE = deviceCopy(identity<double>(NIn));
    for (int i = 0; i < NIn; ++i) {
      fwdOne<double><<<Grid, Block>>>(dX, dE + i * NIn, dY1, dT, NIn, W, N);
      CHECK(DEVCHECK_API(DeviceSynchronize)());
      cols[i] = hostCopy(dT, N * W);
    }
  }
  for (int e = 0; e < N; ++e)
    for (int l = 0; l < W; ++l)
      for (int i = 0; i < NIn; ++i) {
        double got = G[((size_t)e * W + l) * NIn + i];
        if (!hostPicked(e, pick)) {
          expectNear(lane, "G of a thread that did not call", e, got, 0);
          continue;
        }
        expectNear(lane, "G vs width 1", e, got, rows[l][e * NIn + i]);
        if (pick != 0)
          continue;
        expectNear(dual, "G vs forward", e, got, cols[i][e * W + l]);
        if (e % 53 == 0 || e >= N - 3) {
          std::vector<double> xe(x.begin() + e * NIn,
                                 x.begin() + (e + 1) * NIn);
          expectNear(fd, "G vs fd", e, got, fdElem(xe, W, i, l));
        }
      }
}

// tally at width W: the primal count and sum once per calling thread, the
// tangents (forward) and gradients (reverse) per direction.
template <int W> void checkTally(int pick) {
  std::vector<double> x = inputs(2 * N, 7), dx = inputs(2 * W * N, 11);
  int callers = 0;
  double sum = 0;
  std::vector<double> dsum(W, 0.0);
  for (int e = 0; e < N; ++e) {
    if (!hostPicked(e, pick))
      continue;
    ++callers;
    double a = x[2 * e], b = x[2 * e + 1];
    sum += a * b + std::sin(a);
    for (int l = 0; l < W; ++l)
      dsum[l] += (b + std::cos(a)) * dx[2 * (W * e + l)] +
                 a * dx[2 * (W * e + l) + 1];
  }
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  double *dSum = deviceCopy(std::vector<double>(1, 0.0));
  double *dDsum = deviceCopy(std::vector<double>(W, 0.0));
  int *dCount = deviceCopy(std::vector<int>(1, 0));
  fwdTally<W><<<Grid, Block>>>(dX, dDx, dSum, dDsum, dCount, N, pick);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  expectNear(lane, "forward count", 0, hostCopy(dCount, 1)[0], callers);
  expectNear(lane, "forward sum", 0, hostCopy(dSum, 1)[0], sum);
  std::vector<double> got = hostCopy(dDsum, W);
  for (int l = 0; l < W; ++l)
    expectNear(lane, "forward dsum", l, got[l], dsum[l]);

  // Reverse: direction l seeded with l + 1.
  std::vector<double> seed(W);
  for (int l = 0; l < W; ++l)
    seed[l] = l + 1;
  double *dSeed = deviceCopy(seed);
  double *dGx = deviceCopy(std::vector<double>(2 * W * N, 0.0));
  int *dCount2 = deviceCopy(std::vector<int>(1, 0));
  double *dSum2 = deviceCopy(std::vector<double>(1, 0.0));
  revTally<W><<<Grid, Block>>>(dX, dGx, dSum2, dSeed, dCount2, N, pick);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  expectNear(lane, "reverse count", 0, hostCopy(dCount2, 1)[0], callers);
  expectNear(lane, "reverse sum", 0, hostCopy(dSum2, 1)[0], sum);
  std::vector<double> gx = hostCopy(dGx, 2 * W * N);
  for (int e = 0; e < N; ++e)
    for (int l = 0; l < W; ++l) {
      double a = x[2 * e], b = x[2 * e + 1];
      bool on = hostPicked(e, pick);
      expectNear(lane, "reverse dx", e, gx[2 * (W * e + l)],
                 on ? (l + 1) * (b + std::cos(a)) : 0);
      expectNear(lane, "reverse dx", e, gx[2 * (W * e + l) + 1],
                 on ? (l + 1) * a : 0);
    }
}

// A returned tangent per direction (forward) and an active scalar's adjoint
// per direction (reverse), against their analytic derivatives.
template <int W> void checkReturns() {
  std::vector<double> x = inputs(3 * N, 5), dx = inputs(3 * W * N, 9);
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  double *dT = deviceCopy(std::vector<double>(W * N, 0.0));
  fwdReturn<W><<<Grid, Block>>>(dX, dDx, dT, N);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> t = hostCopy(dT, W * N);
  for (int e = 0; e < N; ++e) {
    const double *v = &x[3 * e];
    double r = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double c = std::cos(v[0] * v[2]);
    double g[3] = {v[0] / r + c * v[2], v[1] / r, v[2] / r + c * v[0]};
    for (int l = 0; l < W; ++l) {
      const double *d = &dx[3 * (W * e + l)];
      expectNear(lane, "returned tangent", e, t[W * e + l],
                 g[0] * d[0] + g[1] * d[1] + g[2] * d[2]);
    }
  }
  std::vector<double> sv = inputs(N, 13), seeds(3 * W * N);
  for (int e = 0; e < N; ++e)
    for (int l = 0; l < W; ++l) {
      seeds[3 * (W * e + l)] = (l + 1.0) / W;
      seeds[3 * (W * e + l) + 1] = 1.0 / W;
      seeds[3 * (W * e + l) + 2] = -1.0 / W;
    }
  double *dS = deviceCopy(sv), *dSeeds = deviceCopy(seeds);
  double *dY = deviceCopy(std::vector<double>(3 * N, 0.0));
  double *dA = deviceCopy(std::vector<double>(W * N, 0.0));
  revScalar<W><<<Grid, Block>>>(dS, dX, dY, dSeeds, dA, N);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> a = hostCopy(dA, W * N);
  for (int e = 0; e < N; ++e)
    for (int l = 0; l < W; ++l) {
      double want = 0;
      for (int j = 0; j < 3; ++j)
        want += seeds[3 * (W * e + l) + j] *
                (std::sin(x[3 * e + j]) + 2 * sv[e] * x[3 * e + (j + 1) % 3]);
      expectNear(lane, "active scalar's adjoint", e, a[W * e + l], want);
    }
}

template <int W> void checkWidth() {
  for (int pick = 0; pick < 3; ++pick) {
    checkForward<W, double>(pick, false);
    checkReverse<W>(pick);
  }
  if (W <= 8)
    checkForward<W, double>(1, true);
}

} // namespace

int main() {
  providePool(Grid * Block); // reverse mode's loops grow in the arena
#ifndef LANES_QUICK
  checkWidth<2>();
  checkWidth<4>();
  checkWidth<8>();
  checkWidth<16>();
#endif
  checkWidth<32>();
#if LANES_WARP >= 64
  checkWidth<64>();
#endif
#ifndef LANES_QUICK
  checkForward<8, float>(0, false);
  checkForward<32, float>(2, false);
  // Widths that do not divide the warp: groups of 3 and 12 lanes, and lanes
  // left over that compute their directions alone.
  for (int pick = 0; pick < 3; ++pick) {
    checkForward<3, double>(pick, false);
    checkReverse<12>(pick);
  }
  checkReturns<4>();
  checkReturns<32>();
#endif
  for (int pick = 0; pick < 3; ++pick)
    checkTally<4>(pick);
  checkTally<32>(0);
  return finish("widths 2..32 (64 on AMDGPU), 3 and 12 of a forward "
                "Jacobian (dupv and shadow arguments, double and float) and "
                "reverse rows of an element function vs width-1 requests, "
                "forward mode and central FD; returned tangents and active "
                "scalars' adjoints; primal atomics once per thread; all, "
                "half-warp and every-other-thread callers; a partial last "
                "warp",
                {&lane, &floatLane, &fd, &floatFd, &dual, &primal});
}
