// Forward mode with heap memory allocated inside the differentiated function:
// malloc'd work arrays (their shadows must be allocated too), calloc'd
// accumulators (shadow starts at zero), realloc growing a buffer that holds
// active values (the shadow must keep its contents), and free.  (Returning
// a malloc'd array is covered by fwd-return-pointer.c.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* Smooths x with a 3-point stencil `passes` times through a malloc'd
 * buffer; returns the sum of squares of the result. */
double smooth(const double *x, int n, int passes) {
  double *a = (double *)malloc(sizeof(double) * (size_t)n);
  double *b = (double *)malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i)
    a[i] = x[i];
  for (int p = 0; p < passes; ++p) {
    for (int i = 0; i < n; ++i) {
      double l = a[i > 0 ? i - 1 : i], r = a[i < n - 1 ? i + 1 : i];
      b[i] = 0.25 * l + 0.5 * a[i] + 0.25 * r;
    }
    double *t = a;
    a = b;
    b = t;
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  free(a);
  free(b);
  return s;
}

/* calloc'd bins accumulate the input; zero-initialised memory is inactive. */
double binned(double x, int n, int bins) {
  double *h = (double *)calloc((size_t)bins, sizeof(double));
  for (int i = 0; i < n; ++i)
    h[(i * 7) % bins] += sin(x * (i + 1));
  double s = 0.0;
  for (int b = 0; b < bins; ++b)
    s += h[b] * h[b] * (b + 1);
  free(h);
  return s;
}

/* Collects the Newton iterates of sqrt(a) in a buffer grown by realloc. */
double realloc_iterates(double a) {
  int cap = 2, len = 0;
  double *buf = (double *)malloc(sizeof(double) * (size_t)cap);
  double x = a;
  for (int it = 0; it < 12; ++it) {
    if (len == cap) {
      cap *= 2;
      buf = (double *)realloc(buf, sizeof(double) * (size_t)cap);
    }
    x = 0.5 * (x + a / x);
    buf[len++] = x;
  }
  /* Weighted sum of all iterates: the early ones still matter. */
  double s = 0.0;
  for (int i = 0; i < len; ++i)
    s += buf[i] / (i + 1);
  free(buf);
  return s;
}

#define N 12
static int g_passes, g_bins;
static double g_smooth(double *x, void *c) { (void)c; return smooth(x, N, g_passes); }
static double g_binned(double x) { return binned(x, 20, g_bins); }

int main(void) {
  char nm[96];
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = sin(0.8 * i) + 0.1 * i;
    dx[i] = (i % 4) - 1.5;
  }
  volatile int passes[] = {0, 1, 6};
  for (int k = 0; k < 3; ++k) {
    g_passes = passes[k];
    double d = __enzyme_fwddiff((void *)smooth, enzyme_dup, x, dx, N, g_passes);
    snprintf(nm, sizeof nm, "smooth passes=%d fd", g_passes);
    check_close(nm, d, gc_fd_dir(g_smooth, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);
  }
  volatile int bins[] = {1, 3, 8};
  for (int k = 0; k < 3; ++k) {
    g_bins = bins[k];
    double d = __enzyme_fwddiff((void *)binned, enzyme_dup, 0.37, 1.0, 20, g_bins);
    snprintf(nm, sizeof nm, "binned bins=%d fd", g_bins);
    check_close(nm, d, gc_fd(g_binned, 0.37), GC_RTOL_D, GC_ATOL_D);
  }
  const double as[] = {0.3, 2.0, 50.0};
  for (int k = 0; k < 3; ++k) {
    double d = __enzyme_fwddiff((void *)realloc_iterates, enzyme_dup, as[k], 1.0);
    snprintf(nm, sizeof nm, "realloc_iterates(%g) fd", as[k]);
    check_close(nm, d, gc_fd(realloc_iterates, as[k]), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
