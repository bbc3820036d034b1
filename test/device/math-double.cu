// Double-precision CUDA math in a differentiated __device__ function: every
// function the rules cover appears once.  Their derivatives reuse functions
// the source already calls (and a few it does not: erf needs exp, which is
// here; atan2 needs none; tanh's rule must not need a libm call).  ptxas
// accepting the PTX means no libdevice function was left undefined.  Also
// compiled with -ffast-math, and with -DCONST_ARGS, where every two-argument
// function is only ever called with the same constant operand (the pipeline
// may fold it into the callee before gpuad runs).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
// The IR after the pipeline: no libdevice declaration without a body.
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -ffast-math -S %s -o %t.fast.ptx
// RUN: %ptxas -arch=sm_90 %t.fast.ptx -o %t.fast.cubin
// RUN: FileCheck %s --input-file=%t.fast.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.fast.ptx
// RUN: %gpuad-cc -DCONST_ARGS --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.c.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.c.O0.ptx -o %t.c.O0.cubin
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O0.ptx
// RUN: %gpuad-cc -DCONST_ARGS --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.c.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.c.O2.ptx -o %t.c.O2.cubin
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O2.ptx
// RUN: %gpuad-cc -DCONST_ARGS --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.c.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.c.O3.ptx -o %t.c.O3.cubin
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O3.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

#ifdef CONST_ARGS
__device__ double const_args(double x) {
  return pow(x, 2.5) + atan2(x, 2.0) + hypot(x, 3.0) + fmod(x, 3.0) +
         pow(2.0f, (float)x);
}
__global__ void math_const_args(const double *x, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)const_args, enzyme_dup, x[i], 1.0);
}
// CONST: .entry {{.*}}math_const_args
#else

__device__ double all_math(double x) {
  double a = sin(x) + cos(x);
  double b = exp(x) * log(x);
  double c = pow(x, 2.5) + sqrt(x);
  double d = tanh(x) - erf(x);
  double e = atan2(x, 1.0 + x * x);
  double f = fmin(x, 0.5) + fmax(x, 0.25) + fabs(x - 1.0);
  return a + b + c + d + e + f;
}

// Two active arguments: pow and atan2 differentiate in both.
__device__ double two_args(double x, double y) {
  return pow(x, y) + atan2(y, x) + fmax(x, y) * fmin(x, y) + hypot(x, y);
}

__global__ void math_double(const double *x, const double *dx, double *dy,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dy[i] = __enzyme_fwddiff<double>((void *)all_math, enzyme_dup, x[i], dx[i]);
}

__global__ void math_double_two(const double *x, const double *y, double *dx,
                                double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // d/dx with y constant, then the full directional derivative.
    dx[i] = __enzyme_fwddiff<double>((void *)two_args, enzyme_dup, x[i], 1.0,
                                     enzyme_const, y[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)two_args, enzyme_dup, x[i], 1.0,
                                     enzyme_dup, y[i], 1.0);
  }
}

#endif

// CHECK-DAG: .entry _Z11math_doublePKd
// CHECK-DAG: .entry {{.*}}math_double_two

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// IR-NOT: declare {{.*}} @__nv_
// IR-NOT: call {{.*}} @cos(
// IR-NOT: call {{.*}} @sin(
// IR-NOT: call {{.*}} @log(
// IR-NOT: call {{.*}} @exp(
// IR-NOT: @llvm.cos.f64
// IR-NOT: @llvm.sin.f64
// IR-NOT: @llvm.log.f64
// IR-NOT: @llvm.exp.f64
// IR-NOT: @llvm.pow.f64
