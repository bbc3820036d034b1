// Globals reached through accessor functions that return their address:
// `state()` returns a static buffer, `row(i)` a row of a static table.
// f writes through one call's result and reads back through another's;
// each call's result is the global's memory in the caller too, so the
// write and the read meet in one shadow.  (At -O0, where the accessors
// are calls, each result had memory of its own: the write's derivative
// went nowhere and d/dx was silently 0.)  Reverse against central
// differences, the dot-product test against forward mode, -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

#define N 2

static double buffer[4];
static double table[3][2];

__attribute__((noinline)) static double *state(void) { return buffer; }
__attribute__((noinline)) static double *row(int i) { return table[i]; }

double model(const double *x) {
  state()[0] = x[0] * x[1];
  state()[1] = sin(x[0]);
  for (int i = 0; i < 3; ++i) {
    row(i)[0] = x[1] * (i + 1);
    row(i)[1] = state()[0] + i;
  }
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += row(i)[0] * row(i)[1];
  return s + state()[1] * state()[0];
}

static void run(double *x, double *y, void *ctx) { y[0] = model(x); }

int main(void) {
  double x[N] = {0.7, -0.4}, dx[N] = {0}, v[N] = {0.3, -0.8};
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("globals through accessors, reverse", run, x, N, 1, NULL, w,
               dx);
  gc_check_dot("globals through accessors", v, dx, N, &jv, w, 1);
  return gradcheck_exit();
}
