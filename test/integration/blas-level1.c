// BLAS level 1 through CBLAS (OpenBLAS): cblas_{d,s}{dot,axpy,scal,copy,nrm2,
// swap,asum}
// called from the differentiated functions.  Covered: unit strides, strides
// 2 and 3, negative increments (BLAS walks the vector from its end), n = 0,
// a buffer overwritten after dot/axpy read it (the derivative needs the
// value at the call), aliasing (dot(x, x), axpy(a, x, x), a copy inside one
// buffer), alpha active (a function of the enzyme_out scalar) and constant
// (a literal, and the scalar passed as enzyme_const).
// Each case is F: (x, y, a) -> (x, y after the call, result), x and y
// enzyme_dup buffers, a an active scalar; blascheck.h checks reverse and
// forward mode against central differences and each other (the dot-product
// test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lopenblas -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lopenblas -lm && %t.O3

#include <cblas.h>

#define N 5     /* the length passed to BLAS */
#define NBUF 2  /* z = (x, y, a); F(z) = (x, y, result) */
#define NB 16   /* each buffer: room for N elements at stride 3 */
#define BC_NAMES "xy"
#include <blascheck.h>

/* ---- Double cases -------------------------------------------------------- */

double d_dot(double *x, double *y, double a) { /* x[0..8], y[0..12] */
  return cblas_ddot(N, x, 1, y, 1) + a * cblas_ddot(N, x, 2, y, 3) -
         cblas_ddot(N, x, -1, y + 1, 2);
}
double d_axpy(double *x, double *y, double a) { /* alpha active */
  cblas_daxpy(N, a, x, 2, y, 3);
  cblas_daxpy(N, a * a, y, 1, x, -2); /* writes x[8], x[6], ..., x[0] */
  return cblas_ddot(N, x, 1, y, 1);
}
double d_axpy_const(double *x, double *y, double a) { /* alpha a literal */
  cblas_daxpy(N, 0.75, x, -1, y + 2, 1);
  return a * cblas_ddot(N + 2, y, 1, y, 1);
}
double d_scal_reuse(double *x, double *y, double a) { /* x scaled after dot */
  double s = cblas_ddot(N, x, 1, y, 1);
  cblas_dscal(N, a, x, 1);
  cblas_dscal(N, -0.5, y + 1, 3);
  return s * cblas_ddot(N, x, 1, y, 1);
}
double d_copy(double *x, double *y, double a) { /* y overwritten after dot */
  double s = cblas_ddot(N, x, 2, y, 3);
  cblas_dcopy(N, x, 1, y, -3); /* y[12] = x[0], ..., y[0] = x[4] */
  cblas_dscal(N, a, y, 3);
  return s * y[3];
}
double d_alias(double *x, double *y, double a) {
  double s = cblas_ddot(N, x, 1, x, 1);
  cblas_daxpy(N, a, x, 1, x, 1); /* x = (1 + a) x */
  cblas_dcopy(N, y, 2, y + 11, 1); /* inside one buffer, disjoint */
  return s * cblas_ddot(N - 1, x, 1, x + 1, 1) + cblas_ddot(N, y, 3, y, 3);
}
double d_nrm2(double *x, double *y, double a) { /* x scaled after nrm2 */
  double r = cblas_dnrm2(N, x, 2) + a * cblas_dnrm2(N, y, -3);
  cblas_dscal(N, a, x, 1);
  return r * cblas_dnrm2(N + 1, x, 1);
}
double d_empty(double *x, double *y, double a) { /* n = 0: no effect */
  cblas_daxpy(0, a, x, 1, y, 1);
  cblas_dscal(0, a, x, 1);
  cblas_dcopy(0, x, 1, y, 1);
  return cblas_ddot(0, x, 1, y, 1) + a * x[0] * y[1];
}

double d_swap(double *x, double *y, double a) { /* strides 2 and -1 */
  double c[N] = {0.5, -0.25, 1.5, 2.0, -1.0}; /* a local: active after it */
  cblas_dswap(N, x, 2, y, -1);
  cblas_dswap(N, c, 1, y + 3, 3); /* y[3..15] */
  return a * cblas_ddot(N, c, 1, x, 1) + cblas_ddot(N, y, 1, y, 1);
}
double d_asum(double *x, double *y, double a) { /* x scaled after asum */
  double r = cblas_dasum(N, x, 2) + a * cblas_dasum(N, y + 1, 3) +
             cblas_dasum(N, y, -1); /* a negative increment: 0 */
  cblas_dscal(N, a, x, 1);
  return r * cblas_dasum(N + 1, x, 1);
}

/* ---- Float cases --------------------------------------------------------- */

float s_dot(float *x, float *y, float a) {
  return cblas_sdot(N, x, 1, y, 1) + a * cblas_sdot(N, x, 2, y, 3) -
         cblas_sdot(N, x, -1, y + 1, 2);
}
float s_axpy(float *x, float *y, float a) {
  cblas_saxpy(N, a, x, 2, y, 3);
  cblas_saxpy(N, 0.75f, y, -1, x + 1, 2); /* alpha constant */
  return cblas_sdot(N, x, 1, y, 1);
}
float s_scal_reuse(float *x, float *y, float a) {
  float s = cblas_sdot(N, x, 1, y, 1);
  cblas_sscal(N, a, x, 1);
  cblas_sscal(N, -0.5f, y + 1, 3);
  return s * cblas_sdot(N, x, 1, y, 1);
}
float s_copy_alias(float *x, float *y, float a) {
  float s = cblas_sdot(N, x, 2, x, 2);
  cblas_scopy(N, x, 2, y, -3);
  cblas_sscal(N, a, y, 3);
  return s * cblas_sdot(N, y, 3, y, 3);
}
float s_swap_asum(float *x, float *y, float a) {
  cblas_sswap(N, x, 1, y, 2);
  return a * cblas_sasum(N, x, 1) + cblas_sasum(N, y, 2) * y[1];
}
float s_nrm2(float *x, float *y, float a) {
  float r = cblas_snrm2(N, x, 1);
  cblas_saxpy(N, a, y, 2, x, 1);
  return r + a * cblas_snrm2(N, x, 1);
}

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, d_dot, z, w, v, g);
  BC_RUN(double, d_axpy, z, w, v, g);
  { /* a passed as enzyme_const: the same buffer gradients, no adjoint */
    double x[NB], y[NB], dx[NB], dy[NB];
    for (int i = 0; i < NB; ++i)
      x[i] = z[i], y[i] = z[NB + i], dx[i] = w[i], dy[i] = w[NB + i];
    __enzyme_autodiff((void *)d_axpy, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, z[2 * NB]);
    for (int i = 0; i < NB; ++i) {
      check_close("d_axpy const a: dx", dx[i], g[i], GC_RTOL_DOT, GC_ATOL_DOT);
      check_close("d_axpy const a: dy", dy[i], g[NB + i], GC_RTOL_DOT,
                  GC_ATOL_DOT);
    }
  }
  BC_RUN(double, d_axpy_const, z, w, v, g);
  BC_RUN(double, d_scal_reuse, z, w, v, g);
  BC_RUN(double, d_copy, z, w, v, g);
  BC_RUN(double, d_alias, z, w, v, g);
  BC_RUN(double, d_nrm2, z, w, v, g);
  BC_RUN(double, d_empty, z, w, v, g);
  BC_RUN(double, d_swap, z, w, v, g);
  BC_RUN(double, d_asum, z, w, v, g);

  BC_RUN(float, s_dot, zf, wf, vf, g);
  BC_RUN(float, s_axpy, zf, wf, vf, g);
  BC_RUN(float, s_scal_reuse, zf, wf, vf, g);
  BC_RUN(float, s_copy_alias, zf, wf, vf, g);
  BC_RUN(float, s_nrm2, zf, wf, vf, g);
  BC_RUN(float, s_swap_asum, zf, wf, vf, g);
  return gradcheck_exit();
}
