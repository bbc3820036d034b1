// Thrust calls from differentiated host code that gpuad cannot run as its
// map kernels (host-thrust.cu shows those it can) are errors at the user's
// call naming the algorithm and why, in reverse and forward mode, with -g
// at -O2 and at -O0: an algorithm it has no map kernel for (its kernels are
// the library's own), a reduction that is not a sum, a policy with a
// stream, a functor it cannot pass (a union inside), and an operator() that
// converts the elements.  The same algorithms inside device code (a functor
// differentiated per element) work: thrust.cu.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+29]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::inclusive_scan': of the algorithms of Thrust, CUB and rocPRIM called from host code, gpuad differentiates thrust::transform, for_each, reduce and transform_reduce on device data
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+32]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::reduce': it reduces with 'thrust::maximum<double>' (gpuad differentiates sums: thrust::plus)
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+36]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::transform': its execution policy names a stream (thrust::cuda::par.on); gpuad supports thrust::device
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+39]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::for_each': gpuad cannot pass its functor 'Tagged': it holds a union
// CHECK-DAG: host-thrust-error.cu:[[#@LINE+42]]:{{[0-9]+}}: error: gpuad: cannot differentiate 'thrust::transform': its operator() takes 'float' for elements of type 'double'

#include <gpuad/gpuad.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

struct Square {
  __host__ __device__ double operator()(double v) const { return v * v; }
};
struct Tagged {
  union {
    double scale;
    long bits;
  };
  __host__ __device__ void operator()(double &v) const { v *= scale; }
};
struct Narrow {
  __host__ __device__ double operator()(float v) const { return v * v; }
};

void scan(double *d, int n) {
  thrust::inclusive_scan(thrust::device, d, d + n, d);
}

double largest(double *d, int n) {
  return thrust::reduce(thrust::device, d, d + n, 0.0,
                        thrust::maximum<double>());
}

void squares(double *d, int n, cudaStream_t s) {
  thrust::transform(thrust::cuda::par.on(s), d, d + n, d, Square());
}

void scale(double *d, int n) {
  thrust::for_each(thrust::device, d, d + n, Tagged{{2.0}});
}

void narrow(double *d, int n) {
  thrust::transform(thrust::device, d, d + n, d, Narrow());
}

void grads(double *d, double *dd, int n, cudaStream_t s) {
  __enzyme_autodiff<void>((void *)scan, enzyme_dup, d, dd, enzyme_const, n);
  __enzyme_autodiff<void>((void *)largest, enzyme_dup, d, dd, enzyme_const,
                          n);
  __enzyme_fwddiff<void>((void *)squares, enzyme_dup, d, dd, enzyme_const, n,
                         enzyme_const, s);
  __enzyme_autodiff<void>((void *)scale, enzyme_dup, d, dd, enzyme_const, n);
  __enzyme_autodiff<void>((void *)narrow, enzyme_dup, d, dd, enzyme_const, n);
}
