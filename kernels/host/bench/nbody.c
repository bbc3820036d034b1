// N-body style pair loop: the softened gravitational potential energy of
// 1000 particles (half a million pairs), gradient with respect to positions.
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 1000

double energy(const double *pos, const double *mass, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = pos[3 * i] - pos[3 * j];
      double dy = pos[3 * i + 1] - pos[3 * j + 1];
      double dz = pos[3 * i + 2] - pos[3 * j + 2];
      double r2 = dx * dx + dy * dy + dz * dz + 1e-3;
      e -= mass[i] * mass[j] / sqrt(r2);
    }
  return e;
}

struct ctx {
  double *pos, *dpos, *mass;
  double sink;
};

static void primal(void *c) {
  struct ctx *k = c;
  k->sink += energy(k->pos, k->mass, N);
}
static void gradient(void *c) {
  struct ctx *k = c;
  memset(k->dpos, 0, sizeof(double) * 3 * N);
  __enzyme_autodiff((void *)energy, enzyme_dup, k->pos, k->dpos, enzyme_const,
                    k->mass, N);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * 3 * N),
                  malloc(sizeof(double) * 3 * N), malloc(sizeof(double) * N),
                  0};
  for (int i = 0; i < 3 * N; ++i)
    k.pos[i] = sin(1.7 * i) * 10.0;
  for (int i = 0; i < N; ++i)
    k.mass[i] = 1.0 + 0.5 * cos(0.3 * i);
  gradient(&k);
  int j = 301;
  double h = 1e-6 * fabs(k.pos[j]), p0 = k.pos[j];
  k.pos[j] = p0 + h;
  double fp = energy(k.pos, k.mass, N);
  k.pos[j] = p0 - h;
  double fm = energy(k.pos, k.mass, N);
  k.pos[j] = p0;
  bench_report("n-body pair energy", "1000 particles", primal, gradient, &k,
               bench_rel(k.dpos[j], (fp - fm) / (2 * h)));
  return 0;
}
