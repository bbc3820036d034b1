// Linear algebra kernels, where the tangent is known exactly: y = A x gives
// dy = A dx + dA x; y = A^T x; C = A B gives dC = dA B + A dB; and a
// 3x3 determinant (d det = det * tr(A^-1 dA), Jacobi's formula).  Also the
// outputs' primal values and FD for a non-square case.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define M 5
#define K 7

/* y (m) = A (m x n, row-major) x (n). */
void matvec(const double *A, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

/* y (n) = A^T x, A m x n, accumulating into y column by column. */
void matvec_t(const double *A, const double *x, double *y, int m, int n) {
  for (int j = 0; j < n; ++j)
    y[j] = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      y[j] += A[i * n + j] * x[i];
}

/* C (m x p) = A (m x n) B (n x p). */
void matmul(const double *A, const double *B, double *C, int m, int n, int p) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < p; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k)
        s += A[i * n + k] * B[k * p + j];
      C[i * p + j] = s;
    }
}

double det3(const double *a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}

static void g_matvec(double *p, double *y, void *c) { (void)c; matvec(p, p + M * K, y, M, K); }

int main(void) {
  char nm[96];
  double A[M * K], dA[M * K], x[K], dx[K], y[M], dy[M];
  for (int i = 0; i < M * K; ++i) {
    A[i] = sin(0.37 * i + 0.1);
    dA[i] = cos(0.91 * i);
  }
  for (int j = 0; j < K; ++j) {
    x[j] = 0.5 - 0.2 * j;
    dx[j] = 1.0 / (1.0 + j);
  }
  /* x active only: dy = A dx exactly (same operations, same order). */
  matvec(A, dx, dy, M, K); /* fill dy with the expected value first... */
  double want[M];
  memcpy(want, dy, sizeof want);
  for (int i = 0; i < M; ++i)
    dy[i] = -1.0; /* ...then clobber it. */
  __enzyme_fwddiff((void *)matvec, enzyme_const, A, enzyme_dup, x, dx, enzyme_dup, y, dy, M, K);
  for (int i = 0; i < M; ++i) {
    snprintf(nm, sizeof nm, "matvec (x active) dy[%d] = A dx", i);
    check_close(nm, dy[i], want[i], 1e-14, 1e-15);
  }
  double yref[M];
  matvec(A, x, yref, M, K);
  check_close("matvec primal y[3]", y[3], yref[3], 1e-15, 0.0);

  /* A and x active: dy = dA x + A dx; also FD on the packed [A, x]. */
  double t1[M], t2[M];
  matvec(dA, x, t1, M, K);
  matvec(A, dx, t2, M, K);
  __enzyme_fwddiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_dup, y, dy, M, K);
  double packed[M * K + K], dpacked[M * K + K], fd[M];
  memcpy(packed, A, sizeof A);
  memcpy(packed + M * K, x, sizeof x);
  memcpy(dpacked, dA, sizeof dA);
  memcpy(dpacked + M * K, dx, sizeof dx);
  gc_fd_dir_vec(g_matvec, packed, dpacked, M * K + K, M, NULL, fd);
  for (int i = 0; i < M; ++i) {
    snprintf(nm, sizeof nm, "matvec (A, x active) dy[%d] exact", i);
    check_close(nm, dy[i], t1[i] + t2[i], 1e-13, 1e-14);
    snprintf(nm, sizeof nm, "matvec (A, x active) dy[%d] fd", i);
    check_close(nm, dy[i], fd[i], GC_RTOL_D, GC_ATOL_D);
  }

  /* Transposed product: x has M entries, y has K. */
  double xt[M], dxt[M], yt[K], dyt[K], wt[K];
  for (int i = 0; i < M; ++i) {
    xt[i] = 0.3 * i - 0.4;
    dxt[i] = (i % 2) ? 1.0 : -0.5;
  }
  for (int j = 0; j < K; ++j) {
    dyt[j] = 1e9;
    wt[j] = 0.0;
    for (int i = 0; i < M; ++i)
      wt[j] += A[i * K + j] * dxt[i];
  }
  __enzyme_fwddiff((void *)matvec_t, enzyme_const, A, enzyme_dup, xt, dxt, enzyme_dup, yt, dyt, M,
                   K);
  for (int j = 0; j < K; ++j) {
    snprintf(nm, sizeof nm, "matvec_t dy[%d] = A^T dx", j);
    check_close(nm, dyt[j], wt[j], 1e-14, 1e-15);
  }

  /* Matrix product 3x4 * 4x2. */
  double Am[12], dAm[12], Bm[8], dBm[8], C[6], dC[6], e1[6], e2[6];
  for (int i = 0; i < 12; ++i) {
    Am[i] = 0.1 * i - 0.5;
    dAm[i] = (i % 5) * 0.2;
  }
  for (int i = 0; i < 8; ++i) {
    Bm[i] = 1.0 - 0.25 * i;
    dBm[i] = (i % 3) - 1.0;
  }
  matmul(dAm, Bm, e1, 3, 4, 2);
  matmul(Am, dBm, e2, 3, 4, 2);
  __enzyme_fwddiff((void *)matmul, enzyme_dup, Am, dAm, enzyme_dup, Bm, dBm, enzyme_dup, C, dC, 3,
                   4, 2);
  for (int i = 0; i < 6; ++i) {
    snprintf(nm, sizeof nm, "matmul dC[%d] = dA B + A dB", i);
    check_close(nm, dC[i], e1[i] + e2[i], 1e-14, 1e-14);
  }

  /* Jacobi's formula with dA = A (scaling): d det = 3 det. */
  double a3[9] = {2.0, -1.0, 0.5, 0.3, 1.5, -0.7, 1.1, 0.2, 0.9};
  double da3[9];
  memcpy(da3, a3, sizeof da3);
  double dd = __enzyme_fwddiff((void *)det3, enzyme_dup, a3, da3);
  check_close("det3 d det along A = 3 det", dd, 3.0 * det3(a3), 1e-14, 1e-15);
  /* Along the identity: d det = det tr(A^-1) = sum of the diagonal cofactors. */
  double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  dd = __enzyme_fwddiff((void *)det3, enzyme_dup, a3, eye);
  double cof = (a3[4] * a3[8] - a3[5] * a3[7]) + (a3[0] * a3[8] - a3[2] * a3[6]) +
               (a3[0] * a3[4] - a3[1] * a3[3]);
  check_close("det3 d det along I = tr(adj A)", dd, cof, 1e-14, 1e-15);
  return gradcheck_exit();
}
