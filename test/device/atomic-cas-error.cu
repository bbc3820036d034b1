// An atomicCAS loop on differentiated memory (here the usual atomic max of
// doubles through __double_as_longlong) has no derivative: gpuad stops with
// a diagnostic at the CAS instead of silently dropping the derivative the
// loop moves, at -O2 and at -O0 (where the CAS is in CUDA's header).
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: cannot differentiate compare-and-swap on differentiated memory ('{{.*}}cmpxchg{{.*}}'): an atomicCAS loop (e.g. an atomic max of floats) has no derivative rule

#include <gpuad/gpuad.h>

__device__ void atomic_max(double *m, const double *x) {
  auto *bits = reinterpret_cast<unsigned long long *>(m);
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    double larger = fmax(x[threadIdx.x], __longlong_as_double(assumed));
    old = atomicCAS(bits, assumed, __double_as_longlong(larger));
  } while (assumed != old);
}

__global__ void grad(double *m, double *dm, const double *x, double *dx) {
  __enzyme_autodiff<void>((void *)atomic_max, enzyme_dup, m, dm, enzyme_dup, x,
                          dx);
}
