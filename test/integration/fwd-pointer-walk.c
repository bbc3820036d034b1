// Forward mode through pointer-style C: loops that walk a pointer from begin
// to end (pointer induction variables and pointer comparisons), pointer
// differences used as counts, a pointer selected between two active
// buffers, and a pointer-to-pointer (array of row pointers).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 8

/* sum of cube roots of (1 + x^2), walking [begin, end). */
double walk(const double *begin, const double *end) {
  double s = 0.0;
  for (const double *p = begin; p != end; ++p)
    s += cbrt(1.0 + *p * *p);
  return s;
}

/* Copies the positive entries to a scratch buffer by pointer bumping and
 * returns their mean: the count is a pointer difference. */
double mean_positive(const double *x, int n) {
  double buf[N];
  double *out = buf;
  for (const double *p = x; p < x + n; ++p)
    if (*p > 0.0)
      *out++ = *p * *p;
  long count = out - buf;
  double s = 0.0;
  for (double *q = buf; q < out; ++q)
    s += *q;
  return count ? s / (double)count : 0.0;
}

/* Which buffer is read depends on the data; both are active. */
double pick_buffer(const double *a, const double *b, int n) {
  const double *src = a[0] > b[0] ? a : b;
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += src[i] * (i + 1);
  return s * a[n - 1];
}

/* Frobenius norm through an array of row pointers (rows not contiguous). */
double frob(double *const *rows, int m, int n) {
  double s = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      s += rows[i][j] * rows[i][j];
  return sqrt(s);
}

static double g_walk(double *x, void *c) { (void)c; return walk(x, x + N); }
static double g_mean(double *x, void *c) { (void)c; return mean_positive(x, N); }
static double g_pick(double *x, void *c) { (void)c; return pick_buffer(x, x + N, N); }

int main(void) {
  double x[2 * N], dx[2 * N];
  for (int i = 0; i < 2 * N; ++i) {
    x[i] = sin(1.3 * i + 0.2) * 1.5;
    dx[i] = 0.5 + 0.25 * (i % 3) - 0.1 * i;
  }
  double d = __enzyme_fwddiff((void *)walk, enzyme_dup, x, dx, enzyme_dup, x + N, dx + N);
  check_close("walk fd", d, gc_fd_dir(g_walk, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);

  d = __enzyme_fwddiff((void *)mean_positive, enzyme_dup, x, dx, N);
  double s = 0.0;
  int c = 0;
  for (int i = 0; i < N; ++i)
    if (x[i] > 0.0) {
      s += 2.0 * x[i] * dx[i];
      ++c;
    }
  check_close("mean_positive exact", d, s / c, 1e-14, 1e-15);
  check_close("mean_positive fd", d, gc_fd_dir(g_mean, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);

  /* Both orders of the first elements, so each branch of the select runs. */
  for (int k = 0; k < 2; ++k) {
    char nm[64];
    x[0] = k ? 2.0 : -2.0;
    d = __enzyme_fwddiff((void *)pick_buffer, enzyme_dup, x, dx, enzyme_dup, x + N, dx + N, N);
    snprintf(nm, sizeof nm, "pick_buffer (a[0]=%g) fd", x[0]);
    check_close(nm, d, gc_fd_dir(g_pick, x, dx, 2 * N, NULL), GC_RTOL_D, GC_ATOL_D);
  }

  /* Rows 0..2 taken from x at offsets 0, 5, 10; their shadows likewise. */
  double *rows[3] = {x, x + 5, x + 10}, *drows[3] = {dx, dx + 5, dx + 10};
  d = __enzyme_fwddiff((void *)frob, enzyme_dup, rows, drows, 3, 4);
  double f = frob(rows, 3, 4), want = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      want += rows[i][j] * drows[i][j];
  check_close("frob through row pointers exact", d, want / f, 1e-14, 1e-15);
  return gradcheck_exit();
}
