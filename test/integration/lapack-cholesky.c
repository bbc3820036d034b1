// LAPACK's Cholesky routines through the Fortran interface (OpenBLAS's
// dpotrf_, dpotrs_, spotrf_, spotrs_: every argument by pointer, the
// triangle as a character, the status through the last pointer), called from
// the differentiated functions: a factorisation alone (both triangles, both
// letter cases, leading dimensions larger than the matrix), a solve after
// it (two right-hand sides, then one), a solve from a factor passed in and
// overwritten after the call read it, and reverse mode at width 2 against
// two width-1 runs.  potrf reads one triangle of a
// symmetric matrix, so a perturbation of an element there is one of the
// symmetric pair; the other triangle passes through untouched.
// Each case is F: (A, B, C, a) -> (A, B, C after the calls, result), with A,
// B, C enzyme_dup buffers and a an active scalar; blascheck.h checks reverse
// and forward mode against central differences and each other (the
// dot-product test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O2 %itest-flags -Rpass=gpuad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: call of 'dpotrf_': the adjoint reads argument 3 (a matrix) from a copy made before the call: the call overwrites it
// REMARK-DAG: remark: call of 'dpotrs_': the adjoint reads argument 4 (a matrix) from a copy made before the call: code after the call may overwrite it
// A LAPACK routine with no rule (QR): an error naming the routine.
// RUN: not %gpuad-cc -O2 %itest-flags -DQR -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QR
// QR: error: gpuad: cannot differentiate call to 'dgeqrf_': it has no derivative rule

#include <stddef.h>

#define NBUF 3 /* z = (A, B, C, a); F(z) = (A, B, C, result) */
#define NB 36  /* each buffer: a 6 x 6 matrix at most */
#define BC_NAMES "ABC"
#include <blascheck.h>

extern void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
                    int *info, size_t uplo_len);
extern void dpotrs_(const char *uplo, const int *n, const int *nrhs,
                    const double *a, const int *lda, double *b, const int *ldb,
                    int *info);
extern void spotrf_(const char *uplo, const int *n, float *a, const int *lda,
                    int *info);
extern void spotrs_(const char *uplo, const int *n, const int *nrhs,
                    const float *a, const int *lda, float *b, const int *ldb,
                    int *info, size_t uplo_len);
extern double ddot_(const int *n, const double *x, const int *incx,
                    const double *y, const int *incy);
extern float sdot_(const int *n, const float *x, const int *incx,
                   const float *y, const int *incy);

static const int one = 1, two = 2, three = 3, four = 4, five = 5, six = 6;

/* The triangle flags in a variable the compiler cannot see through: each
   is one character, whatever follows it in memory. */
char uplo_flags[] = "UL";

/* A's lower triangle ('L', n 4, lda 5), C's upper one ('u', n 3, lda 4)
   and B's upper 2 x 2 (the flag from memory) factored, their diagonals
   made dominant first. */
double f_potrf(double *A, double *B, double *C, double a) {
  int info;
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0;
  for (int i = 0; i < 3; ++i)
    C[5 * i] += 3.0;
  B[0] += 2.0;
  B[4] += 2.0;
  dpotrf_("L", &four, A, &five, &info, 1);
  dpotrf_("u", &three, C, &four, &info, 1);
  dpotrf_(&uplo_flags[0], &two, B, &three, &info, 1);
  return a * (A[0] * A[6] + C[5] * C[9]) + A[1] * C[4] + B[0] * B[4];
}

/* X = A^-1 B from A's factor ('l'), two right-hand sides (ldb 6); then C's
   ('U') solves one more (B + 20). */
double f_potrs(double *A, double *B, double *C, double a) {
  int info;
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0;
  for (int i = 0; i < 3; ++i)
    C[5 * i] += 3.0;
  dpotrf_("l", &four, A, &five, &info, 1);
  dpotrs_("L", &four, &two, A, &five, B, &six, &info);
  dpotrf_("U", &three, C, &four, &info, 1);
  dpotrs_("U", &three, &one, C, &four, B + 20, &three, &info);
  return a * ddot_(&four, B, &one, B + 6, &one) + B[20] * B[22];
}

/* A solve from a factor passed in (upper, its diagonal made dominant), the
   factor overwritten after the call read it. */
double f_potrs_factor(double *A, double *B, double *C, double a) {
  int info;
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 3.0;
  dpotrs_(&uplo_flags[0], &four, &three, A, &five, B, &four, &info);
  A[6] = a * A[0];
  return ddot_(&six, B, &one, C, &one) + A[6];
}

/* The float spellings: a factorisation and a solve. */
float f_spotrf_spotrs(float *A, float *B, float *C, float a) {
  int info;
  for (int i = 0; i < 3; ++i)
    A[4 * i] += 3.0f;
  spotrf_("U", &three, A, &three, &info);
  spotrs_("U", &three, &two, A, &three, B, &three, &info, 1);
  return a * sdot_(&six, B, &one, C, &one);
}

/* Width 2: a factorisation and a solve, their adjoints per lane. */
void lanes(double *A, double *B, double *C) {
  int info;
  for (int i = 0; i < 4; ++i)
    A[6 * i] += 4.0;
  dpotrf_("L", &four, A, &five, &info, 1);
  dpotrs_("L", &four, &two, A, &five, B, &six, &info);
  C[0] = B[1] * B[7];
}

#ifdef QR
extern void dgeqrf_(const int *m, const int *n, double *a, const int *lda,
                    double *tau, double *work, const int *lwork, int *info);
double f_geqrf(double *A, double *B, double *C, double a) {
  int info, lwork = 36;
  dgeqrf_(&four, &four, A, &four, B, C, &lwork, &info);
  return a * A[5];
}
double qr_gradient(double *A, double *dA, double *B, double *C) {
  return __enzyme_autodiff((void *)f_geqrf, enzyme_dup, A, dA, enzyme_const,
                           B, enzyme_const, C, enzyme_out, 1.0);
}
#endif

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, f_potrf, z, w, v, g);
  BC_RUN(double, f_potrs, z, w, v, g);
  BC_RUN(double, f_potrs_factor, z, w, v, g);
  BC_RUN(float, f_spotrf_spotrs, zf, wf, vf, g);
  BC_CHECK_WIDTH2(lanes);
  return gradcheck_exit();
}
