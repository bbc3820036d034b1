// Forward mode through code that mixes integer and floating-point work:
// integer indices and counters, int parameters, int <-> double conversions
// (an int made from an active double carries no tangent), integer arrays
// next to double arrays, unsigned/64-bit arithmetic steering the control
// flow, and a CSR sparse matrix-vector product (int index arrays).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* Piecewise-linear interpolation in a table: the cell index is (int) of an
 * active value; the tangent comes only through the fractional weight. */
static const double table_y[9] = {0.0, 0.8, 1.1, 0.7, 0.2, -0.4, -0.6, 0.1, 1.0};
double interp(double x) {
  double u = x * 2.0;           /* table spacing 0.5 */
  int i = (int)u;               /* fptosi: no tangent */
  if (i < 0) i = 0;
  if (i > 7) i = 7;
  double t = u - (double)i;     /* sitofp: no tangent */
  return table_y[i] * (1.0 - t) + table_y[i + 1] * t;
}

/* A counter and an integer hash steer the accumulation. */
double hashed(double x, int n, unsigned seed) {
  double acc = 0.0;
  unsigned h = seed;
  long long steps = 0;
  for (int i = 0; i < n; ++i) {
    h = h * 1664525u + 1013904223u;
    ++steps;
    switch (h >> 30) {
    case 0: acc += x * (double)(h & 7u); break;
    case 1: acc -= sin(x) * (double)(i % 3); break;
    case 2: acc *= 0.9; break;
    default: acc += x * x / (double)(steps + 1);
    }
  }
  return acc;
}

/* CSR sparse y = A v; the values of A and v are active, the structure is not. */
void csr_matvec(int rows, const int *rowptr, const int *col, const double *val, const double *v,
                double *y) {
  for (int r = 0; r < rows; ++r) {
    double s = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k)
      s += val[k] * v[col[k]];
    y[r] = s;
  }
}

/* Rounds an active value to a count and uses both. */
double round_trip(double x) {
  long n = lround(x * 4.0);
  double q = (double)n / 4.0;   /* quantised copy: no tangent */
  return x * x - q * x + (double)(n % 3);
}

static int g_n;
static unsigned g_seed;
static double g_hashed(double x) { return hashed(x, g_n, g_seed); }

static const int rowptr[5] = {0, 2, 3, 6, 8};
static const int col[8] = {0, 3, 1, 0, 2, 3, 1, 2};
static void g_csr(double *p, double *y, void *c) { (void)c; csr_matvec(4, rowptr, col, p, p + 8, y); }

int main(void) {
  char nm[96];
  const double xs[] = {0.1, 0.7, 1.3, 2.05, 3.9};
  for (int i = 0; i < 5; ++i) {
    double d = __enzyme_fwddiff((void *)interp, enzyme_dup, xs[i], 1.0);
    int cell = (int)(xs[i] * 2.0);
    snprintf(nm, sizeof nm, "interp'(%g) exact", xs[i]);
    check_close(nm, d, 2.0 * (table_y[cell + 1] - table_y[cell]), 1e-15, 1e-15);
    snprintf(nm, sizeof nm, "interp'(%g) fd", xs[i]);
    check_close(nm, d, gc_fd(interp, xs[i]), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)round_trip, enzyme_dup, xs[i], 1.0);
    snprintf(nm, sizeof nm, "round_trip'(%g) exact", xs[i]);
    check_close(nm, d, 2.0 * xs[i] - lround(xs[i] * 4.0) / 4.0, 1e-15, 1e-15);
  }
  volatile unsigned seeds[] = {1u, 12345u, 0xdeadbeefu};
  for (int k = 0; k < 3; ++k) {
    g_seed = seeds[k];
    g_n = 50;
    double d = __enzyme_fwddiff((void *)hashed, enzyme_dup, 0.8, 1.0, 50, g_seed);
    snprintf(nm, sizeof nm, "hashed seed=%u fd", g_seed);
    check_close(nm, d, gc_fd(g_hashed, 0.8), GC_RTOL_D, GC_ATOL_D);
  }

  /* CSR: values and vector packed in one array p = [val(8), v(4)]. */
  double p[12] = {2.0, -1.0, 3.0, 0.5, 1.5, -2.0, 1.0, 4.0, 0.3, -0.7, 1.1, 2.0};
  double dp[12] = {0.1, 0.2, 0.0, -0.3, 0.4, 0.0, 1.0, -0.5, 1.0, 0.5, -1.0, 0.25};
  double y[4], dy[4], want[4];
  __enzyme_fwddiff((void *)csr_matvec, 4, enzyme_const, rowptr, enzyme_const, col, enzyme_dup, p,
                   dp, enzyme_dup, p + 8, dp + 8, enzyme_dup, y, dy);
  gc_fd_dir_vec(g_csr, p, dp, 12, 4, NULL, want);
  for (int r = 0; r < 4; ++r) {
    snprintf(nm, sizeof nm, "csr dy[%d] fd", r);
    check_close(nm, dy[r], want[r], GC_RTOL_D, GC_ATOL_D);
  }
  /* Row 1 has one entry: dy = dval[2] v[1] + val[2] dv[1]. */
  check_close("csr dy[1] exact", dy[1], dp[2] * p[9] + p[2] * dp[9], 1e-15, 0.0);
  return gradcheck_exit();
}
