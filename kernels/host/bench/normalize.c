// normalize(out, x): out[j] = x[j] / mag(x), with mag() a running sum in a
// loop, called inside normalize's loop (n = 16000).  Two magnitudes:
// sqrt(s) (whose derivative gpuad computes from its result, so s itself is
// never needed) and s log s (which needs s).
// mag(x, n) is pure and its arguments are the same in every iteration, and
// nothing the loop writes can change x (restrict): gpuad computes it once,
// where the loop is entered, and runs its backward half once with the sum
// of the iterations' adjoints.  The no-hoist variants keep the n calls, as
// a function whose call is not invariant would: then the reverse sweep of
// each call needs only the value mag's loop leaves behind, and keeping the
// running sum for every iteration instead makes the tape O(n^2) (2 GB;
// cache-off).  At -O2 the loop arrives rotated, and what the code after it
// reads is a PHI outside the loop either way; at -O0 (only gpuad's SROA
// before the pass) it is the loop's own header PHI, where the last-iteration
// cache matters.
// bench-variant: O2
// bench-variant: O0 -O0
// bench-variant: O2,no-hoist -mllvm -gpuad-hoist-invariant-calls=false
// bench-variant: O0,no-hoist -O0 -mllvm -gpuad-hoist-invariant-calls=false
// bench-variant: O0,no-hoist,cache-off -O0 -mllvm -gpuad-hoist-invariant-calls=false -mllvm -gpuad-last-iteration-cache=false
#include "bench.h"
#include <gpuad/gpuad.h>

#define N 16000

__attribute__((noinline)) double mag_sqrt(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

__attribute__((noinline)) double mag_slog(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s * log(s);
}

void normalize_sqrt(double *__restrict__ out, const double *__restrict__ x,
                    int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag_sqrt(x, n);
}

void normalize_slog(double *__restrict__ out, const double *__restrict__ x,
                    int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag_slog(x, n);
}

struct ctx {
  double *x, *dx, *out, *dout;
};

static void p_sqrt(void *c) {
  struct ctx *k = c;
  normalize_sqrt(k->out, k->x, N);
}
static void g_sqrt(void *c) {
  struct ctx *k = c;
  memset(k->dx, 0, sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    k->dout[i] = 1.0;
  __enzyme_autodiff((void *)normalize_sqrt, enzyme_dup, k->out, k->dout,
                    enzyme_dup, k->x, k->dx, N);
}
static void p_slog(void *c) {
  struct ctx *k = c;
  normalize_slog(k->out, k->x, N);
}
static void g_slog(void *c) {
  struct ctx *k = c;
  memset(k->dx, 0, sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    k->dout[i] = 1.0;
  __enzyme_autodiff((void *)normalize_slog, enzyme_dup, k->out, k->dout,
                    enzyme_dup, k->x, k->dx, N);
}

/* Exact d/dx_0 of sum_j out_j = S / m(s), S = sum_j x_j, s = sum_j x_j^2:
 * 1/m - S m'(s) 2 x_0 / m^2. */
static double exact0(const double *x, int slog) {
  double S = 0, s = 0;
  for (int j = 0; j < N; ++j) {
    S += x[j];
    s += x[j] * x[j];
  }
  double m = slog ? s * log(s) : sqrt(s);
  double dm = slog ? log(s) + 1.0 : 0.5 / sqrt(s);
  return 1.0 / m - S * dm * 2.0 * x[0] / (m * m);
}

int main(void) {
  struct ctx k = {malloc(sizeof(double) * N), malloc(sizeof(double) * N),
                  malloc(sizeof(double) * N), malloc(sizeof(double) * N)};
  for (int i = 0; i < N; ++i)
    k.x[i] = 1.0 + 0.5 * sin(0.37 * i);
  g_sqrt(&k);
  bench_report("normalize, mag=sqrt s", "n=16000", p_sqrt, g_sqrt, &k,
               bench_rel(k.dx[0], exact0(k.x, 0)));
  g_slog(&k);
  bench_report("normalize, mag=s log s", "n=16000", p_slog, g_slog, &k,
               bench_rel(k.dx[0], exact0(k.x, 1)));
  return 0;
}
