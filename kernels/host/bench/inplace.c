// In-place updates: ten sweeps of a nonlinear smoother over an array,
// overwriting it; the reverse sweep needs the overwritten values.
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 100000
#define SWEEPS 10

void smooth(double *x, int n) {
  for (int s = 0; s < SWEEPS; ++s)
    for (int i = 1; i < n - 1; ++i)
      x[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * tanh(x[i + 1]);
}

struct ctx {
  double *x0, *x, *dx;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  memcpy(k->x, k->x0, sizeof(double) * N);
  smooth(k->x, N);
  k->sink += k->x[N / 2];
}
static void gradient(void *c) {
  struct ctx *k = c;
  memcpy(k->x, k->x0, sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    k->dx[i] = i == N / 2; /* the adjoint of x[N/2] at the end */
  __enzyme_autodiff((void *)smooth, enzyme_dup, k->x, k->dx, N);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), malloc(sizeof(double) * N),
                  malloc(sizeof(double) * N), 0};
  for (int i = 0; i < N; ++i)
    k.x0[i] = sin(0.05 * i);
  gradient(&k);
  int j = N / 2 + 3;
  double h = 1e-6, v0 = k.x0[j], fp, fm;
  k.x0[j] = v0 + h;
  memcpy(k.x, k.x0, sizeof(double) * N);
  smooth(k.x, N);
  fp = k.x[N / 2];
  k.x0[j] = v0 - h;
  memcpy(k.x, k.x0, sizeof(double) * N);
  smooth(k.x, N);
  fm = k.x[N / 2];
  k.x0[j] = v0;
  bench_report("in-place smoother", "n=1e5 x 10", primal, gradient, &k,
               bench_rel(k.dx[j], (fp - fm) / (2 * h)));
  return 0;
}
