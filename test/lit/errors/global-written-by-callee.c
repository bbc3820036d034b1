// A global that a callee writes with a value carrying a derivative, and only
// the caller reads: the caller's analysis must see that the call varies the
// global (taken for a constant, d/dx would come out 0; 6 is right).  The
// global then needs a shadow the callee cannot see: an error.
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: global variable 'g' carries derivatives, and the call '{{.*}}@set{{.*}}' may read or write globals

#include <gpuad/gpuad.h>

double g;
__attribute__((noinline)) void set(double x) { g = x * x; }
double f(double x) {
  set(x);
  return g;
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
