// An argument passed as enzyme_const whose memory carries derivatives inside
// the call: a recurrence keeps its state there (written, then read back), as
// ADBench's LSTM does with `state`, and a pointer chooses between the state
// and differentiated memory (a PHI of the two).  gpuad gives the argument a
// zeroed scratch shadow sized by the bytes the function reaches through it
// (its own derivative is dropped, as enzyme_const asks); every derivative
// that flows through the state is kept.  Reverse and forward mode against
// central differences (the state restored before each evaluation) and the
// dot-product test, at -O0 to -O3.  (Without a shadow for the state, the
// derivative would be zero wherever the state is on the path.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O2 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <string.h>

#define N 4
#define T 5
#define NW (2 * N)

// state[0..N) is the hidden vector, state[N..2N) a copy of the last
// prediction; out receives the final prediction, loss its squared norm.
// (64-bit indices: at -O0 an int index's arithmetic may wrap as far as the
// range analysis can tell, and the scratch shadow could not be sized.)
void recur(const double *w, double *state, const double *input, double *out,
           double *loss, long n, long steps) {
  double *pred = out;
  const double *x = input;
  for (long t = 0; t < steps; ++t) {
    for (long i = 0; i < n; ++i)
      state[i] = tanh(w[i] * state[i] + w[n + i] * x[i]);
    for (long i = 0; i < n; ++i)
      pred[i] = state[i] * w[i] + 0.5 * w[n + i];
    // The next step's input: the prediction in the state's second half on
    // even steps, the output buffer on odd ones (a pointer into either).
    if (t % 2 == 0) {
      for (long i = 0; i < n; ++i)
        state[n + i] = pred[i];
      x = &state[n];
    } else {
      x = pred;
    }
  }
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += out[i] * out[i];
  *loss = s;
}

static double state0[2 * N], input[N];

static void run(double *x, double *y, void *ctx) {
  double state[2 * N], out[N];
  memcpy(state, state0, sizeof state);
  recur(x, state, input, out, &y[N], N, T);
  for (int i = 0; i < N; ++i)
    y[i] = out[i];
}

int main(void) {
  double w[NW], dw[NW] = {0}, v[NW], tw[NW];
  double wbar[N + 1] = {0.4, -0.2, 0.3, 0.1, 0.7};
  for (int i = 0; i < NW; ++i) {
    w[i] = 0.3 + 0.1 * sin(i + 1.0);
    v[i] = 0.2 * cos(i + 0.3);
  }
  for (int i = 0; i < 2 * N; ++i)
    state0[i] = 0.1 * (i % 3);
  for (int i = 0; i < N; ++i)
    input[i] = 0.5 - 0.2 * i;

  double state[2 * N], out[N], dout[N], loss, dloss = wbar[N];
  memcpy(state, state0, sizeof state);
  for (int i = 0; i < N; ++i)
    dout[i] = wbar[i];
  __enzyme_autodiff((void *)recur, enzyme_dup, w, dw, enzyme_const, state,
                    enzyme_const, input, enzyme_dup, out, dout, enzyme_dup,
                    &loss, &dloss, enzyme_const, (long)N, enzyme_const, (long)T);
  gc_check_vjp("const state, reverse", run, w, NW, N + 1, NULL, wbar, dw);

  double tout[N] = {0}, tloss = 0;
  memcpy(tw, v, sizeof tw);
  memcpy(state, state0, sizeof state);
  __enzyme_fwddiff((void *)recur, enzyme_dup, w, tw, enzyme_const, state,
                   enzyme_const, input, enzyme_dup, out, tout, enzyme_dup,
                   &loss, &tloss, enzyme_const, (long)N, enzyme_const, (long)T);
  double jv[N + 1];
  for (int i = 0; i < N; ++i)
    jv[i] = tout[i];
  jv[N] = tloss;
  gc_check_dot("const state", v, dw, NW, jv, wbar, N + 1);
  return gradcheck_exit();
}
