// __shared__ memory and barriers in the user's split mode: the augmented
// half (__enzyme_augmentfwd) zeroes the shared shadow with the block at its
// start, the backward half (__enzyme_reverse) mirrors the barriers.  Both
// halves run in the same launch (shared memory holds nothing between
// launches).  The tape travels three ways: a heap pointer (the default), by
// value in enzyme_allocated bytes, and through thread-local memory given
// with enzyme_tape.  Each gradient vs the combined one (__enzyme_autodiff,
// 1e-15) and vs central finite differences of a host copy (1e-6).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// The by-value kernel: the shadow zeroed and a barrier before the forward
// code, the mirrored barrier and a block-scope atomic in the reverse.
// CHECK-LABEL: .entry _Z13grad_by_valuePKdPdi(
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: bar.sync
// CHECK: atom.shared.add.f64
// CHECK: ret;

#include <gpuad/gpuad.h>

constexpr int Block = 64;

// y = tile[t+1] * x[i] * x[i] with tile filled from x, wrapping in the block.
__device__ double neighbour(const double *x, int n) {
  __shared__ double tile[Block];
  int t = threadIdx.x, i = blockIdx.x * Block + t;
  tile[t] = i < n ? sin(x[i]) : 0.0;
  __syncthreads();
  double self = i < n ? x[i] : 0.0;
  return tile[(t + 1) % Block] * self * self;
}

struct Boxed {
  void *tape;
  double primal;
};
struct Blob {
  char bytes[128];
};
struct ByValue {
  Blob tape;
  double primal;
};
extern __device__ Boxed __enzyme_augmentfwd_boxed(void *, ...);
extern __device__ ByValue __enzyme_augmentfwd_blob(void *, ...);
extern __device__ void __enzyme_reverse_split(void *, ...);

__global__ void grad_heap(const double *x, double *dx, int n) {
  Boxed a = __enzyme_augmentfwd_boxed((void *)neighbour, enzyme_dup, x, dx,
                                      enzyme_const, n);
  __enzyme_reverse_split((void *)neighbour, enzyme_dup, x, dx, enzyme_const, n,
                         1.0, a.tape);
}
__global__ void grad_by_value(const double *x, double *dx, int n) {
  ByValue a = __enzyme_augmentfwd_blob((void *)neighbour, enzyme_allocated,
                                       (int)sizeof(Blob), enzyme_dup, x, dx,
                                       enzyme_const, n);
  __enzyme_reverse_split((void *)neighbour, enzyme_allocated, (int)sizeof(Blob),
                         enzyme_dup, x, dx, enzyme_const, n, 1.0, a.tape);
}
__global__ void grad_memory(const double *x, double *dx, int n) {
  alignas(16) char tape[128];
  __enzyme_augmentfwd((void *)neighbour, enzyme_tape, tape, enzyme_dup, x, dx,
                      enzyme_const, n);
  __enzyme_reverse_split((void *)neighbour, enzyme_tape, tape, enzyme_dup, x,
                         dx, enzyme_const, n, 1.0);
}
__global__ void grad_combined(const double *x, double *dx, int n) {
  __enzyme_autodiff<double>((void *)neighbour, enzyme_dup, x, dx, enzyme_const,
                            n);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

int main() {
  const int blocks = 3, n = blocks * Block - 10;
  std::vector<double> x(n), zero(n, 0.0);
  for (int i = 0; i < n; ++i)
    x[i] = -1.2 + 2.5 * ((i * 17) % n) / n;
  double *dx = deviceCopy(x);
  auto run = [&](void (*k)(const double *, double *, int)) {
    double *g = deviceCopy(zero);
    k<<<blocks, Block>>>(dx, g, n);
    CHECK(DEVCHECK_API(GetLastError)());
    return hostCopy(g, n);
  };
  std::vector<double> combined = run(grad_combined), heap = run(grad_heap),
                      value = run(grad_by_value), memory = run(grad_memory);
  // Host copy: the sum over threads of neighbour's result.
  auto total = [&](const std::vector<double> &v) {
    double s = 0;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < Block; ++t) {
        int i = b * Block + t, j = b * Block + (t + 1) % Block;
        double tile = j < n ? std::sin(v[j]) : 0.0, self = i < n ? v[i] : 0.0;
        s += tile * self * self;
      }
    return s;
  };
  Tol same{"split vs combined", 1e-15}, fd{"fd", 1e-6};
  const double h = 1e-6;
  for (int i = 0; i < n; ++i) {
    std::vector<double> up = x, down = x;
    up[i] += h;
    down[i] -= h;
    expectNear(fd, "combined", i, combined[i], (total(up) - total(down)) / (2 * h));
    expectNear(same, "heap", i, heap[i], combined[i]);
    expectNear(same, "by value", i, value[i], combined[i]);
    expectNear(same, "memory", i, memory[i], combined[i]);
  }
  return finish("shared memory in user split mode (heap, by-value and "
                "in-memory tapes) vs combined and FD",
                {&same, &fd});
}
