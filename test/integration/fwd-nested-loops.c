// Forward mode through nested loops: a triangular double loop, a 2-D
// stencil relaxation over a grid held in a local buffer, and an inner trip
// count that depends on the outer index.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* sum_{i<j} x_i x_j exp(-|i-j| s): x active (array), s active (scalar). */
double pair_energy(const double *x, int n, double s) {
  double e = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      e += x[i] * x[j] * exp(-(j - i) * s);
  return e;
}

/* Jacobi relaxation of a 6x6 grid with boundary value b and source f,
 * `sweeps` sweeps; returns the value at an interior point. */
#define G 6
double relax(double b, double f, int sweeps) {
  double u[G][G], v[G][G];
  for (int i = 0; i < G; ++i)
    for (int j = 0; j < G; ++j)
      u[i][j] = (i == 0 || j == 0 || i == G - 1 || j == G - 1) ? b : 0.0;
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < G; ++i)
      for (int j = 0; j < G; ++j)
        v[i][j] = u[i][j];
    for (int i = 1; i < G - 1; ++i)
      for (int j = 1; j < G - 1; ++j)
        v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) + f * u[i][j] * u[i][j] * 0.01;
    for (int i = 0; i < G; ++i)
      for (int j = 0; j < G; ++j)
        u[i][j] = v[i][j];
  }
  return u[2][3];
}

/* Three levels, the innermost bounded by the outer indices. */
double triple(double x, int n) {
  double acc = 0.0;
  for (int i = 1; i <= n; ++i)
    for (int j = 0; j < i; ++j)
      for (int k = j; k < i; ++k)
        acc += sin(x * (i - j) + k) / (i + k);
  return acc;
}

struct pe_ctx { double x[7], dx[7], s, ds; int n; };
static double g_pair(double t, void *c) {
  struct pe_ctx *p = (struct pe_ctx *)c;
  double xt[7];
  for (int i = 0; i < p->n; ++i)
    xt[i] = p->x[i] + t * p->dx[i];
  return pair_energy(xt, p->n, p->s + t * p->ds);
}
static int g_n;
static double g_relax_b(double b) { return relax(b, 0.7, g_n); }
static double g_relax_f(double f) { return relax(1.3, f, g_n); }
static double g_triple(double x) { return triple(x, g_n); }

int main(void) {
  char nm[96];
  struct pe_ctx c = {{0.3, -1.2, 0.8, 2.1, -0.5, 1.7, 0.9},
                     {1.0, 0.5, -0.25, 0.0, 2.0, -1.0, 0.3}, 0.4, 0.6, 7};
  double dx[7];
  for (int i = 0; i < 7; ++i)
    dx[i] = c.dx[i];
  double d = __enzyme_fwddiff((void *)pair_energy, enzyme_dup, c.x, dx, 7, enzyme_dup, c.s, c.ds);
  check_close("pair_energy dir fd", d, gc_fd_t(g_pair, 0.0, &c), GC_RTOL_D, GC_ATOL_D);
  /* Only s active: d/ds = -sum (j-i) x_i x_j exp(-(j-i)s). */
  d = __enzyme_fwddiff((void *)pair_energy, enzyme_const, c.x, 7, enzyme_dup, c.s, 1.0);
  double want = 0.0;
  for (int i = 0; i < 7; ++i)
    for (int j = i + 1; j < 7; ++j)
      want -= (j - i) * c.x[i] * c.x[j] * exp(-(j - i) * c.s);
  check_close("pair_energy d/ds exact", d, want, 1e-12, 1e-14);

  volatile int sweeps[] = {1, 4, 25};
  for (int k = 0; k < 3; ++k) {
    g_n = sweeps[k];
    d = __enzyme_fwddiff((void *)relax, enzyme_dup, 1.3, 1.0, enzyme_const, 0.7, g_n);
    snprintf(nm, sizeof nm, "relax d/db sweeps=%d fd", g_n);
    check_close(nm, d, gc_fd(g_relax_b, 1.3), GC_RTOL_D, GC_ATOL_D);
    d = __enzyme_fwddiff((void *)relax, enzyme_const, 1.3, enzyme_dup, 0.7, 1.0, g_n);
    snprintf(nm, sizeof nm, "relax d/df sweeps=%d fd", g_n);
    check_close(nm, d, gc_fd(g_relax_f, 0.7), GC_RTOL_D, GC_ATOL_D);
  }
  /* With f = 0 the relaxation is linear in b: d relax / db = relax / b. */
  d = __enzyme_fwddiff((void *)relax, enzyme_dup, 1.3, 1.0, enzyme_const, 0.0, 9);
  check_close("relax linear in b (f=0)", d, relax(1.3, 0.0, 9) / 1.3, 1e-12, 1e-14);

  volatile int ns[] = {0, 1, 3, 6};
  for (int k = 0; k < 4; ++k) {
    g_n = ns[k];
    d = __enzyme_fwddiff((void *)triple, enzyme_dup, 0.65, 1.0, g_n);
    snprintf(nm, sizeof nm, "triple'(0.65, n=%d) fd", g_n);
    check_close(nm, d, gc_fd(g_triple, 0.65), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
