// HIP: double and float math through ocml in differentiated functions, at
// every level.  The first kernel uses every covered function; the file is
// also compiled with -DONLY_MISSING, which keeps only functions whose
// derivatives need ocml functions the source never calls (sin needs cos,
// sinh needs cosh, pow with an active exponent needs log, erf and expm1 need
// exp, asin needs sqrt; likewise for float).  clang links ocml before the
// pipeline and drops what is unused, so the pass must supply those bodies:
// the IR must not declare an __ocml_* function without defining it, and lld
// must link the code object.  A third configuration, -DCONST_ARGS, calls the
// two-argument functions only with a constant second (or first) argument: at
// -O2 the pipeline may specialise the internal __ocml_* function on that
// constant before gpuad sees it, and the derivative must still be right.
// (The fast intrinsics are in fast-intrinsics.hip.)
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
//
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -S %s -o %t.m.O0.s
// RUN: FileCheck %s --input-file=%t.m.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O0.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -c %s -o %t.m.O0.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -S %s -o %t.m.O2.s
// RUN: FileCheck %s --input-file=%t.m.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O2.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -c %s -o %t.m.O2.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O3 -S %s -o %t.m.O3.s
// RUN: FileCheck %s --input-file=%t.m.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.m.O3.s
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O3 -c %s -o %t.m.O3.o
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.m.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O0.ll
// RUN: %gpuad-cc -DONLY_MISSING -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.m.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.m.O2.ll
//
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -S %s -o %t.fast.s
// RUN: FileCheck %s --check-prefixes=CHECK,ALL --input-file=%t.fast.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.fast.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -ffast-math -c %s -o %t.fast.o
//
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O0 -S %s -o %t.c.O0.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O0.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O0 -c %s -o %t.c.O0.o
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O2 -S %s -o %t.c.O2.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O2.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O2 -c %s -o %t.c.O2.o
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O3 -S %s -o %t.c.O3.s
// RUN: FileCheck %s --check-prefix=CONST --input-file=%t.c.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.c.O3.s
// RUN: %gpuad-cc -DCONST_ARGS -x hip --cuda-device-only -O3 -c %s -o %t.c.O3.o
//
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

#if defined(CONST_ARGS)
// Every call to pow/atan2/hypot/fmod has the same constant operand.
__device__ double const_args(double x) {
  return pow(x, 2.5) + atan2(x, 2.0) + hypot(x, 3.0) + fmod(x, 3.0);
}
__device__ float const_argsf(float x) {
  return powf(2.0f, x) + atan2f(x, 2.0f) + hypotf(x, 3.0f) + fmodf(x, 3.0f);
}
__global__ void math_const_args_hip(const double *x, const float *xf,
                                    double *d, float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)const_args, enzyme_dup, x[i], 1.0);
  df[i] = __enzyme_fwddiff<float>((void *)const_argsf, enzyme_dup, xf[i], 1.0f);
}
// CONST: .amdhsa_kernel {{.*}}math_const_args_hip
#else

#ifndef ONLY_MISSING
__device__ double all_math(double x) {
  double a = sin(x) + cos(x);
  double b = exp(x) * log(x);
  double c = pow(x, 2.5) + sqrt(x);
  double d = tanh(x) - erf(x);
  double e = atan2(x, 1.0 + x * x);
  double f = fmin(x, 0.5) + fmax(x, 0.25) + fabs(x - 1.0);
  return a + b + c + d + e + f;
}

__device__ float all_mathf(float x) {
  float a = sinf(x) + cosf(x) + expf(x) * logf(x) + powf(x, 2.5f) + sqrtf(x);
  float b = tanhf(x) - erff(x) + atan2f(x, 1.0f + x * x);
  return a + b + fminf(x, 0.5f) + fmaxf(x, 0.25f) + fabsf(x - 1.0f);
}

__global__ void math_all_hip(const double *x, const float *xf, double *d,
                             float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)all_math, enzyme_dup, x[i], 1.0);
  df[i] = __enzyme_fwddiff<float>((void *)all_mathf, enzyme_dup, xf[i], 1.0f);
}
// ALL: .amdhsa_kernel {{.*}}math_all_hip
#endif

__device__ double missing(double x, double y) {
  return sin(x) + sinh(x) * pow(x, y) - erf(y) + expm1(x) * asin(y);
}

__device__ float missingf(float x, float y) {
  return sinf(x) + sinhf(x) * powf(x, y) - erff(y) + expm1f(x) * asinf(y);
}

__global__ void math_missing_hip(const double *x, const double *y,
                                 const float *xf, const float *yf, double *d,
                                 float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = __enzyme_fwddiff<double>((void *)missing, enzyme_dup, x[i], 1.0,
                                  enzyme_dup, y[i], 0.5);
  df[i] = __enzyme_fwddiff<float>((void *)missingf, enzyme_dup, xf[i], 1.0f,
                                  enzyme_dup, yf[i], 0.5f);
}

// CHECK: .amdhsa_kernel {{.*}}math_missing_hip
#endif

// NOSYM-NOT: enzyme

// IR-NOT: declare {{.*}} @__ocml_
// IR-NOT: declare {{.*}} @cos(
// IR-NOT: declare {{.*}} @cosh(
// IR-NOT: declare {{.*}} @log(
// IR-NOT: declare {{.*}} @exp(
// IR-NOT: declare {{.*}} @cosf(
// IR-NOT: declare {{.*}} @logf(
