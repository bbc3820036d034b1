// __shared__ memory and __syncthreads inside the differentiated function:
// the shadow of a shared array is a shared array, zeroed by the block at
// the start of the reverse sweep, and every barrier is mirrored in the
// reverse sweep (also inside loops), so adjoints other threads add are
// complete before they are read.  Checked: forward against central finite
// differences, reverse against forward by the dot-product test, at -O2/-O0
// and in every emulator schedule.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// The gradient kernel: the shadow tile is zeroed, then the forward
// barrier, the adjoints of neighbours' slots added to the shadow tile by
// shared-memory atomics (block scope), then the mirrored barrier.
// CHECK-LABEL: .entry _Z9grad_haloPKdPdS0_i(
// CHECK: st.shared.b64 {{.*}}, 0;
// CHECK: bar.sync 0;
// CHECK: bar.sync 0;
// CHECK: atom.shared.add.f64
// CHECK: bar.sync 0;
// CHECK: tile_$_gpuad_$_shadow
// CHECK: ret;

#include <gpuad/gpuad.h>

constexpr int Block = 64;

// Each thread: its value and its neighbours' through a shared tile with a
// halo, y_t = w_t * (tile[t-1] * tile[t] + sin(tile[t+1])).
__device__ double halo(const double *x, const double *w, int n) {
  __shared__ double tile[Block + 2];
  int t = threadIdx.x, i = blockIdx.x * Block + t;
  tile[t + 1] = i < n ? x[i] * x[i] : 0.0;
  if (t == 0)
    tile[0] = i > 0 ? x[i - 1] : 0.0;
  if (t == Block - 1)
    tile[Block + 1] = i + 1 < n ? x[i + 1] : 0.0;
  __syncthreads();
  return w[t] * (tile[t] * tile[t + 1] + sin(tile[t + 2]));
}

// A tree reduction in shared memory, barriers in the loop: every thread
// returns its weight times the block's sum of cubes.
__device__ float block_sum(const float *x, const float *w, int n) {
  __shared__ float part[Block];
  int t = threadIdx.x, i = blockIdx.x * Block + t;
  part[t] = i < n ? x[i] * x[i] * x[i] : 0.0f;
  __syncthreads();
  for (int s = Block / 2; s > 0; s /= 2) {
    if (t < s)
      part[t] += part[t + s];
    __syncthreads();
  }
  return w[t] * part[0];
}

// The shared tile in a function the differentiated one calls (not inlined
// at -O0): the requested derivative zeroes the callee's shadow.
__device__ __noinline__ double rotate(const double *x, int n) {
  __shared__ double ring[Block];
  int t = threadIdx.x, i = blockIdx.x * Block + t;
  ring[t] = i < n ? x[i] : 0.0;
  __syncthreads();
  return ring[(t + 1) % Block] * ring[t];
}
__device__ double outer(const double *x, const double *w, int n) {
  return w[threadIdx.x] * rotate(x, n) + 0.5 * x[blockIdx.x * Block + threadIdx.x % 4];
}

#define GPUAD_KERNELS(NAME, T)                                                 \
  __global__ void primal_##NAME(const T *x, const T *w, T *y, int n) {         \
    y[blockIdx.x * Block + threadIdx.x] = NAME(x, w, n);                       \
  }                                                                            \
  __global__ void tangent_##NAME(const T *x, const T *dx, const T *w, T *dy,   \
                                 int n) {                                      \
    dy[blockIdx.x * Block + threadIdx.x] = __enzyme_fwddiff<T>(                \
        (void *)NAME, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);    \
  }                                                                            \
  __global__ void grad_##NAME(const T *x, T *xbar, const T *w, int n) {        \
    __enzyme_autodiff<void>((void *)NAME, enzyme_dup, x, xbar, enzyme_const,   \
                            w, enzyme_const, n);                               \
  }
GPUAD_KERNELS(halo, double)
GPUAD_KERNELS(block_sum, float)
GPUAD_KERNELS(outer, double)

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

constexpr int Blocks = 3, N = Blocks * Block - 5;

template <class T>
void check(const char *name, void (*primal)(const T *, const T *, T *, int),
           void (*tangent)(const T *, const T *, const T *, T *, int),
           void (*grad)(const T *, T *, const T *, int), Tol &fdTol,
           Tol &dotTol, double h) {
  std::vector<T> x(N), dx(N), w(Blocks * Block);
  for (int i = 0; i < N; ++i) {
    x[i] = T(0.3 + 0.01 * ((i * 7) % 41));
    dx[i] = T(0.5 - 0.02 * ((i * 3) % 29));
  }
  for (int i = 0; i < Blocks * Block; ++i)
    w[i] = T(1.0 + 0.05 * (i % 9));
  T *dW = deviceCopy(w);
  T *out = deviceCopy(std::vector<T>(Blocks * Block));
  auto run = [&](const std::vector<T> &in) {
    primal<<<Blocks, Block>>>(deviceCopy(in), dW, out, N);
    CHECK(DEVCHECK_API(GetLastError)());
    return hostCopy(out, Blocks * Block);
  };
  std::vector<T> plus(x), minus(x);
  for (int i = 0; i < N; ++i) {
    plus[i] = T(x[i] + h * dx[i]);
    minus[i] = T(x[i] - h * dx[i]);
  }
  std::vector<T> yp = run(plus), ym = run(minus);
  tangent<<<Blocks, Block>>>(deviceCopy(x), deviceCopy(dx), dW, out, N);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> ydot = hostCopy(out, Blocks * Block);
  double sumYdot = 0;
  for (int i = 0; i < Blocks * Block; ++i) {
    expectNear(fdTol, name, i, ydot[i], (double(yp[i]) - double(ym[i])) / (2 * h));
    sumYdot += ydot[i];
  }
  // Every thread seeds its output with 1.
  T *xbar = deviceCopy(std::vector<T>(N));
  grad<<<Blocks, Block>>>(deviceCopy(x), xbar, dW, N);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> g = hostCopy(xbar, N);
  expectNear(dotTol, name, -1, dotProduct(g, dx), sumYdot);
}

int main() {
  // double: h = 1e-6 central differences; float: h = 1e-3 (rounding of sums
  // of 64 cubes, 2e-3).  Dot products: 192 products summed in another order.
  Tol fdDouble{"fd double", 1e-6}, fdFloat{"fd float", 2e-3};
  Tol dotDouble{"dot double", 1e-12}, dotFloat{"dot float", 1e-4};
  check<double>("halo", primal_halo, tangent_halo, grad_halo, fdDouble,
                dotDouble, 1e-6);
  check<float>("block_sum", primal_block_sum, tangent_block_sum,
               grad_block_sum, fdFloat, dotFloat, 1e-3);
  check<double>("outer", primal_outer, tangent_outer, grad_outer, fdDouble,
                dotDouble, 1e-6);
  return finish("shared tile with halo (double), shared tree reduction "
                "with barriers in a loop (float), shared tile in a callee "
                "(double): forward vs FD, reverse vs forward",
                {&fdDouble, &fdFloat, &dotDouble, &dotFloat});
}
