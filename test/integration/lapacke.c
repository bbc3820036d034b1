// LAPACK through LAPACKE (liblapacke-dev: `LAPACKE_dpotrf`, ...; arguments
// by value, the triangle and transpose as characters, the status returned)
// in both layouts: Cholesky and LU factorisations and solves, row major and
// column major, leading dimensions larger than the matrix, float, and
// reverse mode at width 2.  The derivatives work column major: a row-major
// symmetric matrix's triangle is the other triangle of the same memory, and
// other matrices are transposed into scratch and back.
// Each case is F: (A, B, C, a) -> (A, B, C after the calls, result), with A,
// B, C enzyme_dup buffers and a an active scalar; blascheck.h checks reverse
// and forward mode against central differences and each other (the
// dot-product test), with the tolerances it states.
// REQUIRES: lapacke
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -llapacke -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -llapacke -lopenblas -lm && %t.O2

#include <lapacke.h>
#include <stddef.h>

#define NBUF 3 /* z = (A, B, C, a); F(z) = (A, B, C, result) */
#define NB 36  /* each buffer: a 6 x 6 matrix at most */
#define BC_NAMES "ABC"
#include <blascheck.h>

/* Cholesky, row major: A 4 x 4 (lda 5) from its lower triangle, B 4 x 2
   (ldb 3). */
double f_cholesky_row(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0;
  LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', 4, A, 5);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', 4, 2, A, 5, B, 3);
  return a * (B[0] * B[4] + B[1]) + A[5] * C[0];
}

/* Cholesky, column major: C 3 x 3 (ldc 4) from its upper triangle, B 3 x 2
   (ldb 3); and row major from the upper triangle. */
double f_cholesky_col(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 3; ++i)
    C[5 * i] += 3.0, A[4 * i] += 3.0;
  LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'u', 3, C, 4);
  LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'U', 3, 2, C, 4, B + 20, 3);
  LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', 3, A, 3);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', 3, 1, A, 3, B, 1);
  return a * B[20] * B[24] + B[0] * B[2];
}

/* Entries that make partial pivoting interchange rows: (3, 0) and (2, 1)
   large, of an n x n matrix whose element (i, j) is M[i ri + j cj]. */
static void pivoting(double *M, int ri, int cj) {
  M[3 * ri] += 4.0;
  M[2 * ri + cj] += 3.0;
  M[2 * cj] += 2.5;
  M[ri + 3 * cj] += 2.0;
}

/* LU, row major: A 4 x 4 (lda 5), solves 'N' (B 4 x 2, ldb 2) and 'T' (one
   right-hand side). */
double f_lu_row(double *A, double *B, double *C, double a) {
  lapack_int ipiv[4];
  pivoting(A, 5, 1);
  LAPACKE_dgetrf(LAPACK_ROW_MAJOR, 4, 4, A, 5, ipiv);
  LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', 4, 2, A, 5, ipiv, B, 2);
  LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'T', 4, 1, A, 5, ipiv, B + 10, 1);
  return a * (B[0] * B[7] + B[10]) + B[13] * C[1];
}

/* LU, column major: C 4 x 4 (ldc 5), a transposed solve (B 4 x 3, ldb 6). */
double f_lu_col(double *A, double *B, double *C, double a) {
  lapack_int ipiv[4];
  pivoting(C, 1, 5);
  LAPACKE_dgetrf(LAPACK_COL_MAJOR, 4, 4, C, 5, ipiv);
  LAPACKE_dgetrs(LAPACK_COL_MAJOR, 't', 4, 3, C, 5, ipiv, B, 6);
  return a * B[0] * B[13] + C[6] + A[0];
}

/* The float spellings, row major. */
float f_float_row(float *A, float *B, float *C, float a) {
  lapack_int ipiv[3];
  for (int i = 0; i < 3; ++i)
    A[4 * i] += 3.0f, C[4 * i] += 3.0f;
  A[2] += 2.0f;
  LAPACKE_sgetrf(LAPACK_ROW_MAJOR, 3, 3, A, 3, ipiv);
  LAPACKE_sgetrs(LAPACK_ROW_MAJOR, 'N', 3, 2, A, 3, ipiv, B, 2);
  LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', 3, C, 3);
  LAPACKE_spotrs(LAPACK_ROW_MAJOR, 'L', 3, 1, C, 3, B + 10, 1);
  return a * (B[0] * B[5] + B[10] * B[12]);
}

/* Width 2: a row-major Cholesky solve and LU solve, per lane. */
void lanes(double *A, double *B, double *C) {
  lapack_int ipiv[4];
  for (int i = 0; i < 4; ++i)
    A[5 * i] += 4.0;
  LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', 4, A, 4);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'U', 4, 2, A, 4, B, 2);
  pivoting(C, 4, 1);
  LAPACKE_dgetrf(LAPACK_ROW_MAJOR, 4, 4, C, 4, ipiv);
  LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'T', 4, 2, C, 4, ipiv, B + 10, 2);
}

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, f_cholesky_row, z, w, v, g);
  BC_RUN(double, f_cholesky_col, z, w, v, g);
  BC_RUN(double, f_lu_row, z, w, v, g);
  BC_RUN(double, f_lu_col, z, w, v, g);
  BC_RUN(float, f_float_row, zf, wf, vf, g);
  BC_CHECK_WIDTH2(lanes);
  return gradcheck_exit();
}
