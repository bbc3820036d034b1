// Which kernels get derivative kernels (-gpuad-launch-derivatives): by
// default those the file's host requests may launch, as the frontend plugin
// finds them -- named in a request's arguments (directly, or through a
// local variable), or by what those functions name, transitively, such as
// a helper that launches -- and not a kernel only main launches, nor one
// that makes requests itself.  `all` takes every kernel but those, `none`
// none, a list the kernels it names.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o - | FileCheck %s --check-prefix=AUTO
// AUTO-DAG: .entry __gpuad_rev__Z6directPd(
// AUTO-DAG: .entry __gpuad_fwd__Z6helperPd(
// AUTO-DAG: .entry __gpuad_rev__Z5localPd(
// AUTO-NOT: .entry __gpuad_{{.*}}onlyMain
// AUTO-NOT: .entry __gpuad_{{.*}}requests
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o - -mllvm -gpuad-launch-derivatives=all | FileCheck %s --check-prefix=ALL
// ALL-DAG: .entry __gpuad_rev__Z8onlyMainPd(
// ALL-DAG: .entry __gpuad_rev__Z6directPd(
// ALL-NOT: .entry __gpuad_{{.*}}requests
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o - -mllvm -gpuad-launch-derivatives=none | FileCheck %s --check-prefix=NONE
// NONE-NOT: __gpuad_
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o - -mllvm -gpuad-launch-derivatives=onlyMain | FileCheck %s --check-prefix=LIST
// LIST: .entry __gpuad_fwd__Z8onlyMainPd(
// LIST-NOT: .entry __gpuad_{{.*}}direct
// Without the frontend plugin (plain clang with the pass plugin): every
// kernel.
// RUN: %clangxx -x cuda --cuda-path=/usr/local/cuda -Wno-unknown-cuda-version --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o - -I%gpuad-src/include -fpass-plugin=%plugin | FileCheck %s --check-prefix=ALL

#include <gpuad/gpuad.h>

__global__ void direct(double *x) { x[threadIdx.x] *= x[threadIdx.x]; }
__global__ void helper(double *x) { x[threadIdx.x] = sin(x[threadIdx.x]); }
__global__ void local(double *x) { x[threadIdx.x] += 1; }
__global__ void onlyMain(double *x) { x[threadIdx.x] *= 2; }

__device__ double sq(double v) { return v * v; }
__global__ void requests(double *x) {
  x[threadIdx.x] = __enzyme_autodiff<double>((void *)sq, x[threadIdx.x]);
}

void launchHelper(double *x) { helper<<<1, 32>>>(x); }

void first(double *x) {
  direct<<<1, 32>>>(x);
  launchHelper(x);
}
void second(double *x) { local<<<1, 32>>>(x); }

int main() {
  double *x = nullptr, *dx = nullptr;
  onlyMain<<<1, 32>>>(x);
  requests<<<1, 32>>>(x);
  __enzyme_autodiff<void>((void *)first, enzyme_dup, x, dx);
  void *fn = (void *)second;
  __enzyme_autodiff<void>(fn, enzyme_dup, x, dx);
  return 0;
}
