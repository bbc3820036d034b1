// The device suite of GPU-aware differentiation, in float and double: each
// kernel's gradient (reverse mode, from a wrapper kernel) against central
// finite differences of a host copy, and against its tangent (forward mode)
// by the dot product <ybar, J xdot> = <J^T ybar, xdot>.
//   elementwise   y[i] = f(x[i]): adjoints private to the thread;
//   blocksum      a block reduction through shared memory with barriers and
//                 one primal atomicAdd per block;
//   recurrence    a fixed-length per-thread recurrence with a shared weight:
//                 its tape is a fixed region (on NVPTX shared-memory slots
//                 for float under __launch_bounds__(128), thread-local
//                 memory for double; every tape in shared slots with
//                 -gpuad-tape-placement=shared, in the pool with =pool);
//   normalize     v / |v| and |v| per thread;
//   scatter       atomicAdd into y[idx[i]] with colliding indices and a
//                 shared weight;
//   horner        a kernel that calls a __noinline__ device function with a
//                 loop.
// (The shared-tile stencil and the warp-shuffle reduction are in
// shared-barriers.cu and warp-shuffles.cu.)
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx -Rpass=gpuad -Rpass-analysis=gpuad 2> %t.remarks
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// No device malloc anywhere.
// CHECK-NOT: malloc
// The float recurrence's tape is in shared-memory slots; the double one's
// would lower occupancy (104 B a thread).
// REMARK-DAG: tape region of {{.*}}, 48 B per thread, in shared-memory slots (128 threads x 56 B)
// REMARK-DAG: tape region of {{.*}}, 96 B per thread, stays in thread-local memory: 104 B slots exceed the 64 B

#include <gpuad/gpuad.h>
#include <gpuad/tape_pool.h>

constexpr int Block = 128;
constexpr int Steps = 12;

template <class T>
__device__ void elementwise(const T *__restrict__ x, T *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sin(x[i]) * exp(-x[i] * x[i] / 4) + x[i] * x[i] * x[i] / 8;
}

template <class T> __device__ void blocksum(const T *x, T *out, int n) {
  __shared__ T part[Block];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  part[t] = i < n ? x[i] * x[i] * (1 + x[i] / 4) : T(0);
  __syncthreads();
  for (int s = Block / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, part[0]);
}

template <class T>
__device__ void recurrence(const T *__restrict__ x, const T *__restrict__ w,
                           T *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T v = x[i];
#pragma unroll 1 // a loop on every target (AMDGPU would unroll it)
  for (int k = 0; k < Steps; ++k)
    v = v + T(0.15) * sin(*w * v + T(0.1) * k);
  y[i] = v;
}

template <class T>
__device__ void normalize(const T *__restrict__ v, T *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T a = v[3 * i], b = v[3 * i + 1], c = v[3 * i + 2];
  T mag = sqrt(a * a + b * b + c * c);
  out[4 * i] = a / mag;
  out[4 * i + 1] = b / mag;
  out[4 * i + 2] = c / mag;
  out[4 * i + 3] = mag;
}

template <class T>
__device__ void scatter(const T *x, const int *idx, const T *w, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&y[idx[i]], *w * x[i] * x[i]);
}

template <class T> __device__ __noinline__ T hornerPoly(T x) {
  const T c[6] = {T(1), T(-0.5), T(0.25), T(-0.125), T(0.0625), T(-0.03125)};
  T r = 0;
  for (int k = 5; k >= 0; --k)
    r = r * x + c[k] * cos(T(0.3) * k * x);
  return r;
}

template <class T>
__device__ void horner(const T *__restrict__ x, T *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = hornerPoly(x[i]) * x[i];
}

// One wrapper triple per kernel and type: the primal, the gradient and the
// tangent (tools/resource_report.py pairs a gradient kernel with the kernel
// its function was inlined into).  The scatter's idx is inactive; each
// kernel's last argument is n.
#define WRAP2(name)                                                            \
  template <class T>                                                           \
  __global__ void __launch_bounds__(Block)                                     \
      name##Primal(const T *x, T *y, int n) {                                  \
    name<T>(x, y, n);                                                          \
  }                                                                            \
  template <class T>                                                           \
  __global__ void __launch_bounds__(Block)                                     \
      name##Grad(const T *x, T *xb, T *y, T *yb, int n) {                      \
    __enzyme_autodiff<void>((void *)name<T>, enzyme_dup, x, xb, enzyme_dup, y, \
                            yb, enzyme_const, n);                              \
  }                                                                            \
  template <class T>                                                           \
  __global__ void name##Tan(const T *x, const T *xd, T *y, T *yd, int n) {     \
    __enzyme_fwddiff<void>((void *)name<T>, enzyme_dup, x, xd, enzyme_dup, y,  \
                           yd, enzyme_const, n);                               \
  }
WRAP2(elementwise)
WRAP2(blocksum)
WRAP2(normalize)
WRAP2(horner)

template <class T>
__global__ void __launch_bounds__(Block)
    recurrencePrimal(const T *x, const T *w, T *y, int n) {
  recurrence<T>(x, w, y, n);
}
template <class T>
__global__ void __launch_bounds__(Block)
    scatterPrimal(const T *x, const int *idx, const T *w, T *y, int n) {
  scatter<T>(x, idx, w, y, n);
}
template <class T>
__global__ void __launch_bounds__(Block)
    recurrenceGrad(const T *x, T *xb, const T *w, T *wb, T *y, T *yb, int n) {
  __enzyme_autodiff<void>((void *)recurrence<T>, enzyme_dup, x, xb, enzyme_dup,
                          w, wb, enzyme_dup, y, yb, enzyme_const, n);
}
template <class T>
__global__ void recurrenceTan(const T *x, const T *xd, const T *w, const T *wd,
                              T *y, T *yd, int n) {
  __enzyme_fwddiff<void>((void *)recurrence<T>, enzyme_dup, x, xd, enzyme_dup,
                         w, wd, enzyme_dup, y, yd, enzyme_const, n);
}
template <class T>
__global__ void __launch_bounds__(Block)
    scatterGrad(const T *x, T *xb, const int *idx, const T *w, T *wb, T *y,
                T *yb, int n) {
  __enzyme_autodiff<void>((void *)scatter<T>, enzyme_dup, x, xb, enzyme_const,
                          idx, enzyme_dup, w, wb, enzyme_dup, y, yb,
                          enzyme_const, n);
}
template <class T>
__global__ void scatterTan(const T *x, const T *xd, const int *idx, const T *w,
                           const T *wd, T *y, T *yd, int n) {
  __enzyme_fwddiff<void>((void *)scatter<T>, enzyme_dup, x, xd, enzyme_const,
                         idx, enzyme_dup, w, wd, enzyme_dup, y, yd,
                         enzyme_const, n);
}

// kernels/cuda/bench/gradient_time.cu times the kernels above.
#ifndef GRADIENT_SUITE_KERNELS_ONLY
// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

#include <functional>

// The host copies, in double (the reference for both types).
namespace host {
double elementwise(double x) {
  return std::sin(x) * std::exp(-x * x / 4) + x * x * x / 8;
}
double blockTerm(double x) { return x * x * (1 + x / 4); }
double recurrence(double x, double w) {
  for (int k = 0; k < Steps; ++k)
    x = x + 0.15 * std::sin(w * x + 0.1 * k);
  return x;
}
double hornerPoly(double x) {
  const double c[6] = {1, -0.5, 0.25, -0.125, 0.0625, -0.03125};
  double r = 0;
  for (int k = 5; k >= 0; --k)
    r = r * x + c[k] * std::cos(0.3 * k * x);
  return r;
}
} // namespace host

// Tolerances per type: central differences (h = 1e-6) of the double host
// copy against the device's arithmetic in T; the dot product sums a few
// hundred products.
template <class T> struct Tols {
  static constexpr bool F = sizeof(T) == 4;
  Tol fd{F ? "fd (float)" : "fd (double)", F ? 1e-4 : 1e-6};
  Tol dot{F ? "dot (float)" : "dot (double)", F ? 1e-4 : 1e-11};
  Tol primal{F ? "primal (float)" : "primal (double)", F ? 1e-5 : 1e-12};
};

template <class T> std::vector<T> ramp(int n, double lo, double hi) {
  std::vector<T> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = T(lo + (hi - lo) * ((i * 37) % n) / n);
  return v;
}

constexpr double H = 1e-6;

// y = f(x) elementwise-shaped kernels with one input and one output array:
// the gradient for seed ybar vs FD of the host's per-output function, and
// the dot product.  \p outputs(i) lists, for input i, the outputs it
// affects with d out / d x[i] by FD of \p f (out index, host value at x).
template <class T, class PrimalK, class GradK, class TanK>
void checkMap(
    Tols<T> &tol, const char *name, PrimalK primal, GradK grad, TanK tan,
    int nIn, int nOut, int per, const std::vector<T> &x,
    const std::function<double(const std::vector<double> &, int)> &f) {
  int blocks = (nIn / per + Block - 1) / Block;
  std::vector<T> ybar = ramp<T>(nOut, 0.5, 1.5), xdot = ramp<T>(nIn, -1, 1),
                 zeroIn(nIn, T(0)), zeroOut(nOut, T(0));
  T *dx = deviceCopy(x), *dxb = deviceCopy(zeroIn), *dy = deviceCopy(zeroOut),
    *dyb = deviceCopy(ybar), *dxd = deviceCopy(xdot),
    *dyd = deviceCopy(zeroOut);
  primal<<<blocks, Block>>>(dx, dy, nIn / per);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> y = hostCopy(dy, nOut);
  std::vector<double> xd(x.begin(), x.end());
  for (int o = 0; o < nOut; ++o)
    expectNear(tol.primal, name, o, y[o], f(xd, o));
  CHECK(devCopyToDevice(dy, zeroOut.data(), nOut * sizeof(T)));
  grad<<<blocks, Block>>>(dx, dxb, dy, dyb, nIn / per);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> xbar = hostCopy(dxb, nIn);
  CHECK(devCopyToDevice(dy, zeroOut.data(), nOut * sizeof(T)));
  tan<<<blocks, Block>>>(dx, dxd, dy, dyd, nIn / per);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> ydot = hostCopy(dyd, nOut);
  for (int i = 0; i < nIn; ++i) {
    double want = 0;
    std::vector<double> up = xd, down = xd;
    up[i] += H;
    down[i] -= H;
    for (int o = 0; o < nOut; ++o) {
      double d = (f(up, o) - f(down, o)) / (2 * H);
      want += ybar[o] * d;
    }
    expectNear(tol.fd, name, i, xbar[i], want);
  }
  expectNear(tol.dot, name, -1, dotProduct(ybar, ydot), dotProduct(xbar, xdot));
}

Tols<float> floatTol;
Tols<double> doubleTol;

template <class T> void runSuite(Tols<T> &tol) {
  const int n = 300; // two full blocks and a partial one

  std::vector<T> x = ramp<T>(n, -1.5, 1.5);
  checkMap<T>(tol, "elementwise", elementwisePrimal<T>, elementwiseGrad<T>,
              elementwiseTan<T>, n, n, 1, x,
              [](const std::vector<double> &v, int o) {
                return host::elementwise(v[o]);
              });
  checkMap<T>(tol, "horner", hornerPrimal<T>, hornerGrad<T>, hornerTan<T>, n, n,
              1, x, [](const std::vector<double> &v, int o) {
                return host::hornerPoly(v[o]) * v[o];
              });
  // The block sums: one output; FD per input is the term's derivative.
  checkMap<T>(tol, "blocksum", blocksumPrimal<T>, blocksumGrad<T>,
              blocksumTan<T>, n, 1, 1, x,
              [](const std::vector<double> &v, int) {
                double s = 0;
                for (double e : v)
                  s += host::blockTerm(e);
                return s;
              });
  std::vector<T> v = ramp<T>(3 * 100, 0.2, 2.0);
  checkMap<T>(tol, "normalize", normalizePrimal<T>, normalizeGrad<T>,
              normalizeTan<T>, 300, 400, 3, v,
              [](const std::vector<double> &u, int o) {
                int i = o / 4, k = o % 4;
                double a = u[3 * i], b = u[3 * i + 1], c = u[3 * i + 2];
                double m = std::sqrt(a * a + b * b + c * c);
                return k == 3 ? m : u[3 * i + k] / m;
              });

  // The recurrence and the scatter: x and the shared weight w.
  const double w = 1.3, wdot = -0.6;
  std::vector<T> ybar = ramp<T>(n, 0.5, 1.5), xdot = ramp<T>(n, -1, 1),
                 zero(n, T(0));
  int blocks = (n + Block - 1) / Block;
  {
    T *dx = deviceCopy(x), *dxb = deviceCopy(zero),
      *dw = deviceCopy(std::vector<T>{T(w)}),
      *dwb = deviceCopy(std::vector<T>{T(0)}), *dy = deviceCopy(zero),
      *dyb = deviceCopy(ybar), *dxd = deviceCopy(xdot),
      *dwd = deviceCopy(std::vector<T>{T(wdot)}), *dyd = deviceCopy(zero);
    recurrencePrimal<T><<<blocks, Block>>>(dx, dw, dy, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> y = hostCopy(dy, n);
    for (int i = 0; i < n; ++i)
      expectNear(tol.primal, "recurrence", i, y[i], host::recurrence(x[i], w));
    recurrenceGrad<T><<<blocks, Block>>>(dx, dxb, dw, dwb, dy, dyb, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> xbar = hostCopy(dxb, n), wbar = hostCopy(dwb, 1);
    recurrenceTan<T><<<blocks, Block>>>(dx, dxd, dw, dwd, dy, dyd, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> ydot = hostCopy(dyd, n);
    double wWant = 0;
    for (int i = 0; i < n; ++i) {
      double dX =
          (host::recurrence(x[i] + H, w) - host::recurrence(x[i] - H, w)) /
          (2 * H);
      double dW =
          (host::recurrence(x[i], w + H) - host::recurrence(x[i], w - H)) /
          (2 * H);
      expectNear(tol.fd, "recurrence xbar", i, xbar[i], ybar[i] * dX);
      wWant += ybar[i] * dW;
    }
    expectNear(tol.fd, "recurrence wbar", 0, wbar[0], wWant);
    expectNear(tol.dot, "recurrence", -1, dotProduct(ybar, ydot),
               dotProduct(xbar, xdot) + double(wbar[0]) * wdot);
  }
  {
    const int bins = 7;
    std::vector<int> idx(n);
    for (int i = 0; i < n; ++i)
      idx[i] = (i * 3) % bins;
    std::vector<T> binBar = ramp<T>(bins, 0.5, 1.5), binZero(bins, T(0));
    T *dx = deviceCopy(x), *dxb = deviceCopy(zero),
      *dw = deviceCopy(std::vector<T>{T(w)}),
      *dwb = deviceCopy(std::vector<T>{T(0)}), *dy = deviceCopy(binZero),
      *dyb = deviceCopy(binBar), *dxd = deviceCopy(xdot),
      *dwd = deviceCopy(std::vector<T>{T(wdot)}), *dyd = deviceCopy(binZero);
    int *didx = deviceCopy(idx);
    scatterPrimal<T><<<blocks, Block>>>(dx, didx, dw, dy, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> y = hostCopy(dy, bins);
    std::vector<double> want(bins, 0.0);
    for (int i = 0; i < n; ++i)
      want[idx[i]] += w * double(x[i]) * double(x[i]);
    for (int b = 0; b < bins; ++b) // float sums in another order: 1e-5
      expectNear(tol.primal, "scatter", b, y[b], want[b]);
    CHECK(devCopyToDevice(dy, binZero.data(), bins * sizeof(T)));
    scatterGrad<T><<<blocks, Block>>>(dx, dxb, didx, dw, dwb, dy, dyb, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> xbar = hostCopy(dxb, n), wbar = hostCopy(dwb, 1);
    CHECK(devCopyToDevice(dy, binZero.data(), bins * sizeof(T)));
    scatterTan<T><<<blocks, Block>>>(dx, dxd, didx, dw, dwd, dy, dyd, n);
    CHECK(DEVCHECK_API(GetLastError)());
    std::vector<T> ydot = hostCopy(dyd, bins);
    double wWant = 0;
    for (int i = 0; i < n; ++i) {
      // d/dx (w x^2) = 2 w x; d/dw = x^2 (analytic).
      expectNear(tol.fd, "scatter xbar", i, xbar[i],
                 binBar[idx[i]] * 2 * w * double(x[i]));
      wWant += binBar[idx[i]] * double(x[i]) * double(x[i]);
    }
    expectNear(tol.fd, "scatter wbar", 0, wbar[0], wWant);
    expectNear(tol.dot, "scatter", -1, dotProduct(binBar, ydot),
               dotProduct(xbar, xdot) + double(wbar[0]) * wdot);
  }
}

int main() {
  // The pool, for the run that puts every fixed tape there.
  size_t perThread = 0;
  CHECK(gpuad::tapePoolBytesPerThread(&perThread));
  if (perThread) {
    void *pool;
    CHECK(devMalloc(&pool, perThread * 3 * Block));
    devcheck::allocations.push_back(pool);
    CHECK(gpuad::setTapePool(pool, perThread));
  }
  runSuite(floatTol);
  runSuite(doubleTol);
  return finish(perThread ? "6 kernels, float and double, tapes in the pool"
                          : "6 kernels, float and double",
                {&floatTol.fd, &floatTol.dot, &floatTol.primal, &doubleTol.fd,
                 &doubleTol.dot, &doubleTol.primal});
}
#endif // GRADIENT_SUITE_KERNELS_ONLY
