// Enzyme's custom derivative of a function pointer: the pointer's shadow
// points to a pair {augmented, reverse} written by hand (here with
// __enzyme_augmentfwd and __enzyme_reverse, or computing the derivative
// itself), which reverse mode calls in place of differentiating the
// function the pointer names.  A shadow that is the function itself keeps
// gpuad's own derivative.  Checked against the analytic gradient (the
// pairs are exact), by counting the pairs' calls (a pair that was not
// called would leave the gradient right for `square`), and with a pair
// whose rule differs from the function's derivative on purpose, so that
// only a call of the pair gives its answer.  Written as an Enzyme user
// writes it: no gpuad header.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gradcheck.h>
#include <math.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);

struct Model {
  double (*f)(double);          // a scalar map
  void (*update)(double *, double); // an update of a state in place
  double (*g)(double);          // a second map, differentiated by gpuad
  double val;
};

double square(double x) { return x * x; }
void scale_state(double *s, double k) {
  s[0] *= k;
  s[1] = s[1] * k + s[0];
}
double wave(double x) { return sin(x); }

// loss = f(val) * (state after update(state, val))[1] + g(val)
__attribute__((noinline)) double loss(struct Model *m, double *state) {
  double a = m->f(m->val);
  m->update(state, m->val);
  return a * state[1] + m->g(m->val);
}

// The pair of `square`, through Enzyme's split entry points.
typedef struct {
  void *tape;
  double result;
} TapeAndDouble;
TapeAndDouble __enzyme_augmentfwd(void *, double);
double __enzyme_reverse(void *, double, double, void *);
static int augmented_calls, reverse_calls;
TapeAndDouble square_augmented(double x) {
  ++augmented_calls;
  return __enzyme_augmentfwd((void *)square, x);
}
typedef struct {
  double dx;
} OneAdjoint;
OneAdjoint square_reverse(double x, double seed, void *tape) {
  ++reverse_calls;
  OneAdjoint r = {__enzyme_reverse((void *)square, x, seed, tape)};
  return r;
}
void *square_pair[2] = {(void *)square_augmented, (void *)square_reverse};

// The pair of `scale_state`, by hand: the tape keeps the state's old
// values; the rule claims twice the true adjoint of k (on purpose).
typedef struct {
  void *tape;
} TapeOnly;
TapeOnly scale_augmented(double *s, double *ds, double k) {
  (void)ds;
  double *old = (double *)malloc(2 * sizeof(double));
  old[0] = s[0];
  old[1] = s[1];
  ++augmented_calls;
  scale_state(s, k);
  TapeOnly t = {old};
  return t;
}
OneAdjoint scale_reverse(double *s, double *ds, double k, void *tape) {
  (void)s;
  double *old = (double *)tape;
  ++reverse_calls;
  // s1' = s1 k + s0 k: d/dk = s1 + s0 (old values)
  double d1 = ds[1];
  double dk = d1 * (old[1] + old[0]);
  ds[0] = ds[0] * k + d1 * k;
  ds[1] = d1 * k;
  free(old);
  OneAdjoint r = {2 * dk};
  return r;
}
void *scale_pair[2] = {(void *)scale_augmented, (void *)scale_reverse};

double value(double v, double s0, double s1, double claimed) {
  // a = v^2; state1' = s1 v + s0 v; loss = a * state1' + sin v
  (void)claimed;
  return v * v * (s1 * v + s0 * v) + sin(v);
}

int main(void) {
  const double v = 0.7, s0 = 1.5, s1 = -0.4;
  struct Model m = {square, scale_state, wave, v};
  struct Model dm = {(double (*)(double))square_pair,
                     (void (*)(double *, double))scale_pair, wave, 0.0};
  double state[2] = {s0, s1}, dstate[2] = {0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, &m, &dm, enzyme_dup, state,
                    dstate);
  check_close("augmented calls", augmented_calls, 2, 0, 0);
  check_close("reverse calls", reverse_calls, 2, 0, 0);
  // d loss / d v with the scale pair's claimed rule: the k-adjoint doubled.
  double a = v * v, s1new = s1 * v + s0 * v;
  double dk_true = a * (s1 + s0);
  double want = 2 * v * s1new + 2 * dk_true + cos(v);
  check_close("d/dval through the pairs", dm.val, want, 1e-12, 1e-12);
  check_close("d/dstate0", dstate[0], a * v, 1e-12, 1e-12);
  check_close("d/dstate1", dstate[1], a * v, 1e-12, 1e-12);
  // The same with the functions themselves as shadows: gpuad's own
  // derivatives, against central differences of the primal.
  struct Model m2 = {square, scale_state, wave, v};
  struct Model dm2 = {square, scale_state, wave, 0.0};
  double st2[2] = {s0, s1}, dst2[2] = {0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, &m2, &dm2, enzyme_dup, st2,
                    dst2);
  check_close("calls of the pairs, own shadows", augmented_calls, 2, 0, 0);
  double h = 1e-6;
  double fd = (value(v + h, s0, s1, 0) - value(v - h, s0, s1, 0)) / (2 * h);
  check_close("d/dval, own derivative, fd", dm2.val, fd, 1e-6, 1e-8);
  check_close("d/dval, own derivative", dm2.val, want - dk_true, 1e-12,
              1e-12);
  return gradcheck_exit();
}
