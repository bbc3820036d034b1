// A global a noinline callee writes twice, read back between the writes,
// in a function with an early return.  The reverse sweep needs the value
// the first read saw; the second call overwrites it, so the value must be
// kept, not loaded again in the reverse sweep.  (gpuad took calls to write
// only through their arguments, reloaded the global, and got the second
// write's value: every gradient here was off by up to 2%, silently.  Found
// by the fuzzer, host seed 9114.)  Reverse against central differences,
// the dot-product test against forward mode, at -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

#define N 5

static double slot[2];
static double *view = slot;

__attribute__((noinline)) static void put(int k, double v) {
  slot[k] = v * sin(v);
}
// The same write through a pointer another global holds.
__attribute__((noinline)) static void put_view(int k, double v) {
  view[k] = v * cos(v);
}

double model(const double *x0) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  if (x[2] * x[3] * x[3] > 100)
    return cos(x[4]);
  put(0, tanh(x[3] + x[0]));
  x[3] += slot[0] * 0.5;
  put(0, erf(x[3] - x[1]));
  x[4] += slot[0] * 0.5;
  put_view(1, x[4] * x[2]);
  x[2] += slot[1];
  put_view(1, sin(x[2]));
  return x[0] + x[3] * x[4] + slot[1] * x[2];
}

static void run(double *x, double *y, void *ctx) { y[0] = model(x); }

int main(void) {
  double x[N] = {0.3, -0.2, 0.5, 0.1, 0.4}, dx[N] = {0};
  double v[N] = {0.3, -0.8, 0.5, 0.2, -0.1};
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("global rewritten by a callee, reverse", run, x, N, 1, NULL, w,
               dx);
  gc_check_dot("global rewritten by a callee", v, dx, N, &jv, w, 1);
  return gradcheck_exit();
}
