// A time loop over a field: Allen-Cahn (diffusion plus u - u^3), explicit
// Euler on n = 65,536 cells for T = 5,000 steps, ping-pong buffers.  The
// full tape keeps every step's field: about 2.4 GiB.  With a tape budget
// the loop is checkpointed: the reverse sweep keeps at most that many
// bytes of snapshots of the state (both buffers and the loop's scalars)
// and runs stretches of the loop again (binomial checkpointing).  The
// `check` column compares d loss / d k with a central difference; the
// label gives the snapshots kept and the steps run again per step.
// bench-variant: budget=8MiB -mllvm -gpuad-tape-budget=8
// bench-variant: budget=16MiB -mllvm -gpuad-tape-budget=16
// bench-variant: budget=64MiB -mllvm -gpuad-tape-budget=64
// bench-variant: budget=256MiB -mllvm -gpuad-tape-budget=256
// bench-variant: full-tape
#include "bench.h"
#include <gpuad/gpuad.h>

typedef struct {
  int snapshots;
  long long state_bytes, steps, recomputed_steps;
} loop_stats;
loop_stats gpuad_last_loop_stats(void);

#define N 65536
#define T 5000

double loss(const double *u0, double *a, double *b, int n, int steps,
            double k) {
  for (int i = 0; i < n; ++i)
    a[i] = u0[i];
  double *u = a, *v = b;
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) +
             0.01 * (u[i] - u[i] * u[i] * u[i]);
    v[0] = v[1];
    v[n - 1] = v[n - 2];
    double *w = u;
    u = v;
    v = w;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += u[i] * u[i];
  return s;
}

struct ctx {
  double *u0, *du0, *a, *da, *b, *db;
  double k, dk, sink;
};

static void primal(void *c) {
  struct ctx *x = c;
  x->sink += loss(x->u0, x->a, x->b, N, T, x->k);
}
static void gradient(void *c) {
  struct ctx *x = c;
  memset(x->du0, 0, sizeof(double) * N);
  memset(x->da, 0, sizeof(double) * N);
  memset(x->db, 0, sizeof(double) * N);
  x->dk = __enzyme_autodiff((void *)loss, enzyme_dup, x->u0, x->du0, enzyme_dup,
                            x->a, x->da, enzyme_dup, x->b, x->db, enzyme_const,
                            N, enzyme_const, T, enzyme_out, x->k);
}

int main(void) {
  struct ctx x = {0};
  double **bufs[] = {&x.u0, &x.du0, &x.a, &x.da, &x.b, &x.db};
  for (int i = 0; i < 6; ++i)
    *bufs[i] = calloc(N, sizeof(double));
  for (int i = 0; i < N; ++i)
    x.u0[i] = 0.5 * sin(6.283185307179586 * 7 * i / N);
  x.k = 0.2;
  gradient(&x);
  double h = 1e-6, dk = x.dk;
  double fp = loss(x.u0, x.a, x.b, N, T, x.k + h);
  double fm = loss(x.u0, x.a, x.b, N, T, x.k - h);
  loop_stats st = gpuad_last_loop_stats();
  char size[64];
  snprintf(size, sizeof size, "n=%d T=%d", N, T);
  bench_report("heat (Allen-Cahn)", size, primal, gradient, &x,
               bench_rel(dk, (fp - fm) / (2 * h)));
  printf("  heat: dk = %.17g", dk);
  if (st.steps)
    printf("; %d snapshots of %lld B, %.2f steps run again per step",
           st.snapshots, st.state_bytes,
           (double)st.recomputed_steps / (double)st.steps);
  printf("\n");
  return 0;
}
