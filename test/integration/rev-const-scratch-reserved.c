// An argument passed as enzyme_const whose memory carries derivatives, at
// offsets no static analysis bounds: the layers of an LSTM-like recurrence
// keep their state at `int` offsets stepped by a run-time stride (ADBench's
// lstm), written by a callee that is not inlined, and a slot table read
// from memory picks where a value is parked and read back.  The host
// derivative reserves address space for the argument's shadow (committed,
// zeroed, page by page); every derivative that flows through the state is
// kept.  Reverse and forward mode against central differences (the state
// restored before each evaluation) and the dot-product test, at -O0 to -O3,
// and under valgrind (which limits the address space a reservation takes).
// (With the derivative through the state dropped, every parameter but the
// output layer's would be wrong.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O2 %}
// With a tape budget: the time loop cannot be checkpointed (it reads through
// pointers it computes), and keeps the derivative it had.
// RUN: %gpuad-cc -O0 -mllvm -gpuad-tape-budget=1 %itest-flags %s -o %t.budget -lm && %t.budget

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <string.h>

#define B 3      /* hidden size */
#define LAYERS 2
#define STEPS 4
#define NW (LAYERS * 2 * B + 2 * B) /* per layer: input and recurrent weights */
#define NS (LAYERS * 2 * B + 1)     /* per layer: hidden and cell; a park slot */

static double gate_out(double c) { return tanh(c) * 0.9; }

// One layer's step: hidden and cell live in the state, `in` is the input.
__attribute__((noinline)) void cell_step(int b, const double *w,
                                         double *hidden, double *cell,
                                         const double *in) {
  for (int i = 0; i < b; ++i) {
    double gate = 1.0 / (1.0 + exp(-(w[i] * in[i])));
    cell[i] = cell[i] * gate + tanh(w[b + i] * hidden[i]);
  }
  for (int i = 0; i < b; ++i)
    hidden[i] = gate_out(cell[i]);
}

void model(int layers, int b, int steps, const double *w, double *state,
           const double *seq, const int *park, double *loss) {
  double total = 0.0;
  const double *in = seq;
  for (int t = 0; t < steps * b; t += b) {
    const double *x = in;
    for (int i = 0; i <= 2 * layers * b - 1; i += 2 * b) {
      cell_step(b, &w[i], &state[i], &state[i + b], x);
      x = &state[i];
    }
    // Park the first hidden value where the table says, and read it back.
    state[park[t / b]] = x[0] * x[0];
    for (int i = 0; i < b; ++i)
      total += x[i] * w[2 * layers * b + i] + state[park[t / b]] *
                                                  w[2 * layers * b + b + i];
    in = &seq[t + b];
  }
  *loss = total;
}

static double state0[NS], seq[(STEPS + 1) * B];
static const int park[STEPS] = {NS - 1, NS - 1, NS - 1, NS - 1};

static void run(double *x, double *y, void *ctx) {
  double state[NS];
  memcpy(state, state0, sizeof state);
  model(LAYERS, B, STEPS, x, state, seq, park, y);
}

int main(void) {
  double w[NW], dw[NW] = {0}, v[NW], tw[NW];
  for (int i = 0; i < NW; ++i) {
    w[i] = 0.4 * sin(i + 1.0);
    v[i] = 0.3 * cos(i + 0.2);
  }
  for (int i = 0; i < NS; ++i)
    state0[i] = 0.05 * (i % 4);
  for (int i = 0; i < (STEPS + 1) * B; ++i)
    seq[i] = 0.3 * sin(0.7 * i);

  double state[NS], loss = 0, dloss = 1.0;
  memcpy(state, state0, sizeof state);
  __enzyme_autodiff((void *)model, enzyme_const, LAYERS, enzyme_const, B,
                    enzyme_const, STEPS, enzyme_dup, w, dw, enzyme_const,
                    state, enzyme_const, seq, enzyme_const, park,
                    enzyme_dupnoneed, &loss, &dloss);
  double wbar[1] = {1.0};
  gc_check_vjp("reserved state, reverse", run, w, NW, 1, NULL, wbar, dw);

  double tloss = 0;
  memcpy(tw, v, sizeof tw);
  memcpy(state, state0, sizeof state);
  __enzyme_fwddiff((void *)model, enzyme_const, LAYERS, enzyme_const, B,
                   enzyme_const, STEPS, enzyme_dup, w, tw, enzyme_const, state,
                   enzyme_const, seq, enzyme_const, park, enzyme_dup, &loss,
                   &tloss);
  gc_check_dot("reserved state", v, dw, NW, &tloss, wbar, 1);
  return gradcheck_exit();
}
