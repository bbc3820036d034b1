// __shared__ memory that carries derivatives where gpuad cannot (yet) give
// its shadow a safe start: a clear error naming the variable, never a wrong
// derivative.
//   -DNOBARRIER  the function has no __syncthreads, so the block cannot
//                zero the shadow together;
//   -DDYNAMIC    extern (dynamic) shared memory at batch width 2: its
//                shadow is the launch's second half, room for one lane.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O0 -c -DNOBARRIER %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBARRIER --implicit-check-not="error in backend"
// RUN: not %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -c -DDYNAMIC %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not="error in backend"
// NOBARRIER: error: gpuad: __shared__ variable '_ZZ{{.*}}E4slot' carries derivatives, but the function has no __syncthreads
// DYNAMIC: error: gpuad: dynamic (extern) __shared__ memory 'dyn' carries derivatives at width 2: not supported

#include <gpuad/gpuad.h>

#ifdef NOBARRIER
__device__ double own_slot(const double *x) {
  __shared__ double slot[64];
  slot[threadIdx.x] = x[threadIdx.x] * x[threadIdx.x];
  return slot[threadIdx.x % 64]; // the same slot, not provably
}
__global__ void grad(const double *x, double *dx) {
  __enzyme_autodiff<void>((void *)own_slot, enzyme_dup, x, dx);
}
#endif


#ifdef DYNAMIC
__device__ double from_dynamic(const double *x) {
  extern __shared__ double dyn[];
  dyn[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  return dyn[(threadIdx.x + 1) % blockDim.x] * x[threadIdx.x];
}
__global__ void grad(const double *x, double *dx) {
  __enzyme_fwddiff<double>((void *)from_dynamic, enzyme_width, 2,
                           enzyme_dupv, sizeof(double) * blockDim.x, x, dx);
}
#endif
