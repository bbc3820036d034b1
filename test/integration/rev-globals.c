// Mutable globals that carry derivatives get shadow globals: a zeroed twin
// `<name>_shadow` (lane k of a batch: `<name>_shadow_<k>`) that the
// derivative reads and writes where the function reads and writes the
// global.  The program declares the shadow to read it: forward mode leaves
// tangents there, reverse mode the adjoint of the global's value on entry
// (its value on entry seeds the adjoint of the value on exit).  Checked
// against finite differences and, reverse against forward, by the
// dot-product test; width 2 against single runs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <string.h>

#define N 6

/* Scratch state written, then read back at other indices. */
double state[N];
extern double state_shadow[N], state_shadow_1[N];

double scratch(double *x, int n) {
  for (int i = 0; i < n; ++i)
    state[i] = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += state[(i + 1) % n] * sin(x[i]);
  return s;
}
GC_SCALAR_OF_ARRAY(scratch)

/* A global read before it is written: its value on entry is an input. */
static double acc[N];
extern double acc_shadow[N];
static const double acc0[N] = {0.5, -1.0, 0.25, 2.0, -0.75, 1.5};

double decay(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    acc[i] = 0.5 * acc[i] + sin(x[i]);
    s += acc[i] * acc[i];
  }
  return s;
}

/* decay as a function of acc's value on entry (x fixed). */
static double decay_of_acc(double *a, void *ctx) {
  memcpy(acc, a, sizeof acc);
  return decay((double *)ctx, N);
}

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};

  /* Each run starts from zero shadows: a forward run leaves tangents there
   * that a reverse run would take for adjoints. */
  double g[N] = {0}, v[N], t[N], jv, one = 1.0, xs[N];
  memcpy(xs, x, sizeof x);
  __enzyme_autodiff((void *)scratch, enzyme_dup, xs, g, N);
  gc_check_vjp("scratch", scratch_vec, x, N, 1, &(int){N}, &one, g);
  for (int i = 0; i < N; ++i)
    check_close("scratch leaves no adjoint in state_shadow", state_shadow[i],
                0.0, 0.0, 0.0);
  gc_direction(v, N, 1);
  memcpy(t, v, sizeof t);
  memset(state_shadow, 0, sizeof state_shadow);
  jv = __enzyme_fwddiff((void *)scratch, enzyme_dup, xs, t, N);
  gc_check_dot("scratch", v, g, N, &jv, &one, 1);
  for (int i = 0; i < N; ++i)
    check_close("scratch tangent in state_shadow", state_shadow[i],
                2.0 * x[i] * v[i], GC_RTOL_EXACT, GC_ATOL_EXACT);

  double lanes[2 * N] = {0}, singles[2 * N];
  memset(state_shadow, 0, sizeof state_shadow);
  memset(state_shadow_1, 0, sizeof state_shadow_1);
  __enzyme_autodiff((void *)scratch, enzyme_width, 2, enzyme_dupv,
                    (int)sizeof x, xs, lanes, N);
  memcpy(singles, g, sizeof g);
  memcpy(singles + N, g, sizeof g);
  gc_check_lanes("scratch width 2", lanes, singles, N, 2);

  /* Reverse: acc_shadow gets d decay / d acc(entry); dx the x gradient. */
  double dx[N] = {0}, ga[N];
  memcpy(acc, acc0, sizeof acc);
  memset(acc_shadow, 0, sizeof acc_shadow);
  __enzyme_autodiff((void *)decay, enzyme_dup, xs, dx, N);
  memcpy(ga, acc_shadow, sizeof ga);
  for (int j = 0; j < N; ++j) {
    double a[N], e[N] = {0};
    memcpy(a, acc0, sizeof a);
    e[j] = 1.0;
    check_close("decay d/dacc[j] fd", ga[j],
                gc_fd_dir(decay_of_acc, a, e, N, xs), GC_RTOL_D, GC_ATOL_D);
    /* analytic: 2 * acc_exit[j] * 0.5 */
    double exitv = 0.5 * acc0[j] + sin(x[j]);
    check_close("decay d/dacc[j] exact", ga[j], exitv, GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    check_close("decay d/dx[j] exact", dx[j], 2.0 * exitv * cos(x[j]),
                GC_RTOL_EXACT, GC_ATOL_EXACT);
  }
  /* Forward with tangents in x and in acc's value on entry: the dot
   * product with both gradients. */
  double va[N], vx[N], w[2 * N], grad[2 * N];
  gc_direction(va, N, 3);
  gc_direction(vx, N, 4);
  memcpy(acc, acc0, sizeof acc);
  memcpy(acc_shadow, va, sizeof va);
  memcpy(t, vx, sizeof t);
  jv = __enzyme_fwddiff((void *)decay, enzyme_dup, xs, t, N);
  memcpy(w, vx, sizeof vx);
  memcpy(w + N, va, sizeof va);
  memcpy(grad, dx, sizeof dx);
  memcpy(grad + N, ga, sizeof ga);
  gc_check_dot("decay wrt x and acc", w, grad, 2 * N, &jv, &one, 1);
  return gradcheck_exit();
}
