// Where lanes cannot serve a width-N request, the request says so and keeps
// the per-thread vector form (or runs its directions one after another),
// and the result is still every direction's derivative:
//   - a function with a barrier and block-shared memory, one with a warp
//     shuffle, one that reads its thread index: vectors, remarked;
//   - an argument in the caller's private memory (a local array): no other
//     lane can read it, so each thread runs its directions in turn;
//   - width 64 on a 32-lane warp: vectors;
//   - `auto` keeps vectors for a function whose vector form is small;
//   - a primal printf: printed once per calling thread, not once per lane.
// Each kernel's width-4 result is checked against 4 width-1 requests.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o /dev/null \
// RUN:   -mllvm -gpuad-batch-mapping=lanes -Rpass=gpuad 2>&1 | FileCheck %s
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o /dev/null \
// RUN:   -Rpass=gpuad 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: %gpuad-cc --emulate -O2 -mllvm -gpuad-batch-mapping=lanes %s -o %t
// RUN: %t | FileCheck %s --check-prefix=OUT
// RUN: %gpuad-cc --emulate -O0 -mllvm -gpuad-batch-mapping=lanes %s -o %t.O0
// RUN: %t.O0 | FileCheck %s --check-prefix=OUT
//
// CHECK-DAG: remark: fwd derivative of '_Z10blockShiftPKdPd' at width 4: {{.*}}; directions: vectors, not lanes: '_Z10blockShiftPKdPd' uses block-shared memory
// CHECK-DAG: remark: fwd derivative of '_Z10warpRotatePKdPd' at width 4: {{.*}}; directions: vectors, not lanes: '_Z10warpRotatePKdPd' communicates with other threads ('llvm.nvvm.shfl.sync.idx.i32')
// CHECK-DAG: remark: fwd derivative of '_Z10byThreadIdPKdPd' at width 4: {{.*}}; directions: vectors, not lanes: '_Z10byThreadIdPKdPd' reads its thread's index ('llvm.nvvm.read.ptx.sreg.tid.x')
// CHECK-DAG: remark: fwd derivative of '_Z7squareRPKdPd' at width 4: {{.*}}; directions: serial (each thread computes its directions one after another with the width-1 derivative: argument 1 of '_Z7squareRPKdPd' is the caller's private memory, which other lanes cannot read)
// CHECK-DAG: remark: fwd derivative of '_Z6squarePKdPd' at width 64: {{.*}}; directions: vectors, not lanes: width 64 exceeds the 32 lanes of a warp
// CHECK-DAG: remark: fwd derivative of '_Z5noisyPKdPd' at width 4: {{.*}}; directions: lanes (4 lanes per calling thread
//
// AUTO-DAG: remark: fwd derivative of '_Z6squarePKdPd' at width 2: {{.*}}; directions: vectors (about {{[0-9]+}} registers as vectors, {{[0-9]+}} per lane, budget 32)
//
// Four calling threads print once each (lanes would print 16 lines).
// OUT-COUNT-4: noisy x=
// OUT-NOT: noisy x=
// OUT: lanes-fallback.cu: PASS

#include <gpuad/gpuad.h>

#include <cstdio>

constexpr int Threads = 64, W = 4;

__device__ void square(const double *x, double *y) { y[0] = x[0] * x[0] * x[1]; }

__device__ void squareR(const double *__restrict__ x, double *__restrict__ y) {
  y[0] = x[0] * x[0] * x[1];
}

__device__ void blockShift(const double *x, double *y) {
  __shared__ double s[Threads];
  s[threadIdx.x] = x[0] * x[1];
  __syncthreads();
  y[0] = sin(s[(threadIdx.x + 1) % Threads]) + x[0];
}

__device__ void warpRotate(const double *x, double *y) {
  y[0] = __shfl_sync(0xffffffffu, x[0] * x[1], (threadIdx.x + 1) & 31) +
         cos(x[1]);
}

__device__ void byThreadId(const double *x, double *y) {
  y[0] = x[0] * (threadIdx.x % 3) + exp(x[1]);
}

__device__ void noisy(const double *x, double *y) {
  if (x[0] < 0.27)
    printf("noisy x=%g\n", x[0]);
  y[0] = x[0] * x[1];
}

using Fn = void (*)(const double *, double *);

// The function kernel K differentiates (5: squareR, on a local copy).
template <int K>
constexpr Fn Pick = K == 1   ? blockShift
                    : K == 2 ? warpRotate
                    : K == 3 ? byThreadId
                    : K == 4 ? noisy
                    : K == 5 ? squareR
                             : square;

// dy[t][l] = direction l's tangent of f at thread t's x; dx[l] = direction l.
template <int K>
__global__ void atWidth(const double *x, const double *dx, double *y,
                        double *dy) {
  int t = threadIdx.x;
  // Kernel 5's x is in the thread's own memory.
  double local[2] = {x[2 * t], x[2 * t + 1]};
  __enzyme_fwddiff<void>((void *)Pick<K>, enzyme_width, W, enzyme_dupv,
                         (long)(2 * sizeof(double)), K == 5 ? local : x + 2 * t,
                         dx, enzyme_dupv, (long)sizeof(double), y + t,
                         dy + W * t);
}

// Width 64 (more than a warp's lanes) and width 2 (small: auto keeps
// vectors); compiled for the remarks.
__global__ void wide(const double *x, const double *dx, double *y,
                     double *dy) {
  int t = threadIdx.x;
  __enzyme_fwddiff<void>((void *)square, enzyme_width, 64, enzyme_dupv,
                         (long)(2 * sizeof(double)), x + 2 * t, dx, enzyme_dupv,
                         (long)sizeof(double), y + t, dy + 64 * t);
  __enzyme_fwddiff<void>((void *)square, enzyme_width, 2, enzyme_dupv,
                         (long)(2 * sizeof(double)), x + 2 * t, dx, enzyme_dupv,
                         (long)sizeof(double), y + t, dy + 2 * t);
}

template <int K>
__global__ void one(const double *x, const double *dx, double *y, double *dy) {
  int t = threadIdx.x;
  __enzyme_fwddiff<void>((void *)Pick<K>, enzyme_dup, x + 2 * t, dx,
                         enzyme_dup, y + t, dy + t);
}

#include "include/devcheck.h"

// Lanes against width-1 requests, direction by direction.
Tol lane{"lane", 1e-12};

template <int K> void check(const char *what) {
  std::vector<double> x(2 * Threads), dx(2 * W);
  for (int i = 0; i < 2 * Threads; ++i)
    x[i] = 0.2 + 0.01 * i;
  for (int l = 0; l < 2 * W; ++l)
    dx[l] = 0.5 - 0.1 * l;
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  double *dY = deviceCopy(std::vector<double>(Threads, 0.0));
  double *dDy = deviceCopy(std::vector<double>(W * Threads, 0.0));
  atWidth<K><<<1, Threads>>>(dX, dDx, dY, dDy);
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> dy = hostCopy(dDy, W * Threads);
  if (K == 4) {
    // dy = x1 dx0 + x0 dx1 by hand (the width-1 kernel would print again).
    for (int t = 0; t < Threads; ++t)
      for (int l = 0; l < W; ++l)
        expectNear(lane, what, t, dy[W * t + l],
                   x[2 * t + 1] * dx[2 * l] + x[2 * t] * dx[2 * l + 1]);
    return;
  }
  double *dY1 = deviceCopy(std::vector<double>(Threads, 0.0));
  double *dOne = deviceCopy(std::vector<double>(Threads, 0.0));
  for (int l = 0; l < W; ++l) {
    one<K><<<1, Threads>>>(dX, dDx + 2 * l, dY1, dOne);
    CHECK(DEVCHECK_API(DeviceSynchronize)());
    std::vector<double> ref = hostCopy(dOne, Threads);
    for (int t = 0; t < Threads; ++t)
      expectNear(lane, what, t, dy[W * t + l], ref[t]);
  }
}

int main() {
  check<0>("square");
  check<1>("blockShift");
  check<2>("warpRotate");
  check<3>("byThreadId");
  check<4>("noisy");
  check<5>("square of a local");
  return finish("width 4 where lanes cannot serve (barrier and shared "
                "memory, shuffle, thread index, a private argument) and a "
                "printing function vs width-1 requests",
                {&lane});
}
