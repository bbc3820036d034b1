// A nonlinear recurrence over a million steps,
//   x_i = a_i x_{i-1} + sin(x_{i-1}) / 2 + 1/10:
// each step needs the previous state in the reverse sweep, so one value per
// step is taped (8 MB).
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 1000000

double recur(const double *a, int n) {
  double x = 0.5;
  for (int i = 0; i < n; ++i)
    x = a[i] * x + 0.5 * sin(x) + 0.1;
  return x;
}

struct ctx {
  double *a, *da;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += recur(k->a, N);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->da, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)recur, enzyme_dup, k->a, k->da, N);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), malloc(sizeof(double) * N), 0};
  for (int i = 0; i < N; ++i)
    k.a[i] = 0.4 + 0.1 * sin(0.01 * i);
  gradient(&k);
  int j = N - 10;
  double h = 1e-6, a0 = k.a[j];
  k.a[j] = a0 + h;
  double fp = recur(k.a, N);
  k.a[j] = a0 - h;
  double fm = recur(k.a, N);
  k.a[j] = a0;
  bench_report("recurrence", "n=1e6", primal, gradient, &k,
               bench_rel(k.da[j], (fp - fm) / (2 * h)));
  return 0;
}
