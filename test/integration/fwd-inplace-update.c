// Forward mode through arrays overwritten in place: a running prefix
// recurrence, in-place normalisation, an in-place Cholesky factorisation,
// and an in-place sort (tangents must follow the permutation).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 6

/* x[i] <- x[i] * x[i-1] + sin(x[i]): each entry depends on the updated
 * previous one. */
void prefix(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = x[i] * x[i - 1] * 0.5 + sin(x[i]);
}

/* x <- x / |x|. */
void normalize(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  double inv = 1.0 / sqrt(s);
  for (int i = 0; i < n; ++i)
    x[i] *= inv;
}

/* Cholesky in place: the lower triangle of a (row-major n x n) becomes L. */
void cholesky(double *a, int n) {
  for (int j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (int k = 0; k < j; ++k)
      d -= a[j * n + k] * a[j * n + k];
    d = sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (int k = 0; k < j; ++k)
        s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
}

/* Insertion sort in place. */
void sort(double *x, int n) {
  for (int i = 1; i < n; ++i) {
    double v = x[i];
    int j = i - 1;
    while (j >= 0 && x[j] > v) {
      x[j + 1] = x[j];
      --j;
    }
    x[j + 1] = v;
  }
}

static void g_prefix(double *x, double *y, void *c) { (void)c; prefix(x, N); memcpy(y, x, sizeof(double) * N); }
static void g_normalize(double *x, double *y, void *c) { (void)c; normalize(x, N); memcpy(y, x, sizeof(double) * N); }
static void g_chol(double *x, double *y, void *c) { (void)c; cholesky(x, N); memcpy(y, x, sizeof(double) * N * N); }
static void g_sort(double *x, double *y, void *c) { (void)c; sort(x, N); memcpy(y, x, sizeof(double) * N); }

/* Runs the derivative on copies (x0, dx0), compares the updated shadow
 * with the FD of the updated array. */
#define CHECK_INPLACE(fn, gfn, len, x0, dx0)                                   \
  do {                                                                         \
    double x_[len], dx_[len], want_[len];                                      \
    char nm_[64];                                                              \
    memcpy(x_, x0, sizeof x_);                                                 \
    memcpy(dx_, dx0, sizeof dx_);                                              \
    __enzyme_fwddiff((void *)fn, enzyme_dup, x_, dx_, N);                      \
    gc_fd_dir_vec(gfn, x0, dx0, len, len, NULL, want_);                        \
    for (int i_ = 0; i_ < (len); ++i_) {                                       \
      snprintf(nm_, sizeof nm_, #fn " d[%d] fd", i_);                          \
      check_close(nm_, dx_[i_], want_[i_], GC_RTOL_D, GC_ATOL_D);              \
    }                                                                          \
  } while (0)

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  double dx[N] = {0.3, 1.0, -0.5, 0.8, 0.1, -1.2};
  CHECK_INPLACE(prefix, g_prefix, N, x, dx);
  CHECK_INPLACE(normalize, g_normalize, N, x, dx);
  CHECK_INPLACE(sort, g_sort, N, x, dx);

  /* Sorting exactly permutes the tangents along with the values. */
  {
    double xs[N], dxs[N];
    memcpy(xs, x, sizeof xs);
    memcpy(dxs, dx, sizeof dxs);
    __enzyme_fwddiff((void *)sort, enzyme_dup, xs, dxs, N);
    for (int i = 0; i < N; ++i) {
      int src = -1;
      for (int j = 0; j < N; ++j)
        if (x[j] == xs[i])
          src = j;
      char nm[64];
      snprintf(nm, sizeof nm, "sort tangent follows value %d", i);
      check_close(nm, dxs[i], src >= 0 ? dx[src] : 1e300, 0.0, 0.0);
    }
  }

  /* normalize: the tangent is orthogonal to the result. */
  {
    double xn[N], dxn[N], o = 0.0;
    memcpy(xn, x, sizeof xn);
    memcpy(dxn, dx, sizeof dxn);
    __enzyme_fwddiff((void *)normalize, enzyme_dup, xn, dxn, N);
    for (int i = 0; i < N; ++i)
      o += xn[i] * dxn[i];
    check_close("normalize x.dx = 0", o, 0.0, 0.0, 1e-14);
  }

  /* Cholesky of an SPD matrix A = B B^T + n I, direction symmetric. */
  double a[N * N], da[N * N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = i == j ? N : 0.0;
      for (int k = 0; k < N; ++k)
        s += sin(i + 2.0 * k) * sin(j + 2.0 * k);
      a[i * N + j] = s;
      da[i * N + j] = cos(i + j) * 0.5;
    }
  CHECK_INPLACE(cholesky, g_chol, N * N, a, da);
  return gradcheck_exit();
}
