// BLAS level 1 through the Fortran interface (OpenBLAS's ddot_, daxpy_,
// dscal_, dnrm2_, dcopy_, dswap_, dasum_: every argument by pointer) called from the differentiated
// functions.  Covered: unit strides, strides 2 and 3, negative increments
// (BLAS walks the vector from its end), n = 0, alpha active through a
// pointer (to a parameter, and to a local overwritten after the call: the
// derivative needs *alpha at the call) and constant (a pointer to a const
// global), a buffer overwritten after dot read it, dot(x, x).
// Each case is F: (x, y, a) -> (x, y after the call, result), x and y
// enzyme_dup buffers, a an active (enzyme_out) scalar; blascheck.h checks
// reverse and forward mode against central differences and each other (the
// dot-product test), with the tolerances it states.
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lopenblas -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lopenblas -lm && %t.O3

#define NBUF 2 /* z = (x, y, a); F(z) = (x, y, result) */
#define NB 16  /* each buffer: room for N elements at stride 3 */
#define BC_NAMES "xy"
#include <blascheck.h>

extern double ddot_(const int *n, const double *x, const int *incx,
                    const double *y, const int *incy);
extern void daxpy_(const int *n, const double *alpha, const double *x,
                   const int *incx, double *y, const int *incy);
extern void dscal_(const int *n, const double *alpha, double *x,
                   const int *incx);
extern double dnrm2_(const int *n, const double *x, const int *incx);
extern void dcopy_(const int *n, const double *x, const int *incx, double *y,
                   const int *incy);
extern void dswap_(const int *n, double *x, const int *incx, double *y,
                   const int *incy);
extern double dasum_(const int *n, const double *x, const int *incx);

#define N 5 /* the length passed to BLAS */

static const int one = 1, two = 2, three = 3, minus_one = -1;
static const double three_quarters = 0.75;

double f_dot(double *x, double *y, double a) { /* x[0..8], y[0..12] */
  int n = N, minus_two = -2;
  return ddot_(&n, x, &one, y, &one) + a * ddot_(&n, x, &two, y, &three) -
         ddot_(&n, x, &minus_two, y + 1, &one);
}
double f_nrm2(double *x, double *y, double a) { /* y scaled after nrm2 */
  int n = N, one = 1, three = 3;
  double r = dnrm2_(&n, y, &three);
  dscal_(&n, &a, y, &three);
  return a * r + dnrm2_(&n, x, &one) * dnrm2_(&n, y, &one);
}
double f_axpy(double *x, double *y, double a) { /* alpha through a local */
  int n = N, minus_two = -2;
  double alpha = a;
  daxpy_(&n, &alpha, x, &two, y, &three);
  alpha = a * a; /* overwritten after the first call read it */
  daxpy_(&n, &alpha, y, &one, x, &minus_two); /* x[8], x[6], ..., x[0] */
  alpha = 0.0;
  return ddot_(&n, x, &one, y, &one);
}
double f_scal_reuse(double *x, double *y, double a) { /* x scaled after dot */
  int n = N;
  double s = ddot_(&n, x, &one, y, &one);
  dscal_(&n, &a, x, &one); /* alpha: the parameter's address */
  dcopy_(&n, x, &two, y + 1, &minus_one); /* y[5] = x[0], ..., y[1] = x[8] */
  return s * ddot_(&n, x, &one, y, &three);
}
double f_const_alias(double *x, double *y, double a) {
  int n = N, zero = 0;
  daxpy_(&n, &three_quarters, x, &minus_one, y + 2, &one); /* alpha const */
  dscal_(&zero, &a, x, &one); /* n = 0: no effect */
  return a * ddot_(&n, y, &one, y, &one) + ddot_(&n, x, &three, x, &three) +
         ddot_(&zero, x, &one, y, &one);
}

double f_swap_asum(double *x, double *y, double a) {
  int n = N;
  dswap_(&n, x, &two, y, &minus_one);
  return a * dasum_(&n, x, &one) + dasum_(&n, y, &three) * y[2];
}

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  bc_inputs(z, w, v, zf, wf, vf);

  BC_RUN(double, f_dot, z, w, v, g);
  BC_RUN(double, f_axpy, z, w, v, g);
  BC_RUN(double, f_scal_reuse, z, w, v, g);
  BC_RUN(double, f_const_alias, z, w, v, g);
  BC_RUN(double, f_nrm2, z, w, v, g);
  BC_RUN(double, f_swap_asum, z, w, v, g);
  return gradcheck_exit();
}
