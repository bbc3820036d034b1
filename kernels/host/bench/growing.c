// A loop whose trip count only its data decides (a slow relaxation towards
// 2, run until its steps are small: about 1.6 million steps), summing
// sin(a_i x) along the way.  The tape cannot be sized when the loop is
// entered and grows (doubling) as the loop runs; each step's x is needed in
// the reverse sweep (8 bytes per step).
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 1000

double settle(const double *a, int n) {
  double x = 1.0, step = 1.0, acc = 0.0;
  int i = 0;
  while (step > 1e-12) {
    double next = x + 1e-5 * (2.0 - x);
    acc += sin(a[i % n] * x);
    step = fabs(next - x);
    x = next;
    ++i;
  }
  return acc;
}

struct ctx {
  double *a, *da;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += settle(k->a, N);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->da, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)settle, enzyme_dup, k->a, k->da, N);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), malloc(sizeof(double) * N), 0};
  for (int i = 0; i < N; ++i)
    k.a[i] = 0.3 + 0.1 * cos(0.7 * i);
  gradient(&k);
  int j = 17;
  double h = 1e-7, a0 = k.a[j];
  k.a[j] = a0 + h;
  double fp = settle(k.a, N);
  k.a[j] = a0 - h;
  double fm = settle(k.a, N);
  k.a[j] = a0;
  bench_report("data-dependent loop", "~1.6e6 steps", primal, gradient, &k,
               bench_rel(k.da[j], (fp - fm) / (2 * h)));
  return 0;
}
