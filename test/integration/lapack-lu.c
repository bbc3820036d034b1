// LAPACK's LU routines through the Fortran interface (OpenBLAS's dgetrf_,
// dgetrs_, sgetrf_, sgetrs_: every argument by pointer, the transpose as a
// character, the row interchanges and the status through pointers), called
// from the differentiated functions: a factorisation that interchanges
// rows, solves after it ('N' with two right-hand sides, 't' with one), the
// interchanges reused by a second factorisation after a solve read them
// (the solve's adjoint reads a copy), the float spellings, and reverse mode
// at width 2 against two width-1 runs.  A matrix
// that is not square stops the derivative with a message.
// Each case is F: (A, B, C, a) -> (A, B, C after the calls, result), with A,
// B, C enzyme_dup buffers and a an active scalar; blascheck.h checks reverse
// and forward mode against central differences and each other (the
// dot-product test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O2 %itest-flags -Rpass=gpuad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: call of 'dgetrs_': the adjoint reads argument 6 (row interchanges) from a copy made before the call: code after the call may overwrite it
// REMARK-DAG: remark: call of 'dgetrs_': the adjoint reads argument 6 (row interchanges) where it is: nothing writes it later
// RUN: %gpuad-cc -O2 %itest-flags -DRECTANGULAR %s -o %t.rect -lopenblas -lm
// RUN: not --crash %t.rect 2>&1 | FileCheck %s --check-prefix=RECT
// RECT: gpuad: the derivative of getrf covers square matrices only (m == n)

#include <stddef.h>

#define NBUF 3 /* z = (A, B, C, a); F(z) = (A, B, C, result) */
#define NB 36  /* each buffer: a 6 x 6 matrix at most */
#define BC_NAMES "ABC"
#include <blascheck.h>

extern void dgetrf_(const int *m, const int *n, double *a, const int *lda,
                    int *ipiv, int *info);
extern void dgetrs_(const char *trans, const int *n, const int *nrhs,
                    const double *a, const int *lda, const int *ipiv,
                    double *b, const int *ldb, int *info, size_t trans_len);
extern void sgetrf_(const int *m, const int *n, float *a, const int *lda,
                    int *ipiv, int *info);
extern void sgetrs_(const char *trans, const int *n, const int *nrhs,
                    const float *a, const int *lda, const int *ipiv, float *b,
                    const int *ldb, int *info);
extern double ddot_(const int *n, const double *x, const int *incx,
                    const double *y, const int *incy);
extern float sdot_(const int *n, const float *x, const int *incx,
                   const float *y, const int *incy);

static const int one = 1, two = 2, three = 3, four = 4, five = 5, six = 6;

/* Entries that make partial pivoting interchange rows (the first column's
   largest entry is in its last row, the second's in the third), well away
   from ties. */
static void pivoting(double *A, int lda) {
  A[3] += 4.0;
  A[lda + 2] += 3.0;
  A[2 * lda] += 2.5;
  A[3 * lda + 1] += 2.0;
}

/* A (4 x 4, lda 5) factored, the factors and interchanges read after. */
double f_getrf(double *A, double *B, double *C, double a) {
  int ipiv[4], info;
  pivoting(A, 5);
  dgetrf_(&four, &four, A, &five, ipiv, &info);
  return a * A[0] * A[6] + A[1] * C[0] + A[15] * ipiv[0];
}

/* Solves after the factorisation: 'N' with two right-hand sides (ldb 6),
   't' with one. */
double f_getrs(double *A, double *B, double *C, double a) {
  int ipiv[4], info;
  pivoting(A, 5);
  dgetrf_(&four, &four, A, &five, ipiv, &info);
  dgetrs_("N", &four, &two, A, &five, ipiv, B, &six, &info, 1);
  dgetrs_("t", &four, &one, A, &five, ipiv, B + 20, &four, &info, 1);
  return a * ddot_(&four, B, &one, B + 6, &one) + B[20] * B[23];
}

/* A Newton-like reuse: the interchanges array holds C's after A's solve
   read it (that solve's adjoint needs A's). */
double f_getrs_reuse(double *A, double *B, double *C, double a) {
  int ipiv[3], info;
  pivoting(A, 4);
  C[1] += 3.0;
  C[5] += 2.0;
  C[8] += 2.5;
  dgetrf_(&three, &three, A, &four, ipiv, &info);
  dgetrs_("N", &three, &one, A, &four, ipiv, B, &three, &info, 1);
  dgetrf_(&three, &three, C, &three, ipiv, &info);
  dgetrs_("T", &three, &two, C, &three, ipiv, B + 10, &three, &info, 1);
  return a * (B[0] * B[12] + B[2]) + B[15];
}

/* The float spellings. */
float f_sgetrf_sgetrs(float *A, float *B, float *C, float a) {
  int ipiv[3], info;
  A[2] += 3.0f;
  A[4] += 2.0f;
  A[6] += 2.5f;
  sgetrf_(&three, &three, A, &three, ipiv, &info);
  sgetrs_("N", &three, &two, A, &three, ipiv, B, &three, &info);
  return a * sdot_(&six, B, &one, C, &one);
}

/* Width 2: a factorisation and a transposed solve, their adjoints per
   lane. */
void lanes(double *A, double *B, double *C) {
  int ipiv[4], info;
  pivoting(A, 5);
  dgetrf_(&four, &four, A, &five, ipiv, &info);
  dgetrs_("T", &four, &two, A, &five, ipiv, B, &six, &info, 1);
  C[0] = B[1] * B[7];
}

#ifdef RECTANGULAR
/* A 4 x 3 factorisation: outside what the derivative covers. */
double f_getrf_tall(double *A, double *B, double *C, double a) {
  int ipiv[3], info;
  dgetrf_(&four, &three, A, &four, ipiv, &info);
  return a * A[0];
}

int main(void) {
  double A[NB] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, dA[NB] = {0};
  double B[NB], dB[NB], C[NB], dC[NB];
  __enzyme_autodiff((void *)f_getrf_tall, enzyme_dup, A, dA, enzyme_dup, B,
                    dB, enzyme_dup, C, dC, enzyme_out, 1.0);
  return 0;
}
#else
int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, f_getrf, z, w, v, g);
  BC_RUN(double, f_getrs, z, w, v, g);
  BC_RUN(double, f_getrs_reuse, z, w, v, g);
  BC_RUN(float, f_sgetrf_sgetrs, zf, wf, vf, g);
  BC_CHECK_WIDTH2(lanes);
  return gradcheck_exit();
}
#endif
