// An argument passed as enzyme_const that a callee writes (values that
// carry derivatives) and the caller reads back: the evidence that the
// memory carries derivatives is in the callee's summary, not in the
// caller's own stores.  The callee is not inlined at any level, and at -O0
// nothing is; the caller gives the argument a scratch shadow (reserved
// address space: the callee's extent is not analysed), so the derivative
// through the state is kept.  Reverse and forward mode against central
// differences (the state restored before each evaluation) and the
// dot-product test, at -O0 to -O3, and under valgrind.  (With the state's
// derivative dropped, d/dw0 would miss the 2 w0 w1 path through it.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O2 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <string.h>

#define N 3

// Writes the state from the weights; returns nothing the caller uses.
__attribute__((noinline)) void advance(const double *w, double *state,
                                       int n) {
  for (int i = 0; i < n; ++i)
    state[i] = sin(w[i]) * w[(i + 1) % n] + state[i];
}

// Reads back what advance wrote: the only store to the state is the
// callee's.
void model(const double *w, double *state, double *out, int n) {
  advance(w, state, n);
  advance(w, state, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += state[i] * w[i];
  *out = s;
}

static double state0[N];

static void run(double *x, double *y, void *ctx) {
  double state[N];
  memcpy(state, state0, sizeof state);
  model(x, state, y, N);
}

int main(void) {
  double w[N], dw[N] = {0}, v[N], tw[N];
  for (int i = 0; i < N; ++i) {
    w[i] = 0.5 + 0.3 * sin(i + 1.0);
    v[i] = 0.4 * cos(i + 0.6);
    state0[i] = 0.1 * (i + 1);
  }
  double state[N], out = 0, dout = 1.0;
  memcpy(state, state0, sizeof state);
  __enzyme_autodiff((void *)model, enzyme_dup, w, dw, enzyme_const, state,
                    enzyme_dupnoneed, &out, &dout, enzyme_const, N);
  double wbar[1] = {1.0};
  gc_check_vjp("callee-written const state, reverse", run, w, N, 1, NULL,
               wbar, dw);

  double tout = 0;
  memcpy(tw, v, sizeof tw);
  memcpy(state, state0, sizeof state);
  __enzyme_fwddiff((void *)model, enzyme_dup, w, tw, enzyme_const, state,
                   enzyme_dup, &out, &tout, enzyme_const, N);
  gc_check_dot("callee-written const state", v, dw, N, &tout, wbar, 1);
  return gradcheck_exit();
}
