// Matrix-vector product and a quadratic loss, L = |A x - b|^2 / 2, with the
// gradient with respect to both A and x (1000 x 1000).
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 1000

double loss(const double *a, const double *x, const double *b, int n) {
  double l = 0.0;
  for (int i = 0; i < n; ++i) {
    double y = 0.0;
    for (int j = 0; j < n; ++j)
      y += a[i * n + j] * x[j];
    double r = y - b[i];
    l += 0.5 * r * r;
  }
  return l;
}

struct ctx {
  double *a, *da, *x, *dx, *b;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += loss(k->a, k->x, k->b, N);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->da, 0, sizeof(double) * N * N);
  memset(k->dx, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)loss, enzyme_dup, k->a, k->da, enzyme_dup, k->x,
                    k->dx, enzyme_const, k->b, N);
}

int main(void) {
  struct ctx k;
  k.a = malloc(sizeof(double) * N * N);
  k.da = malloc(sizeof(double) * N * N);
  k.x = malloc(sizeof(double) * N);
  k.dx = malloc(sizeof(double) * N);
  k.b = malloc(sizeof(double) * N);
  k.sink = 0;
  for (int i = 0; i < N * N; ++i)
    k.a[i] = sin(0.37 * i) / N;
  for (int i = 0; i < N; ++i) {
    k.x[i] = cos(0.1 * i);
    k.b[i] = 0.01 * i;
  }
  gradient(&k);
  /* Exact: dL/dx_j = sum_i a_ij r_i, r = A x - b. */
  int j = 17;
  double want = 0.0;
  for (int i = 0; i < N; ++i) {
    double y = 0.0;
    for (int l = 0; l < N; ++l)
      y += k.a[i * N + l] * k.x[l];
    want += k.a[i * N + j] * (y - k.b[i]);
  }
  bench_report("matvec: |Ax-b|^2/2", "1000x1000", primal, gradient, &k,
               bench_rel(k.dx[j], want));
  return 0;
}
