// BLAS levels 2 and 3 through CBLAS (OpenBLAS): cblas_{d,s}{gemv,ger,symv,
// syr2,trmv,trsv,gemm,symm,syrk,trmm,trsm} called from the differentiated
// functions (symm, trmm and trsm from both sides).  Covered:
// column and row major, upper and lower triangles of symmetric and
// triangular matrices (the other triangle, and a unit diagonal, read
// elsewhere: their adjoints must come from there only), unit and non-unit
// diagonals,
// every transpose (gemv: N, T; gemm: NN, NT, TN, TT), leading dimensions
// larger than the matrix, vector increments 2, 3 and negative, alpha and
// beta active (functions of the enzyme_out scalar) and constant, beta = 0
// (C's old value does not matter), an empty matrix (gemv with n = 0 leaves
// y as it is), a matrix and a vector overwritten after the call read them
// (the adjoint needs their values at the call), and a width-2 reverse
// request (two seeds in one call) against two single runs, each checked
// against central differences.
// Each case is F: (A, B, C, a) -> (A, B, C after the call, result), with A,
// B, C enzyme_dup buffers and a an active scalar; blascheck.h checks
// reverse and forward mode against central differences and each other (the
// dot-product test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// The remark of each buffer the adjoint reads: in place, or from a copy
// made before the call, and why.
// RUN: %gpuad-cc -O2 %itest-flags -Rpass=gpuad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: call of 'cblas_dgemv': the adjoint reads argument 6 (a matrix) where it is: nothing writes it later
// REMARK-DAG: remark: call of 'cblas_dgemv': the adjoint reads argument 11 (a vector) from a copy made before the call: the call overwrites it
// REMARK-DAG: remark: call of 'cblas_dgemv': the adjoint reads argument 6 (a matrix) from a copy made before the call: code after the call may overwrite it

#include <cblas.h>

#define NBUF 3 /* z = (A, B, C, a); F(z) = (A, B, C, result) */
#define NB 36  /* each buffer: a 6 x 6 matrix at most */
#define BC_NAMES "ABC"
#include <blascheck.h>

enum { Col = CblasColMajor, Row = CblasRowMajor };
enum { NoT = CblasNoTrans, T = CblasTrans };

/* ---- Double cases -------------------------------------------------------- */

/* y = a A x + 0.5 y, A 4 x 3 (lda 5); then x' = 1.3 A^T y + a x'. */
double d_gemv_col(double *A, double *B, double *C, double a) {
  cblas_dgemv(Col, NoT, 4, 3, a, A, 5, B, 2, 0.5, C, 1);
  cblas_dgemv(Col, T, 4, 3, 1.3, A, 5, C, -1, a, B + 10, 3);
  return cblas_ddot(3, B + 10, 3, C, 1);
}
/* Row major, beta = a * a, the transposed product of an A^T y. */
double d_gemv_row(double *A, double *B, double *C, double a) {
  cblas_dgemv(Row, NoT, 3, 4, 0.7, A, 6, B, 1, a * a, C, 2);
  cblas_dgemv(Row, CblasConjTrans, 3, 4, a, A + 1, 6, C, 2, 0.0, B + 20, -1);
  return a * cblas_ddot(4, B + 20, 1, B + 20, 1);
}
/* A and x overwritten after gemv read them; n = 0 leaves y alone. */
double d_gemv_overwritten(double *A, double *B, double *C, double a) {
  cblas_dgemv(Col, T, 5, 2, a, A, 5, B, 1, 1.5, C, 1);
  cblas_dscal(10, a, A, 1);
  cblas_dcopy(5, C + 10, 1, B, 1);
  cblas_dgemv(Col, NoT, 4, 0, a, A, 4, B, 1, 3.0, C + 20, 1);
  return cblas_ddot(2, C, 1, B, 1) + A[3];
}
/* A += a x y^T, column and row major. */
double d_ger(double *A, double *B, double *C, double a) {
  cblas_dger(Col, 4, 3, a, B, 1, C, 2, A, 5);
  cblas_dger(Row, 3, 5, 0.6, C + 1, -2, B + 3, 1, A + 16, 6);
  return a * A[7];
}
/* y = a A x + 0.5 y, A symmetric from its upper triangle (column major,
   lda 5); then row major from the lower triangle, a negative increment and
   beta active.  A[1] lies in the triangle the first call does not read. */
double d_symv(double *A, double *B, double *C, double a) {
  cblas_dsymv(Col, CblasUpper, 4, a, A, 5, B, 2, 0.5, C, 1);
  cblas_dsymv(Row, CblasLower, 3, 1.2, A + 20, 4, C, -1, a, B + 12, 3);
  return cblas_ddot(3, B + 12, 3, C, 1) + A[1] * A[5];
}
/* A += a (x y^T + y x^T) on the lower triangle (column major), then on the
   upper (row major, a negative increment). */
double d_syr2(double *A, double *B, double *C, double a) {
  cblas_dsyr2(Col, CblasLower, 4, a, B, 1, C, 2, A, 5);
  cblas_dsyr2(Row, CblasUpper, 3, 0.7, C + 1, -2, B + 5, 1, A + 22, 4);
  return cblas_ddot(20, A, 1, A + 1, 1) + a * A[31] + A[26] * A[23];
}
/* x = op(A) x, A triangular: each triangle, transpose and diagonal kind in
   both layouts, increments 1, 2, -1 and 3.  A[1] is below the first
   matrix's diagonal, A[6] on it (unit in the second call). */
double d_trmv(double *A, double *B, double *C, double a) {
  cblas_dtrmv(Col, CblasUpper, NoT, CblasNonUnit, 4, A, 5, B, 1);
  cblas_dtrmv(Col, CblasLower, T, CblasUnit, 4, A, 5, B, 2);
  cblas_dtrmv(Row, CblasUpper, T, CblasNonUnit, 3, A + 22, 4, C, -1);
  cblas_dtrmv(Row, CblasLower, NoT, CblasUnit, 3, A + 22, 4, C + 5, 3);
  return a * cblas_ddot(4, B, 2, B + 1, 1) + cblas_ddot(3, C, -1, C + 5, 3) +
         A[1] * A[6];
}
/* x = op(A)^-1 x: the diagonals made dominant first (a function of A, so
   the solves are well conditioned); each triangle, transpose and diagonal
   kind, both layouts, a negative increment. */
double d_trsv(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0, A[22 + 5 * (i % 3)] += 3.0;
  cblas_dtrsv(Col, CblasLower, NoT, CblasNonUnit, 4, A, 5, B, 1);
  cblas_dtrsv(Col, CblasUpper, T, CblasNonUnit, 4, A, 5, B, 2);
  cblas_dtrsv(Row, CblasLower, T, CblasUnit, 3, A + 22, 4, C, -1);
  cblas_dtrsv(Row, CblasUpper, NoT, CblasNonUnit, 3, A + 22, 4, C + 5, 3);
  return a * cblas_ddot(4, B, 2, B + 1, 1) + cblas_ddot(3, C, -1, C + 5, 3) +
         A[23] * A[22];
}
/* C = a op(A) op(B) + beta C: every transpose, m, n, k = 3, 2, 4. */
double d_gemm_col(double *A, double *B, double *C, double a) {
  cblas_dgemm(Col, NoT, NoT, 3, 2, 4, a, A, 4, B, 5, 0.5, C, 3);
  cblas_dgemm(Col, T, NoT, 3, 2, 4, 1.1, A + 16, 5, B + 12, 4, a, C + 8, 4);
  cblas_dgemm(Col, NoT, T, 3, 2, 4, a, A, 3, B + 24, 2, 0.0, C + 18, 3);
  cblas_dgemm(Col, T, T, 3, 2, 4, -0.9, A + 16, 4, B + 24, 3, 1.0, C + 26, 3);
  return cblas_ddot(6, C, 1, C + 18, 1);
}
/* C = a op(A) op(A)^T + beta C on one triangle: each triangle and
   transpose, both layouts, beta active, constant and 0; C[1] (below the
   first call's triangle) read elsewhere. */
double d_syrk(double *A, double *B, double *C, double a) {
  cblas_dsyrk(Col, CblasUpper, NoT, 3, 2, a, A, 4, 0.5, C, 4);
  cblas_dsyrk(Col, CblasLower, T, 3, 4, 1.3, A + 10, 5, a, C + 14, 3);
  cblas_dsyrk(Row, CblasUpper, T, 3, 2, a, B, 4, 0.0, C + 24, 3);
  cblas_dsyrk(Row, CblasLower, NoT, 2, 3, -0.7, B + 12, 3, 1.0, B + 20, 2);
  return cblas_ddot(12, C, 1, C + 14, 1) + cblas_ddot(9, C + 24, 1, B + 10, 1) +
         C[1] * B[21];
}
/* B = a op(A) B (left) or a B op(A) (right), A triangular: each side,
   triangle, transpose and diagonal kind, both layouts; A[1], below the
   first call's triangle, read elsewhere; A[8], in its last column (m x m,
   m > n), overwritten after it. */
double d_trmm(double *A, double *B, double *C, double a) {
  cblas_dtrmm(Col, CblasLeft, CblasUpper, NoT, CblasNonUnit, 3, 2, a, A, 4, B,
              4);
  A[8] = 2.0 * A[8];
  cblas_dtrmm(Col, CblasRight, CblasLower, T, CblasUnit, 3, 2, 1.3, A + 12, 3,
              B + 10, 3);
  cblas_dtrmm(Row, CblasLeft, CblasLower, T, CblasNonUnit, 2, 3, a, A + 20, 3,
              C, 4);
  cblas_dtrmm(Row, CblasRight, CblasUpper, NoT, CblasUnit, 2, 3, -0.6, A + 26,
              3, C + 10, 3);
  return cblas_ddot(8, B, 1, B + 10, 1) + a * cblas_ddot(8, C, 1, C + 10, 1) +
         A[1] * A[13];
}
/* B = a op(A)^-1 B (left) or a B op(A)^-1 (right): the diagonals made
   dominant first; each side, triangle, transpose and diagonal kind, both
   layouts, A overwritten after the first call. */
double d_trsm(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 3; ++i)
    A[5 * i] += 3.0, A[12 + 4 * i] += 3.0, A[20 + 4 * i] += 3.0;
  cblas_dtrsm(Col, CblasLeft, CblasLower, T, CblasNonUnit, 3, 2, a, A, 4, B,
              4);
  A[2] = 0.5 * A[2];
  cblas_dtrsm(Col, CblasRight, CblasUpper, NoT, CblasNonUnit, 3, 2, 1.3,
              A + 12, 3, B + 10, 3);
  cblas_dtrsm(Row, CblasLeft, CblasUpper, NoT, CblasUnit, 2, 3, a, A + 20, 3,
              C, 4);
  cblas_dtrsm(Row, CblasRight, CblasLower, T, CblasNonUnit, 2, 3, -0.6,
              A + 20, 3, C + 10, 3);
  return cblas_ddot(8, B, 1, B + 10, 1) + a * cblas_ddot(8, C, 1, C + 10, 1) +
         A[4] * A[13];
}
/* C = a A B + beta C (left) or a B A + beta C (right), A symmetric from
   one triangle: each side and triangle, both layouts, beta active,
   constant and 0; A[1], in the triangle the first call does not read,
   read elsewhere, and B overwritten after the first call. */
double d_symm(double *A, double *B, double *C, double a) {
  cblas_dsymm(Col, CblasLeft, CblasUpper, 3, 2, a, A, 4, B, 4, 0.5, C, 3);
  B[1] = 2.0 * B[1];
  cblas_dsymm(Col, CblasRight, CblasLower, 3, 2, 1.3, A + 12, 3, B + 10, 3, a,
              C + 10, 4);
  cblas_dsymm(Row, CblasLeft, CblasLower, 2, 3, a, A + 20, 3, B + 20, 4, 0.0,
              C + 20, 3);
  cblas_dsymm(Row, CblasRight, CblasUpper, 2, 3, -0.6, A + 24, 3, B, 3, 1.0,
              C + 28, 3);
  return cblas_ddot(8, C, 1, C + 10, 1) + a * cblas_ddot(8, C + 20, 1, C + 27, 1) +
         A[1] * A[4];
}
/* Row major, A overwritten after the call, C read again. */
double d_gemm_row(double *A, double *B, double *C, double a) {
  cblas_dgemm(Row, NoT, T, 2, 3, 4, a, A, 5, B, 4, a * a, C, 4);
  cblas_dscal(10, 0.5, A, 1);
  cblas_dgemm(Row, T, NoT, 2, 3, 2, 0.8, A, 3, C, 4, a, C + 20, 3);
  return cblas_ddot(6, C + 20, 1, C + 20, 1);
}

/* ---- Float cases --------------------------------------------------------- */

float s_gemv(float *A, float *B, float *C, float a) {
  cblas_sgemv(Col, T, 4, 3, a, A, 4, B, 2, a, C, 1);
  cblas_sger(Row, 2, 3, a, C, 1, B, 1, A + 20, 4);
  return cblas_sdot(3, C, 1, C, 1);
}
float s_symv_syr2(float *A, float *B, float *C, float a) {
  cblas_ssymv(Col, CblasLower, 3, a, A, 4, B, 1, 0.25f, C, 1);
  cblas_ssyr2(Row, CblasLower, 3, a, C, 1, B + 4, 2, A + 20, 3);
  return cblas_sdot(9, A + 20, 1, A + 20, 1) + cblas_sdot(3, C, 1, C, 1);
}
float s_trmv_trsv(float *A, float *B, float *C, float a) {
  for (int i = 0; i < 3; ++i)
    A[5 * i] += 3.0f;
  cblas_strmv(Col, CblasUpper, T, CblasUnit, 3, A, 4, B, 1);
  cblas_strsv(Row, CblasUpper, NoT, CblasNonUnit, 3, A, 4, B, 2);
  return a * cblas_sdot(5, B, 1, B, 1);
}
float s_trmm(float *A, float *B, float *C, float a) {
  cblas_strmm(Row, CblasRight, CblasLower, T, CblasNonUnit, 2, 3, a, A, 3, B,
              3);
  cblas_strmm(Col, CblasLeft, CblasUpper, T, CblasUnit, 2, 3, a, A + 10, 2,
              B + 10, 2);
  return cblas_sdot(6, B, 1, B + 10, 1);
}
float s_trsm(float *A, float *B, float *C, float a) {
  for (int i = 0; i < 3; ++i)
    A[4 * i] += 3.0f;
  cblas_strsm(Row, CblasRight, CblasUpper, T, CblasNonUnit, 2, 3, a, A, 3, B,
              3);
  cblas_strsm(Col, CblasLeft, CblasLower, NoT, CblasUnit, 3, 2, a, A, 3,
              B + 10, 3);
  return cblas_sdot(6, B, 1, B + 10, 1);
}
float s_symm(float *A, float *B, float *C, float a) {
  cblas_ssymm(Row, CblasRight, CblasLower, 2, 3, a, A, 3, B, 3, a, C, 3);
  cblas_ssymm(Col, CblasLeft, CblasUpper, 2, 3, a, A + 10, 2, B + 10, 2, 0.5f,
              C + 10, 2);
  return cblas_sdot(6, C, 1, C + 10, 1);
}
float s_syrk(float *A, float *B, float *C, float a) {
  cblas_ssyrk(Row, CblasLower, T, 3, 2, a, A, 3, a, C, 3);
  return cblas_sdot(9, C, 1, C, 1);
}
float s_gemm(float *A, float *B, float *C, float a) {
  cblas_sgemm(Col, T, NoT, 3, 2, 4, a, A, 4, B, 4, 0.25f, C, 3);
  cblas_sgemm(Row, NoT, T, 2, 2, 3, 0.5f, C, 3, A + 20, 3, a, B + 20, 2);
  return cblas_sdot(4, B + 20, 1, B + 20, 1);
}

/* ---- Width 2 ------------------------------------------------------------- */

/* alpha and beta read from memory (their adjoints come back per lane). */
void lanes(double *A, double *B, double *C) {
  cblas_dgemv(Row, T, 3, 4, B[0], A, 4, B + 1, 2, A[30], C, 1);
  cblas_dgemm(Col, NoT, T, 2, 3, 2, C[1], A + 12, 2, B + 10, 3, 0.5, C + 10, 2);
  cblas_dsymv(Col, CblasUpper, 3, A[31], A + 24, 3, C + 2, 2, 0.5, B + 30, 1);
  cblas_dtrmv(Row, CblasLower, T, CblasNonUnit, 3, A + 24, 3, C + 20, 1);
  cblas_dsyrk(Col, CblasLower, NoT, 2, 3, C[3], B + 20, 2, 0.5, A + 6, 2);
  cblas_dscal(4, 0.5, A, 1);
}

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, d_gemv_col, z, w, v, g);
  BC_RUN(double, d_gemv_row, z, w, v, g);
  BC_RUN(double, d_gemv_overwritten, z, w, v, g);
  BC_RUN(double, d_ger, z, w, v, g);
  BC_RUN(double, d_symv, z, w, v, g);
  BC_RUN(double, d_syr2, z, w, v, g);
  BC_RUN(double, d_trmv, z, w, v, g);
  BC_RUN(double, d_trsv, z, w, v, g);
  BC_RUN(double, d_gemm_col, z, w, v, g);
  BC_RUN(double, d_gemm_row, z, w, v, g);
  BC_RUN(double, d_syrk, z, w, v, g);
  BC_RUN(double, d_symm, z, w, v, g);
  BC_RUN(double, d_trmm, z, w, v, g);
  BC_RUN(double, d_trsm, z, w, v, g);
  BC_RUN(float, s_gemv, zf, wf, vf, g);
  BC_RUN(float, s_symv_syr2, zf, wf, vf, g);
  BC_RUN(float, s_trmv_trsv, zf, wf, vf, g);
  BC_RUN(float, s_gemm, zf, wf, vf, g);
  BC_RUN(float, s_syrk, zf, wf, vf, g);
  BC_RUN(float, s_symm, zf, wf, vf, g);
  BC_RUN(float, s_trmm, zf, wf, vf, g);
  BC_RUN(float, s_trsm, zf, wf, vf, g);
  BC_CHECK_WIDTH2(lanes);
  return gradcheck_exit();
}
