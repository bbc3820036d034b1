// Checkpointed loops (__gpuad_checkpoint): reverse mode keeps a few
// snapshots of a time loop's state and runs stretches of the loop again,
// instead of keeping every iteration's tape.  Each case is the same
// function twice, with and without the marker; the checkpointed gradient
// must equal the full-tape one (rtol 1e-12: the same operations, run
// again), finite differences and forward mode (revcheck.h's tolerances),
// and the run statistics show the schedule really ran (no more snapshots
// than asked for, steps run again).  Cases: ping-pong buffers with a
// run-time trip count (binomial schedule); a state of arrays and scalars
// with an active scalar parameter; an exit known only when it happens
// (online schedule): a while condition, and a break in mid-step; a scalar-only integrator with one snapshot
// (everything recomputed from the start); a step function the loop calls
// (at -O0 a call, whose writes are the loop's); memory the loop only reads
// that the code after it overwrites (kept with the state); split mode (the schedule's
// record is the tape).
// RUN: %gpuad-cc -O0 %itest-flags -I%S/../../runtime %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags -I%S/../../runtime %s -o %t.O2 -lm && %t.O2
// With a budget, the unmarked loops are checkpointed too (and still agree):
// RUN: %gpuad-cc -O2 -mllvm -gpuad-tape-budget=1 %itest-flags -I%S/../../runtime %s -o %t.budget -lm && %t.budget
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <CheckpointedLoop.h>

#define N 12
#define T 40

static int Steps = T;

/* ---- Ping-pong buffers: Allen-Cahn, explicit Euler ------------------------ */
#define HEAT(name, MARK)                                                       \
  double name(double *x, int n) {                                              \
    double a[N], b[N];                                                         \
    for (int i = 0; i < n; ++i)                                                \
      a[i] = x[i];                                                             \
    double *u = a, *v = b;                                                     \
    for (int t = 0; t < Steps; ++t) {                                          \
      MARK;                                                                    \
      for (int i = 1; i < n - 1; ++i)                                          \
        v[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) +                 \
               0.05 * (u[i] - u[i] * u[i] * u[i]);                             \
      v[0] = v[1];                                                             \
      v[n - 1] = v[n - 2];                                                     \
      double *w = u;                                                           \
      u = v;                                                                   \
      v = w;                                                                   \
    }                                                                          \
    double s = 0;                                                              \
    for (int i = 0; i < n; ++i)                                                \
      s += u[i] * u[i] * (1 + 0.1 * i);                                        \
    return s;                                                                  \
  }
HEAT(heat_full, (void)0)
HEAT(heat_ckpt, __gpuad_checkpoint(4))
GC_SCALAR_OF_ARRAY(heat_ckpt)

/* ---- Arrays and scalars: a pendulum chain with an energy integral --------- */
#define CHAIN(name, MARK)                                                      \
  double name(double *x, int n, double dt) {                                   \
    double q[N], p[N];                                                         \
    for (int i = 0; i < n; ++i) {                                              \
      q[i] = x[i];                                                             \
      p[i] = 0.1 * i;                                                          \
    }                                                                          \
    double energy = 0, phase = 0.3;                                            \
    for (int t = 0; t < Steps; ++t) {                                          \
      MARK;                                                                    \
      for (int i = 0; i < n; ++i)                                              \
        p[i] -= dt * sin(q[i] + phase);                                        \
      for (int i = 0; i < n; ++i)                                              \
        q[i] += dt * p[i];                                                     \
      energy += dt * (p[0] * p[0] + cos(q[n - 1]));                            \
      phase = 0.9 * phase + 0.01 * q[1];                                       \
    }                                                                          \
    return energy + q[2] * phase;                                              \
  }
CHAIN(chain_full, (void)0)
CHAIN(chain_ckpt, __gpuad_checkpoint(3))
static double chain_ckpt_x(double *x, int n) { return chain_ckpt(x, n, 0.05); }
GC_SCALAR_OF_ARRAY(chain_ckpt_x)

/* ---- An exit known only when it happens: the online schedule -------------- */
#define GROW(name, MARK)                                                       \
  double name(double *x, int n) {                                              \
    double y[N];                                                               \
    for (int i = 0; i < n; ++i)                                                \
      y[i] = x[i];                                                             \
    double total = 0;                                                          \
    int t = 0;                                                                 \
    while (total < 30.0 && t < 1000) {                                         \
      MARK;                                                                    \
      for (int i = 0; i < n; ++i)                                              \
        y[i] = y[i] + 0.01 * cos(y[(i + 1) % n]);                              \
      total += 1.0 + 0.001 * y[0] * y[0];                                      \
      ++t;                                                                     \
    }                                                                          \
    double s = 0;                                                              \
    for (int i = 0; i < n; ++i)                                                \
      s += y[i] * y[i];                                                        \
    return s * total;                                                          \
  }
GROW(grow_full, (void)0)
GROW(grow_ckpt, __gpuad_checkpoint(5))
GC_SCALAR_OF_ARRAY(grow_ckpt)

/* ---- Memory the loop only reads, which the code after it overwrites: the
   steps run again must read what the loop read (a local array, a global) */
static double coef[N];
#define AFTER(name, MARK)                                                      \
  double name(double *x, int n) {                                              \
    double y[N], w[N];                                                         \
    for (int i = 0; i < n; ++i) {                                              \
      y[i] = x[i];                                                             \
      w[i] = 0.5 + 0.1 * x[(i + 1) % n];                                       \
      coef[i] = 0.3 * i;                                                       \
    }                                                                          \
    for (int t = 0; t < Steps; ++t) {                                          \
      MARK;                                                                    \
      for (int i = 0; i < n; ++i)                                              \
        y[i] = y[i] + 0.1 * w[i] * sin(y[i]) + 0.01 * coef[i] * y[i];          \
    }                                                                          \
    for (int i = 0; i < n; ++i) {                                              \
      w[i] = 2 * y[i];                                                         \
      coef[i] = -1;                                                            \
    }                                                                          \
    double s = 0;                                                              \
    for (int i = 0; i < n; ++i)                                                \
      s += y[i] * w[i] + coef[i];                                              \
    return s;                                                                  \
  }
AFTER(after_full, (void)0)
AFTER(after_ckpt, __gpuad_checkpoint(3))
GC_SCALAR_OF_ARRAY(after_ckpt)

/* ---- A break out of the middle of a step --------------------------------- */
#define BREAK(name, MARK)                                                      \
  double name(double *x, int n) {                                              \
    double y[N];                                                               \
    for (int i = 0; i < n; ++i)                                                \
      y[i] = x[i];                                                             \
    double peak = 0;                                                           \
    for (int t = 0; t < 1000; ++t) {                                           \
      MARK;                                                                    \
      for (int i = 0; i < n; ++i)                                              \
        y[i] = y[i] * 1.01 + 0.02 * sin(y[(i + 3) % n]);                       \
      if (y[0] + t * 0.05 > 2.5)                                               \
        break;                                                                 \
      peak = peak * 0.5 + y[1];                                                \
    }                                                                          \
    return peak + y[2] * y[0];                                                 \
  }
BREAK(break_full, (void)0)
BREAK(break_ckpt, __gpuad_checkpoint(3))
GC_SCALAR_OF_ARRAY(break_ckpt)

/* ---- Scalars only, one snapshot: every step recomputed from the start ----- */
#define ORBIT(name, MARK)                                                      \
  double name(double *x, int n) {                                              \
    double r = x[0], s = x[1];                                                 \
    (void)n;                                                                   \
    for (int t = 0; t < Steps; ++t) {                                          \
      MARK;                                                                    \
      double r2 = r - 0.05 * s * r * r, s2 = s + 0.05 * sin(r);                \
      r = r2;                                                                  \
      s = s2;                                                                  \
    }                                                                          \
    return r * s;                                                              \
  }
ORBIT(orbit_full, (void)0)
ORBIT(orbit_ckpt, __gpuad_checkpoint(1))
GC_SCALAR_OF_ARRAY(orbit_ckpt)

/* ---- A step function (a call at -O0): what it writes is the loop's ------- */
static void diffuse(double *v, const double *u, int n) {
  for (int i = 1; i < n - 1; ++i)
    v[i] = u[i] + 0.1 * (u[i - 1] - 2 * u[i] + u[i + 1]) * (1 + 0.2 * u[i]);
  v[0] = v[n - 1] = 0;
}
#define CALLS(name, MARK)                                                      \
  double name(double *x, int n) {                                              \
    double a[N], b[N];                                                         \
    for (int i = 0; i < n; ++i)                                                \
      a[i] = x[i];                                                             \
    for (int t = 0; t < Steps; t += 2) {                                       \
      MARK;                                                                    \
      diffuse(b, a, n);                                                        \
      diffuse(a, b, n);                                                        \
    }                                                                          \
    return a[2] * a[5] + b[3];                                                 \
  }
CALLS(calls_full, (void)0)
CALLS(calls_ckpt, __gpuad_checkpoint(2))
GC_SCALAR_OF_ARRAY(calls_ckpt)

static double x0[N];
static double x0_scratch[N];
static double *x0copy(double *unused) {
  (void)unused;
  memcpy(x0_scratch, x0, sizeof x0);
  return x0_scratch;
}

/* The gradient of ckpt equals full's (the full tape); the run kept at most
   `snapshots` states and ran steps again. */
#define CHECK_AGAINST_FULL(name, ckpt, full, n, snapshots)                     \
  do {                                                                         \
    double x_[N], g_[N] = {0}, h_[N] = {0};                                    \
    memcpy(x_, x0, sizeof x_);                                                 \
    __enzyme_autodiff((void *)full, enzyme_dup, x_, h_, n);                    \
    memcpy(x_, x0, sizeof x_);                                                 \
    __enzyme_autodiff((void *)ckpt, enzyme_dup, x_, g_, n);                    \
    check_stats(name, g_, h_, n, snapshots);                                   \
  } while (0)

static void check_stats(const char *name, const double *g, const double *h,
                        int n, int snapshots) {
  gpuad_loop_stats st = gpuad_last_loop_stats();
  char label[128];
  for (int j = 0; j < n; ++j) {
    snprintf(label, sizeof label, "%s grad[%d] = full tape", name, j);
    check_close(label, g[j], h[j], 1e-12, 1e-15);
  }
  snprintf(label, sizeof label, "%s: snapshots kept <= %d", name, snapshots);
  check_true(label, st.snapshots >= 1 && st.snapshots <= snapshots);
  snprintf(label, sizeof label, "%s: steps run again", name);
  check_true(label, st.recomputed_steps > st.steps);
}

/* Split mode returns the tape and the primal. */
typedef struct {
  void *tape;
  double primal;
} Augmented;
Augmented __enzyme_augmentfwd_t(void *, ...);

int main(void) {
  for (int i = 0; i < N; ++i)
    x0[i] = 0.5 * sin(0.7 * i + 0.1);

  CHECK_AGAINST_FULL("heat", heat_ckpt, heat_full, N, 4);
  GC_CHECK_SCALAR(heat_ckpt, x0, N);
  Steps = 7; /* another run-time trip count */
  CHECK_AGAINST_FULL("heat T=7", heat_ckpt, heat_full, N, 4);
  Steps = T;

  /* The active scalar dt: its adjoint sums every step's. */
  {
    double x[N], g[N] = {0}, h[N] = {0};
    memcpy(x, x0, sizeof x);
    double dh = __enzyme_autodiff((void *)chain_full, enzyme_dup, x, h, N,
                                  enzyme_out, 0.05);
    memcpy(x, x0, sizeof x);
    double dg = __enzyme_autodiff((void *)chain_ckpt, enzyme_dup, x, g, N,
                                  enzyme_out, 0.05);
    for (int j = 0; j < N; ++j)
      check_close("chain grad = full tape", g[j], h[j], 1e-12, 1e-15);
    check_close("chain d/ddt = full tape", dg, dh, 1e-12, 1e-15);
    double e = 1e-6, xs[N];
    memcpy(xs, x0, sizeof xs);
    double fp = chain_ckpt(xs, N, 0.05 + e);
    memcpy(xs, x0, sizeof xs);
    double fm = chain_ckpt(xs, N, 0.05 - e);
    check_close("chain d/ddt fd", dg, (fp - fm) / (2 * e), GC_RTOL_D,
                GC_ATOL_D);
    gpuad_loop_stats st = gpuad_last_loop_stats();
    check_true("chain: snapshots kept <= 3", st.snapshots >= 1 && st.snapshots <= 3);
  }
  GC_CHECK_SCALAR(chain_ckpt_x, x0, N);

  CHECK_AGAINST_FULL("grow", grow_ckpt, grow_full, N, 5);
  GC_CHECK_SCALAR(grow_ckpt, x0, N);

  CHECK_AGAINST_FULL("after", after_ckpt, after_full, N, 3);
  GC_CHECK_SCALAR(after_ckpt, x0, N);

  CHECK_AGAINST_FULL("break", break_ckpt, break_full, N, 3);
  GC_CHECK_SCALAR(break_ckpt, x0, N);

  CHECK_AGAINST_FULL("calls", calls_ckpt, calls_full, N, 2);
  GC_CHECK_SCALAR(calls_ckpt, x0, N);

  CHECK_AGAINST_FULL("orbit", orbit_ckpt, orbit_full, 2, 1);
  GC_CHECK_SCALAR(orbit_ckpt, x0, 2);

  /* Split mode: the augmented half returns the schedule's record as its
     tape; the reverse half reverses the loop from it. */
  {
    double x[N], g[N] = {0}, h[N] = {0};
    memcpy(x, x0, sizeof x);
    __enzyme_autodiff((void *)heat_full, enzyme_dup, x, h, N);
    memcpy(x, x0, sizeof x);
    Augmented a =
        __enzyme_augmentfwd_t((void *)heat_ckpt, enzyme_dup, x, g, N);
    check_close("heat split primal", a.primal, heat_full(x0copy(x), N), 1e-14,
                0);
    __enzyme_reverse((void *)heat_ckpt, enzyme_dup, x, g, N, 1.0, a.tape);
    for (int j = 0; j < N; ++j)
      check_close("heat split = full tape", g[j], h[j], 1e-12, 1e-15);
  }
  return gradcheck_exit();
}
