// An OpenMP parallel loop and its gradient, run by tools/bench.sh at 1 and 2
// threads (OMP_NUM_THREADS): a smooth map of 2^20 points, reduced to one
// loss by a + reduction, differentiated with respect to the points and a
// shared coefficient.  The reverse sweep runs in a team of the same size;
// the coefficient's adjoint, which every thread adds to, is the atomic part.
// The `check` column compares d loss / d k with a central difference.
#include "bench.h"
#include <gpuad/gpuad.h>
#include <omp.h>

#define N (1 << 20)

double loss(const double *x, double *y, double k, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) {
    y[i] = sin(x[i]) * exp(-k * x[i] * x[i]);
    s += y[i] * y[i];
  }
  return s;
}

struct ctx {
  double *x, *dx, *y, *dy;
  double k, dk, sink;
};

static void primal(void *c) {
  struct ctx *p = c;
  p->sink += loss(p->x, p->y, p->k, N);
}

static void gradient(void *c) {
  struct ctx *p = c;
  memset(p->dx, 0, sizeof(double) * N);
  memset(p->dy, 0, sizeof(double) * N);
  p->dk = __enzyme_autodiff((void *)loss, enzyme_dup, p->x, p->dx, enzyme_dup,
                            p->y, p->dy, enzyme_out, p->k, enzyme_const, N);
}

int main(void) {
  struct ctx c = {0};
  double **bufs[] = {&c.x, &c.dx, &c.y, &c.dy};
  for (int b = 0; b < 4; ++b)
    *bufs[b] = calloc(N, sizeof(double));
  for (int i = 0; i < N; ++i)
    c.x[i] = 2.0 * i / N - 1.0;
  c.k = 0.7;
  gradient(&c);
  double h = 1e-6, dk = c.dk;
  double fd =
      (loss(c.x, c.y, c.k + h, N) - loss(c.x, c.y, c.k - h, N)) / (2 * h);
  char size[64];
  snprintf(size, sizeof size, "n=%d, %d thr", N, omp_get_max_threads());
  bench_report("omp_loop", size, primal, gradient, &c, bench_rel(dk, fd));
  return 0;
}
