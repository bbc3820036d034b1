// More of CUDA's math API in differentiated __device__ functions, beyond the
// basic set in math-double.cu/math-float.cu: sincos/sincospi (two results
// through pointers), sinpi/cospi, ldexp/scalbn/frexp/modf (exponent and
// integer-part handling), fdim, remainder, erfinv/erfcinv, normcdf/normcdfinv,
// rhypot, norm3d, rcbrt.  All are differentiable almost everywhere with
// derivatives in terms of libdevice functions, so they need rules (DESIGN
// section 4: __nv_* are differentiated by rule, not through their bodies,
// which use bit tricks and inline PTX).
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
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

// ---- double ----------------------------------------------------------------
__device__ double trig_pairs(double x) {
  double s, c, sp, cp;
  sincos(x, &s, &c);
  sincospi(x, &sp, &cp);
  return s * c + sp * cp + sinpi(x) + cospi(x);
}

__device__ double exponent_parts(double x) {
  int e;
  double m = frexp(x, &e);
  double ip;
  double fp = modf(x, &ip);
  return ldexp(m, 3) + scalbn(x, -2) + fp + m * e;
}

__device__ double piecewise(double x, double y) {
  return fdim(x, y) + remainder(x, y);
}

__device__ double special(double x) {
  return erfinv(x) + erfcinv(1.0 - x) + normcdf(x) + normcdfinv(0.5 + 0.25 * x);
}

__device__ double norms(double x, double y) {
  return rhypot(x, y) + norm3d(x, y, 1.0) + rcbrt(x);
}

// ---- float -----------------------------------------------------------------
__device__ float trig_pairsf(float x) {
  float s, c, sp, cp;
  sincosf(x, &s, &c);
  sincospif(x, &sp, &cp);
  return s * c + sp * cp + sinpif(x) + cospif(x);
}

__device__ float exponent_partsf(float x) {
  int e;
  float m = frexpf(x, &e);
  float ip;
  float fp = modff(x, &ip);
  return ldexpf(m, 3) + scalbnf(x, -2) + fp + m * e;
}

__device__ float piecewisef(float x, float y) {
  return fdimf(x, y) + remainderf(x, y);
}

__device__ float specialf(float x) {
  return erfinvf(x) + erfcinvf(1.0f - x) + normcdff(x) +
         normcdfinvf(0.5f + 0.25f * x);
}

__device__ float normsf(float x, float y) {
  return rhypotf(x, y) + norm3df(x, y, 1.0f) + rcbrtf(x);
}

__global__ void math_extra(const double *x, const double *y, const float *xf,
                           const float *yf, double *d, float *df, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i], w = y[i];
  float vf = xf[i], wf = yf[i];
  d[5 * i + 0] = __enzyme_fwddiff<double>((void *)trig_pairs, enzyme_dup, v, 1.0);
  d[5 * i + 1] =
      __enzyme_fwddiff<double>((void *)exponent_parts, enzyme_dup, v, 1.0);
  d[5 * i + 2] = __enzyme_fwddiff<double>((void *)piecewise, enzyme_dup, v, 1.0,
                                          enzyme_dup, w, 1.0);
  d[5 * i + 3] = __enzyme_fwddiff<double>((void *)special, enzyme_dup, v, 1.0);
  d[5 * i + 4] = __enzyme_fwddiff<double>((void *)norms, enzyme_dup, v, 1.0,
                                          enzyme_dup, w, 1.0);
  df[5 * i + 0] =
      __enzyme_fwddiff<float>((void *)trig_pairsf, enzyme_dup, vf, 1.0f);
  df[5 * i + 1] =
      __enzyme_fwddiff<float>((void *)exponent_partsf, enzyme_dup, vf, 1.0f);
  df[5 * i + 2] = __enzyme_fwddiff<float>((void *)piecewisef, enzyme_dup, vf,
                                          1.0f, enzyme_dup, wf, 1.0f);
  df[5 * i + 3] =
      __enzyme_fwddiff<float>((void *)specialf, enzyme_dup, vf, 1.0f);
  df[5 * i + 4] = __enzyme_fwddiff<float>((void *)normsf, enzyme_dup, vf, 1.0f,
                                          enzyme_dup, wf, 1.0f);
}

// CHECK: .entry {{.*}}math_extra

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
