// A 2-layer perceptron's loss through cblas_dgemm: batch 256, width 512,
// H = tanh(X W1), Y = H W2, L = |Y - T|^2 / 2; the gradient with respect to
// both weight matrices.  The adjoint of each dgemm is two dgemms (one per
// active factor), the tanh layer an element loop.  `check` compares one
// element of dL/dW2 with the exact H^T (Y - T).
// bench-link: -lopenblas
#include "bench.h"
#include <cblas.h>
#include <gpuad/gpuad.h>

#define B 256
#define W 512

double loss(const double *x, const double *w1, const double *w2,
            const double *t, double *h, double *y) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, W, W, 1.0, x, W, w1,
              W, 0.0, h, W);
  for (int i = 0; i < B * W; ++i)
    h[i] = tanh(h[i]);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, W, W, 1.0, h, W, w2,
              W, 0.0, y, W);
  double l = 0.0;
  for (int i = 0; i < B * W; ++i)
    l += 0.5 * (y[i] - t[i]) * (y[i] - t[i]);
  return l;
}

struct ctx {
  double *x, *w1, *dw1, *w2, *dw2, *t, *h, *dh, *y, *dy;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += loss(k->x, k->w1, k->w2, k->t, k->h, k->y);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->dw1, 0, sizeof(double) * W * W);
  memset(k->dw2, 0, sizeof(double) * W * W);
  __enzyme_autodiff((void *)loss, enzyme_const, k->x, enzyme_dup, k->w1, k->dw1,
                    enzyme_dup, k->w2, k->dw2, enzyme_const, k->t, enzyme_dup,
                    k->h, k->dh, enzyme_dup, k->y, k->dy);
}

int main(void) {
  struct ctx k = {0};
  double **batch[] = {&k.x, &k.t, &k.h, &k.dh, &k.y, &k.dy};
  for (int i = 0; i < 6; ++i)
    *batch[i] = calloc(B * W, sizeof(double));
  double **weights[] = {&k.w1, &k.dw1, &k.w2, &k.dw2};
  for (int i = 0; i < 4; ++i)
    *weights[i] = calloc(W * W, sizeof(double));
  for (int i = 0; i < B * W; ++i) {
    k.x[i] = sin(0.013 * i);
    k.t[i] = cos(0.007 * i);
  }
  for (int i = 0; i < W * W; ++i) {
    k.w1[i] = 0.05 * sin(0.31 * i);
    k.w2[i] = 0.05 * cos(0.17 * i);
  }
  gradient(&k);
  /* Exact: dL/dW2[i][j] = sum_b H[b][i] (Y - T)[b][j], from the primal's
     H and Y. */
  int i = 3, j = 5;
  loss(k.x, k.w1, k.w2, k.t, k.h, k.y);
  double want = 0.0;
  for (int b = 0; b < B; ++b)
    want += k.h[b * W + i] * (k.y[b * W + j] - k.t[b * W + j]);
  bench_report("BLAS: 2-layer MLP", "256x512 dgemm", primal, gradient, &k,
               bench_rel(k.dw2[i * W + j], want));
  return 0;
}
