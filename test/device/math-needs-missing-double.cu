// Derivatives that need a libdevice function the source never calls.  clang
// links only the __nv_* functions the module uses, so the pass must supply
// the rest: sin needs cos, sinh needs cosh, pow (active exponent) needs log,
// erf and expm1 need exp, asin needs sqrt.  None of cos, cosh, log, exp or
// sqrt appears below.  The PTX must name no undefined function (ptxas would
// reject an unresolved `.extern .func`), and the IR must not fall back to a
// host libm call or an intrinsic NVPTX cannot select (llvm.cos.f64 ...).
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
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

__device__ double use_sin(double x) { return sin(x); }
__device__ double use_sinh(double x) { return sinh(x); }
__device__ double use_pow(double x, double y) { return pow(x, y); }
__device__ double use_erf(double x) { return erf(x); }
__device__ double use_expm1(double x) { return expm1(x); }
__device__ double use_asin(double x) { return asin(x); }

__global__ void missing_double(const double *x, const double *y, double *d,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i], w = y[i];
  d[6 * i + 0] = __enzyme_fwddiff<double>((void *)use_sin, enzyme_dup, v, 1.0);
  d[6 * i + 1] = __enzyme_fwddiff<double>((void *)use_sinh, enzyme_dup, v, 1.0);
  d[6 * i + 2] = __enzyme_fwddiff<double>((void *)use_pow, enzyme_dup, v, 0.5,
                                          enzyme_dup, w, 1.0);
  d[6 * i + 3] = __enzyme_fwddiff<double>((void *)use_erf, enzyme_dup, v, 1.0);
  d[6 * i + 4] = __enzyme_fwddiff<double>((void *)use_expm1, enzyme_dup, v, 1.0);
  d[6 * i + 5] = __enzyme_fwddiff<double>((void *)use_asin, enzyme_dup, v, 1.0);
}

// CHECK: .entry {{.*}}missing_double

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// IR-NOT: declare {{.*}} @__nv_
// IR-NOT: declare {{.*}} @cos(
// IR-NOT: declare {{.*}} @cosh(
// IR-NOT: declare {{.*}} @log(
// IR-NOT: declare {{.*}} @exp(
// IR-NOT: declare {{.*}} @sqrt(
// IR-NOT: @llvm.cos.f64
// IR-NOT: @llvm.cosh.f64
// IR-NOT: @llvm.log.f64
// IR-NOT: @llvm.exp.f64

