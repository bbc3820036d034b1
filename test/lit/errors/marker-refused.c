// Enzyme's markers that gpuad does not implement: each an error that names
// it and says why (never ignored), and __enzyme_batch's markers outside a
// batch call.
// RUN: not %gpuad-cc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

#include <gpuad/gpuad.h>

extern int enzyme_interleave, enzyme_byref, enzyme_nofree,
    enzyme_runtime_activity, enzyme_strong_zero, enzyme_trace;

double f(double *x) { return x[0] * x[0]; }

double use(double *x, double *dx) {
  double s = 0;
  // CHECK: error: gpuad: marker 'enzyme_interleave' is not supported here: pass each shadow right after its primal (enzyme_dup, x, dx)
  s += __enzyme_autodiff((void *)f, x, enzyme_interleave, dx);
  // CHECK: error: gpuad: marker 'enzyme_byref' is not supported here: pass the value itself
  s += __enzyme_autodiff((void *)f, enzyme_byref, 8, x, dx);
  // CHECK: error: gpuad: marker 'enzyme_nofree' is not supported here: gpuad's split halves free what they allocate
  s += __enzyme_autodiff((void *)f, enzyme_nofree, x, dx);
  // CHECK: error: gpuad: marker 'enzyme_runtime_activity' is not supported here: gpuad decides activity at compile time
  s += __enzyme_autodiff((void *)f, enzyme_runtime_activity, x, dx);
  // CHECK: error: gpuad: marker 'enzyme_strong_zero' is not supported here: gpuad does not implement strong zeros
  s += __enzyme_fwddiff((void *)f, enzyme_strong_zero, x, dx);
  // CHECK: error: gpuad: marker 'enzyme_trace' is not supported here: gpuad does not implement Enzyme's probabilistic programming
  s += __enzyme_autodiff((void *)f, enzyme_trace, x, dx);
  // CHECK: error: gpuad: marker 'enzyme_scalar' is not supported here: it applies to __enzyme_batch only
  s += __enzyme_autodiff((void *)f, enzyme_scalar, x);
  return s;
}
