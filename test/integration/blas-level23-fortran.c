// BLAS levels 2 and 3 through the Fortran interface (OpenBLAS's dgemv_,
// dger_, dgemm_: every argument by pointer, transposes as characters, no
// layout: column major) called from the differentiated functions.  dgemv_
// is declared with gfortran's hidden character lengths, the others without,
// as C callers write them.  Covered: 'N', 'n', 'T', 't', 'C' (a real
// matrix's conjugate transpose is its transpose), leading dimensions larger
// than the matrix, negative increments, alpha active through a pointer to
// the parameter and to a local overwritten after the call, beta active and
// constant, a matrix overwritten after the call read it.
// Each case is F: (A, B, C, a) -> (A, B, C after the call, result), with A,
// B, C enzyme_dup buffers and a an active (enzyme_out) scalar; blascheck.h
// checks reverse and forward mode against central differences and each
// other (the dot-product test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// Remarks number the Fortran spelling's own arguments (no layout):
// RUN: %gpuad-cc -O2 %itest-flags -Rpass=gpuad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: call of 'dgemv_': the adjoint reads argument 5 (a matrix)

#include <stddef.h>

#define NBUF 3 /* z = (A, B, C, a); F(z) = (A, B, C, result) */
#define NB 36  /* each buffer: a 6 x 6 matrix at most */
#define BC_NAMES "ABC"
#include <blascheck.h>

extern void dgemv_(const char *trans, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   const double *x, const int *incx, const double *beta,
                   double *y, const int *incy, size_t trans_len);
extern void dger_(const int *m, const int *n, const double *alpha,
                  const double *x, const int *incx, const double *y,
                  const int *incy, double *a, const int *lda);
extern void dgemm_(const char *transa, const char *transb, const int *m,
                   const int *n, const int *k, const double *alpha,
                   const double *a, const int *lda, const double *b,
                   const int *ldb, const double *beta, double *c,
                   const int *ldc);
extern void dsymv_(const char *uplo, const int *n, const double *alpha,
                   const double *a, const int *lda, const double *x,
                   const int *incx, const double *beta, double *y,
                   const int *incy, size_t uplo_len);
extern void dsyr2_(const char *uplo, const int *n, const double *alpha,
                   const double *x, const int *incx, const double *y,
                   const int *incy, double *a, const int *lda);
extern void dtrmv_(const char *uplo, const char *trans, const char *diag,
                   const int *n, const double *a, const int *lda, double *x,
                   const int *incx, size_t uplo_len, size_t trans_len,
                   size_t diag_len);
extern void dtrsv_(const char *uplo, const char *trans, const char *diag,
                   const int *n, const double *a, const int *lda, double *x,
                   const int *incx);
extern void dsyrk_(const char *uplo, const char *trans, const int *n,
                   const int *k, const double *alpha, const double *a,
                   const int *lda, const double *beta, double *c,
                   const int *ldc);
extern void dtrmm_(const char *side, const char *uplo, const char *transa,
                   const char *diag, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   double *b, const int *ldb);
extern void dtrsm_(const char *side, const char *uplo, const char *transa,
                   const char *diag, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   double *b, const int *ldb, size_t side_len, size_t uplo_len,
                   size_t transa_len, size_t diag_len);
extern void dsymm_(const char *side, const char *uplo, const int *m,
                   const int *n, const double *alpha, const double *a,
                   const int *lda, const double *b, const int *ldb,
                   const double *beta, double *c, const int *ldc);
extern double ddot_(const int *n, const double *x, const int *incx,
                    const double *y, const int *incy);

static const int one = 1, two = 2, three = 3, four = 4, five = 5, six = 6;
static const int minus_one = -1;
static const double half = 0.5, zero = 0.0;

/* y = a A x + 0.5 y; then x' = beta-active A^T y. */
double f_gemv(double *A, double *B, double *C, double a) {
  double b = a * a;
  dgemv_("N", &four, &three, &a, A, &five, B, &two, &half, C, &one, 1);
  dgemv_("t", &four, &three, &a, A, &five, C, &minus_one, &b, B + 10, &three,
         1);
  b = 0.0; /* overwritten after the call read it */
  return ddot_(&three, B + 10, &three, C, &one);
}
/* A += alpha x y^T, alpha through a local; A scaled afterwards. */
double f_ger(double *A, double *B, double *C, double a) {
  double alpha = 0.6 * a;
  dger_(&four, &three, &alpha, B, &one, C, &minus_one, A, &five);
  alpha = 2.0;
  dger_(&two, &two, &alpha, C + 5, &two, B + 5, &one, A + 20, &three);
  return ddot_(&three, A, &five, A + 1, &five);
}
/* Symmetric: y = a A x + 0.5 y from the upper ('U') triangle, then
   A += (x y^T + y x^T) on the lower ('l'). */
double f_symv_syr2(double *A, double *B, double *C, double a) {
  dsymv_("U", &four, &a, A, &five, B, &minus_one, &half, C, &two, 1);
  dsyr2_("l", &three, &a, C, &one, B + 10, &three, A + 20, &four);
  return ddot_(&four, C, &two, C, &two) + ddot_(&six, A + 20, &one, A, &one);
}
/* Triangular: x = op(A) x and x = op(A)^-1 x, 'L'/'u', 't'/'N', 'u'/'n'
   (the diagonal made dominant first). */
double f_trmv_trsv(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0;
  dtrmv_("L", "t", "u", &four, A, &five, B, &minus_one, 1, 1, 1);
  dtrsv_("u", "N", "n", &four, A, &five, B, &two);
  return a * ddot_(&four, B, &two, B, &one) + A[1] * A[5];
}
/* C = a op(A) op(A)^T + beta C on the lower ('L') and upper ('u')
   triangles, 'n' and 'T'. */
double f_syrk(double *A, double *B, double *C, double a) {
  dsyrk_("L", "n", &three, &two, &a, A, &four, &half, C, &four);
  dsyrk_("u", "T", &two, &three, &half, A + 12, &four, &a, C + 20, &three);
  return ddot_(&six, C, &one, C + 20, &one);
}
/* B = a op(A) B from the left ('l') and right ('R'). */
double f_trmm(double *A, double *B, double *C, double a) {
  dtrmm_("l", "U", "t", "N", &three, &two, &a, A, &four, B, &three);
  dtrmm_("R", "l", "N", "u", &two, &three, &half, A + 20, &three, C, &two);
  return ddot_(&six, B, &one, C, &one);
}
/* B = a op(A)^-1 B from the right ('r') and left ('L'), the diagonal made
   dominant first. */
double f_trsm(double *A, double *B, double *C, double a) {
  for (int i = 0; i < 3; ++i)
    A[4 * i] += 3.0;
  dtrsm_("r", "L", "t", "n", &two, &three, &a, A, &three, B, &two, 1, 1, 1,
         1);
  dtrsm_("L", "u", "N", "U", &three, &two, &half, A, &three, C, &four, 1, 1, 1,
         1);
  return ddot_(&six, B, &one, C, &one);
}
/* C = a A B + beta C and a B A + beta C, A symmetric ('U', 'l'). */
double f_symm(double *A, double *B, double *C, double a) {
  dsymm_("L", "U", &three, &two, &a, A, &four, B, &three, &half, C, &three);
  dsymm_("r", "l", &two, &three, &half, A + 20, &three, B + 10, &two, &a,
         C + 10, &two);
  return ddot_(&six, C, &one, C + 10, &one);
}
/* C = a op(A) op(B) + beta C: 'n'/'N', 'T'/'t' and 'C' transposes. */
double f_gemm(double *A, double *B, double *C, double a) {
  dgemm_("n", "N", &three, &two, &four, &a, A, &four, B, &five, &half, C,
         &three);
  dgemm_("T", "n", &three, &two, &four, &half, A + 16, &five, B + 12, &four,
         &a, C + 8, &four);
  dgemm_("N", "t", &three, &two, &four, &a, A, &three, B + 24, &two, &zero,
         C + 18, &three);
  dgemm_("C", "T", &three, &two, &four, &a, A + 16, &four, B + 24, &three,
         &a, C + 26, &three);
  return ddot_(&six, C, &one, C + 18, &one) + a * C[30];
}

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, f_gemv, z, w, v, g);
  BC_RUN(double, f_ger, z, w, v, g);
  BC_RUN(double, f_symv_syr2, z, w, v, g);
  BC_RUN(double, f_trmv_trsv, z, w, v, g);
  BC_RUN(double, f_gemm, z, w, v, g);
  BC_RUN(double, f_syrk, z, w, v, g);
  BC_RUN(double, f_trmm, z, w, v, g);
  BC_RUN(double, f_trsm, z, w, v, g);
  BC_RUN(double, f_symm, z, w, v, g);
  return gradcheck_exit();
}
