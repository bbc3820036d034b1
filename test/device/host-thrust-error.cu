// Thrust algorithms called on device data from differentiated host code
// launch the library's own kernels, whose derivatives gpuad does not make:
// each is an error at the user's call naming the algorithm (with -g at
// -O2, where the algorithm is inlined, and at -O0, where it is called), in
// reverse and forward mode.  The same algorithms inside device code (a
// functor differentiated per element) work: thrust.cu.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+22]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::transform_reduce': gpuad does not differentiate the algorithms of Thrust, CUB or rocPRIM called from host code
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+26]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::reduce':
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+29]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::transform':
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+32]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::for_each':

#include <gpuad/gpuad.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

struct Square {
  __host__ __device__ double operator()(double v) const { return v * v; }
};
struct Scale {
  double *p;
  __host__ __device__ void operator()(double &v) const { v *= *p; }
};

double sumOfSquares(double *d, int n) {
  return thrust::transform_reduce(thrust::device, d, d + n, Square(), 0.0,
                                  thrust::plus<double>());
}

double sum(double *d, int n) {
  return thrust::reduce(thrust::device, d, d + n);
}

void squares(double *d, int n) {
  thrust::transform(thrust::device, d, d + n, d, Square());
}

void scale(double *d, double *k, int n) {
  thrust::for_each(thrust::device, d, d + n, Scale{k});
}

void grads(double *d, double *dd, double *k, double *dk, int n) {
  __enzyme_autodiff<void>((void *)sumOfSquares, enzyme_dup, d, dd,
                          enzyme_const, n);
  __enzyme_autodiff<void>((void *)sum, enzyme_dup, d, dd, enzyme_const, n);
  __enzyme_fwddiff<void>((void *)squares, enzyme_dup, d, dd, enzyme_const, n);
  __enzyme_autodiff<void>((void *)scale, enzyme_dup, d, dd, enzyme_dup, k, dk,
                          enzyme_const, n);
}
