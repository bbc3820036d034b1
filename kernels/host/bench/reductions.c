// Reductions over a million entries: the 2-norm and log-sum-exp.  The loop
// reads memory nothing writes and its running sums are only needed after
// the loop, so reverse mode needs no per-iteration tape.
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 1000000

double norm2(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return sqrt(s);
}

double logsumexp(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i)
    m = fmax(m, x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += exp(x[i] - m);
  return m + log(s);
}

struct ctx {
  double *x, *dx;
  double sink;
};

static void p_norm(void *c) {
  struct ctx *k = c;
  k->sink += norm2(k->x, N);
}
static void g_norm(void *c) {
  struct ctx *k = c;
  memset(k->dx, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)norm2, enzyme_dup, k->x, k->dx, N);
}
static void p_lse(void *c) {
  struct ctx *k = c;
  k->sink += logsumexp(k->x, N);
}
static void g_lse(void *c) {
  struct ctx *k = c;
  memset(k->dx, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, k->x, k->dx, N);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), malloc(sizeof(double) * N), 0};
  for (int i = 0; i < N; ++i)
    k.x[i] = sin(0.001 * i) + 0.1;
  /* Exact: d|x|/dx_j = x_j / |x|; d lse/dx_j = exp(x_j - lse). */
  g_norm(&k);
  bench_report("reduction: norm", "n=1e6", p_norm, g_norm, &k,
               bench_rel(k.dx[123], k.x[123] / norm2(k.x, N)));
  g_lse(&k);
  bench_report("reduction: logsumexp", "n=1e6", p_lse, g_lse, &k,
               bench_rel(k.dx[4567], exp(k.x[4567] - logsumexp(k.x, N))));
  free(k.x);
  free(k.dx);
  return 0;
}
