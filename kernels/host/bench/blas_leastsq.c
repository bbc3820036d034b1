// A least-squares loss through BLAS, L = |A x - b|^2 / 2 with r = A x - b
// from cblas_dgemv (b copied into r, beta = -1) and L from cblas_ddot, at
// n = 2,000; the gradient with respect to x (A constant), and with respect
// to A and x.  Its derivatives are BLAS calls too (x_bar = A^T r by dgemv,
// A_bar = r x^T by dger), so the ratio is the BLAS work's: with A active,
// A_bar's n^2 doubles (zeroed by the caller, then updated) dominate.
// `check` compares one x_bar element with the exact A^T r.
// bench-link: -lopenblas
// bench-variant: x -DWRT_X_ONLY
// bench-variant: A,x
#include "bench.h"
#include <cblas.h>
#include <gpuad/gpuad.h>

#define N 2000

double loss(const double *a, const double *x, const double *b, double *r,
            int n) {
  cblas_dcopy(n, b, 1, r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, a, n, x, 1, -1.0, r, 1);
  return 0.5 * cblas_ddot(n, r, 1, r, 1);
}

struct ctx {
  double *a, *da, *x, *dx, *b, *r, *dr;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += loss(k->a, k->x, k->b, k->r, N);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->dx, 0, sizeof(double) * N);
  memset(k->dr, 0, sizeof(double) * N);
#ifdef WRT_X_ONLY
  __enzyme_autodiff((void *)loss, enzyme_const, k->a, enzyme_dup, k->x, k->dx,
                    enzyme_const, k->b, enzyme_dup, k->r, k->dr, enzyme_const,
                    N);
#else
  memset(k->da, 0, sizeof(double) * N * N);
  __enzyme_autodiff((void *)loss, enzyme_dup, k->a, k->da, enzyme_dup, k->x,
                    k->dx, enzyme_const, k->b, enzyme_dup, k->r, k->dr,
                    enzyme_const, N);
#endif
}

int main(void) {
  struct ctx k = {0};
  k.a = malloc(sizeof(double) * N * N);
  k.da = malloc(sizeof(double) * N * N);
  double **vectors[] = {&k.x, &k.dx, &k.b, &k.r, &k.dr};
  for (int i = 0; i < 5; ++i)
    *vectors[i] = malloc(sizeof(double) * N);
  for (long i = 0; i < (long)N * N; ++i)
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
      y += k.a[(long)i * N + l] * k.x[l];
    want += k.a[(long)i * N + j] * (y - k.b[i]);
  }
  bench_report("BLAS: |Ax-b|^2/2", "2000x2000 dgemv", primal, gradient, &k,
               bench_rel(k.dx[j], want));
  return 0;
}
