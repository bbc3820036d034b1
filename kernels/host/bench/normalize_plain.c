// normalize(out, x) as users write it: plain pointers, no restrict, mag()
// called inside the loop (n = 16000).  Inside normalize nothing says that
// out[j] = ... cannot change x, so without more facts every mag() call's
// reads would be taped (O(n^2)).  The request's call site passes two
// arrays it allocated itself and handed nowhere else; gpuad proves them
// disjoint there and builds the derivative as if both were restrict.
// The "restrict" variant declares them so, for comparison.  With the facts,
// mag(x, n) is also invariant in the loop and runs once (see normalize.c);
// the no-hoist variants show the call-site facts alone, and the last one
// what the same source costs without them (2 GB of tape).
// bench-variant: O2
// bench-variant: O0 -O0
// bench-variant: O2,restrict -DRESTRICT=restrict
// bench-variant: O2,no-hoist -mllvm -gpuad-hoist-invariant-calls=false
// bench-variant: O2,no-hoist,restrict -DRESTRICT=restrict -mllvm -gpuad-hoist-invariant-calls=false
// bench-variant: O2,no-hoist,no-call-site-facts -mllvm -gpuad-hoist-invariant-calls=false -mllvm -gpuad-call-site-aliasing=false
#include "bench.h"
#include <gpuad/gpuad.h>

#ifndef RESTRICT
#define RESTRICT
#endif

#define N 16000

__attribute__((noinline)) double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

void normalize(double *RESTRICT out, const double *RESTRICT x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}

struct ctx {
  double *x, *dx;
  double sink;
};

/* Both calls work on arrays of their own, allocated here, as a program
 * whose main() allocates its arrays would (the primal allocates as many, so
 * that the heap the gradient holds beyond it is the tape). */
static void primal(void *c) {
  struct ctx *k = c;
  double *x = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
  double *unused[2] = {calloc(N, sizeof(double)), malloc(sizeof(double) * N)};
  /* Kept (as the gradient's shadows are) where the optimiser cannot drop
   * them. */
  void *volatile keep = unused[0];
  keep = unused[1];
  (void)keep;
  memcpy(x, k->x, sizeof(double) * N);
  normalize(out, x, N);
  k->sink += out[N / 2];
  free(x);
  free(out);
  free(unused[0]);
  free(unused[1]);
}
static void gradient(void *c) {
  struct ctx *k = c;
  double *x = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
  double *dx = calloc(N, sizeof(double)), *dout = malloc(sizeof(double) * N);
  memcpy(x, k->x, sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    dout[i] = 1.0;
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x, dx,
                    N);
  memcpy(k->dx, dx, sizeof(double) * N);
  free(x);
  free(out);
  free(dx);
  free(dout);
}

/* Exact d/dx_0 of sum_j out_j = S / m, S = sum_j x_j, m = sqrt(s):
 * 1/m - S x_0 / m^3. */
static double exact0(const double *x) {
  double S = 0, s = 0;
  for (int j = 0; j < N; ++j) {
    S += x[j];
    s += x[j] * x[j];
  }
  double m = sqrt(s);
  return 1.0 / m - S * x[0] / (m * m * m);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), calloc(N, sizeof(double)), 0};
  for (int i = 0; i < N; ++i)
    k.x[i] = 1.0 + 0.5 * sin(0.37 * i);
  gradient(&k);
  bench_report("normalize, plain pointers", "n=16000", primal, gradient, &k,
               bench_rel(k.dx[0], exact0(k.x)));
  return 0;
}
