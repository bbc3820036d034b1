// Globals reached through pointers held in other globals: a pointer
// global initialised with a global's address (`double *gp = &g;`), a
// struct whose field points at a global, a constant table of pointers to
// globals, a pointer global the differentiated code points at its own
// local, and a pointer the program set to heap memory together with the
// shadow it gives (`state_shadow`, Enzyme's naming).  A noinline callee
// writes through the pointer and another reads back, by name or through
// the pointer.  None of the writes names the global it writes, so each
// global's shadow must be found through the pointer's.  (Before, every
// function decided the calls touched no global carrying derivatives and
// d/dx was silently 0.)  Reverse against central differences, the
// dot-product test against forward mode, at -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <stdlib.h>

#define N 2
#define NOINLINE __attribute__((noinline))

double g;
double *gp = &g;

double h;
struct Holder {
  int n;
  double *p;
} holder = {1, &h};

double a, b;
double *const pair[2] = {&a, &b};

double *local_view;

double *state, *state_shadow;

NOINLINE void set_g(double x) { *gp = x * x; }
NOINLINE double get_g(void) { return 3 * g; }

NOINLINE void set_h(double x) { *holder.p = sin(x); }
NOINLINE double get_h(void) { return h * h; }

NOINLINE void set_pair(int i, double x) { *pair[i] = x * (i + 2); }
NOINLINE double get_pair(void) { return a * b; }

NOINLINE void set_view(double x) { local_view[1] = exp(x); }
NOINLINE double get_view(void) { return 2 * *gp * local_view[1]; }

NOINLINE void set_state(double x, double y) {
  state[0] = x * y;
  state[3] = y;
}
NOINLINE double get_state(void) { return state[0] * state[3]; }

double model(const double *x) {
  double mine[2] = {0, 0};
  local_view = mine;
  set_g(x[0]);
  set_h(x[1]);
  set_pair(0, x[0]);
  set_pair(1, x[1]);
  set_view(x[1]);
  set_state(x[0], x[1]);
  return get_g() + get_h() + get_pair() + get_view() + get_state();
}

static void run(double *x, double *y, void *ctx) { y[0] = model(x); }

int main(void) {
  state = malloc(4 * sizeof(double));
  state_shadow = calloc(4, sizeof(double));
  double x[N] = {0.7, -0.4}, dx[N] = {0}, v[N] = {0.3, -0.8};
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v);
  // The program's own shadow keeps what forward mode left: zero it, as a
  // reused dup shadow.
  for (int i = 0; i < 4; ++i)
    state_shadow[i] = 0;
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("globals through pointers, reverse", run, x, N, 1, NULL, w, dx);
  gc_check_dot("globals through pointers", v, dx, N, &jv, w, 1);
  free(state);
  free(state_shadow);
  return gradcheck_exit();
}
