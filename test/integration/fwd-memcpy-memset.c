// Forward mode through memory intrinsics: memcpy of active data (the shadow
// is copied alongside), memmove within one array, memset zeroing an output
// (its shadow must become zero too), and struct assignment (a memcpy).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 10

/* Copies x into a work buffer, squares it there, copies back out. */
void copy_square(const double *x, double *y, int n) {
  double buf[N];
  memcpy(buf, x, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i)
    buf[i] = buf[i] * buf[i] + 1.0;
  memcpy(y, buf, sizeof(double) * (size_t)n);
}

/* Shift right by k within the array (overlapping: memmove), zero the head
 * with memset, then scale. */
void shift_zero(double *x, int n, int k) {
  memmove(x + k, x, sizeof(double) * (size_t)(n - k));
  memset(x, 0, sizeof(double) * (size_t)k);
  for (int i = 0; i < n; ++i)
    x[i] *= 1.0 + 0.1 * i;
}

/* Zeroes an accumulator with memset, then accumulates into it. */
void histogram(const double *x, int n, double *acc, int bins) {
  memset(acc, 0, sizeof(double) * (size_t)bins);
  for (int i = 0; i < n; ++i)
    acc[i % bins] += x[i] * x[i];
}

/* Struct assignment: a memcpy of a struct with active fields. */
struct state { double q[3]; int step; double e; };
double struct_copy(const struct state *s) {
  struct state t = *s;
  t.q[0] *= t.e;
  t.q[2] += t.q[1] * t.e;
  struct state u;
  u = t;
  return u.q[0] + u.q[1] * u.q[2] + (double)u.step;
}

static void g_copy_square(double *x, double *y, void *c) { (void)c; copy_square(x, y, N); }
static void g_shift_zero(double *x, double *y, void *c) { shift_zero(x, N, *(int *)c); memcpy(y, x, sizeof(double) * N); }
static void g_hist(double *x, double *y, void *c) { (void)c; histogram(x, N, y, 4); }
static struct state g_s, g_ds;
static double g_struct_copy(double t, void *c) {
  struct state s = g_s;
  (void)c;
  for (int i = 0; i < 3; ++i)
    s.q[i] += t * g_ds.q[i];
  s.e += t * g_ds.e;
  return struct_copy(&s);
}

int main(void) {
  char nm[96];
  double x[N], dx[N], y[N], dy[N], want[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 * i - 1.2;
    dx[i] = 1.0 - 0.15 * i;
    dy[i] = 5.0;
  }
  __enzyme_fwddiff((void *)copy_square, enzyme_dup, x, dx, enzyme_dup, y, dy, N);
  for (int i = 0; i < N; ++i) {
    snprintf(nm, sizeof nm, "copy_square dy[%d] exact", i);
    check_close(nm, dy[i], 2.0 * x[i] * dx[i], 1e-15, 1e-15);
  }
  gc_fd_dir_vec(g_copy_square, x, dx, N, N, NULL, want);
  check_close("copy_square dy[7] fd", dy[7], want[7], GC_RTOL_D, GC_ATOL_D);

  for (int k = 1; k <= 3; ++k) {
    double xs[N], dxs[N];
    memcpy(xs, x, sizeof xs);
    memcpy(dxs, dx, sizeof dxs);
    __enzyme_fwddiff((void *)shift_zero, enzyme_dup, xs, dxs, N, k);
    gc_fd_dir_vec(g_shift_zero, x, dx, N, N, &k, want);
    for (int i = 0; i < N; ++i) {
      snprintf(nm, sizeof nm, "shift_zero k=%d d[%d] exact", k, i);
      check_close(nm, dxs[i], i < k ? 0.0 : dx[i - k] * (1.0 + 0.1 * i), 1e-15, 0.0);
      snprintf(nm, sizeof nm, "shift_zero k=%d d[%d] fd", k, i);
      check_close(nm, dxs[i], want[i], GC_RTOL_D, GC_ATOL_D);
    }
  }

  double acc[4], dacc[4] = {-3.0, 4.0, 99.0, 1e10};
  __enzyme_fwddiff((void *)histogram, enzyme_dup, x, dx, N, enzyme_dup, acc, dacc, 4);
  gc_fd_dir_vec(g_hist, x, dx, N, 4, NULL, want);
  for (int b = 0; b < 4; ++b) {
    snprintf(nm, sizeof nm, "histogram dacc[%d] fd", b);
    check_close(nm, dacc[b], want[b], GC_RTOL_D, GC_ATOL_D);
  }

  struct state s = {{0.5, -1.5, 2.0}, 3, 1.25}, ds = {{1.0, 0.25, -0.5}, -999, 0.75};
  g_s = s;
  g_ds = ds;
  double d = __enzyme_fwddiff((void *)struct_copy, enzyme_dup, &s, &ds);
  check_close("struct_copy fd", d, gc_fd_t(g_struct_copy, 0.0, NULL), GC_RTOL_D, GC_ATOL_D);
  check_close("struct_copy leaves input shadow", ds.q[0], 1.0, 0.0, 0.0);
  return gradcheck_exit();
}
