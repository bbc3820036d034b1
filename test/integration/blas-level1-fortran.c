// BLAS level 1 through the Fortran interface (OpenBLAS's ddot_, daxpy_,
// dscal_, dnrm2_, dcopy_: every argument by pointer) called from the differentiated
// functions.  Covered: unit strides, strides 2 and 3, negative increments
// (BLAS walks the vector from its end), n = 0, alpha active through a
// pointer (to a parameter, and to a local overwritten after the call: the
// derivative needs *alpha at the call) and constant (a pointer to a const
// global), a buffer overwritten after dot read it, dot(x, x).
// Each case is F: (x, y, a) -> (x, y after the call, result), with x and y
// enzyme_dup buffers and a an active (enzyme_out) scalar.  Reverse mode
// gives J^T w (the buffers' shadows seeded with w, the result with 1),
// forward mode J v; checked against central differences (every component of
// J^T w and of J v; GC_RTOL_D/GC_ATOL_D = 1e-6/1e-8, step
// 1e-6 * max(1, max |z|)) and by the dot-product test <w, J v> = <J^T w, v>
// (GC_RTOL_DOT/GC_ATOL_DOT = 1e-10/1e-12).
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lopenblas -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lopenblas -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

extern double ddot_(const int *n, const double *x, const int *incx,
                    const double *y, const int *incy);
extern void daxpy_(const int *n, const double *alpha, const double *x,
                   const int *incx, double *y, const int *incy);
extern void dscal_(const int *n, const double *alpha, double *x,
                   const int *incx);
extern double dnrm2_(const int *n, const double *x, const int *incx);
extern void dcopy_(const int *n, const double *x, const int *incx, double *y,
                   const int *incy);

#define N 5              /* the length passed to BLAS */
#define NB 16            /* each buffer: room for N elements at stride 3 */
#define NZ (2 * NB + 1)  /* z = (x, y, a); F(z) = (x, y, result) */

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

/* ---- Harness ------------------------------------------------------------- */

typedef double (*case_fn)(double *x, double *y, double a);

/* out = F(z). */
static void eval(case_fn f, const double *z, double *out) {
  double x[NB], y[NB];
  memcpy(x, z, sizeof x);
  memcpy(y, z + NB, sizeof y);
  out[2 * NB] = f(x, y, z[2 * NB]);
  memcpy(out, x, sizeof x);
  memcpy(out + NB, y, sizeof y);
}

/* dy = the central difference of F at z0 along d. */
static void fd(case_fn f, const double *z0, const double *d, double *dy) {
  double zp[NZ], zm[NZ], op[NZ], om[NZ];
  double h = 1e-6 * fmax(1.0, gc_max_abs(z0, NZ));
  for (int i = 0; i < NZ; ++i)
    zp[i] = z0[i] + h * d[i], zm[i] = z0[i] - h * d[i];
  eval(f, zp, op);
  eval(f, zm, om);
  for (int i = 0; i < NZ; ++i)
    dy[i] = (op[i] - om[i]) / (2 * h);
}

/* Component j of z ("x[3]", "y[0]", "a") or of F(z) ("result" last). */
static void name_of(char *buf, size_t size, int j, const char *last) {
  if (j == 2 * NB)
    snprintf(buf, size, "%s", last);
  else
    snprintf(buf, size, "%s[%d]", j < NB ? "x" : "y", j % NB);
}

/* g = J^T w (reverse), jv = J v (forward), against FD and each other. */
static void check_case(const char *name, case_fn f, const double *z0,
                       const double *w, const double *v, const double *g,
                       const double *jv) {
  double e[NZ] = {0}, dy[NZ];
  char label[96], part[16];
  for (int j = 0; j < NZ; ++j) { /* g[j] = d/dt <w, F(z0 + t e_j)> */
    e[j] = 1.0;
    fd(f, z0, e, dy);
    e[j] = 0.0;
    name_of(part, sizeof part, j, "a");
    snprintf(label, sizeof label, "%s rev d/d%s", name, part);
    check_close(label, g[j], gc_dot(w, dy, NZ), GC_RTOL_D, GC_ATOL_D);
  }
  fd(f, z0, v, dy);
  for (int i = 0; i < NZ; ++i) {
    name_of(part, sizeof part, i, "result");
    snprintf(label, sizeof label, "%s fwd tangent of %s", name, part);
    check_close(label, jv[i], dy[i], GC_RTOL_D, GC_ATOL_D);
  }
  snprintf(label, sizeof label, "%s <w,Jv> = <J^T w,v>", name);
  check_close(label, gc_dot(w, jv, NZ), gc_dot(g, v, NZ), GC_RTOL_DOT,
              GC_ATOL_DOT);
}

/* Both modes of fn at z0 with weights w and direction v. */
#define RUN(fn, z0, w, v)                                                      \
  do {                                                                         \
    double x_[NB], y_[NB], dx_[NB], dy_[NB], g_[NZ], jv_[NZ];                  \
    memcpy(x_, z0, sizeof x_), memcpy(y_, z0 + NB, sizeof y_);                 \
    memcpy(dx_, w, sizeof dx_), memcpy(dy_, w + NB, sizeof dy_);               \
    g_[2 * NB] = __enzyme_autodiff((void *)fn, enzyme_dup, x_, dx_,            \
                                   enzyme_dup, y_, dy_, enzyme_out,            \
                                   z0[2 * NB]);                                \
    memcpy(g_, dx_, sizeof dx_), memcpy(g_ + NB, dy_, sizeof dy_);             \
    memcpy(x_, z0, sizeof x_), memcpy(y_, z0 + NB, sizeof y_);                 \
    memcpy(dx_, v, sizeof dx_), memcpy(dy_, v + NB, sizeof dy_);               \
    jv_[2 * NB] = __enzyme_fwddiff((void *)fn, enzyme_dup, x_, dx_,            \
                                   enzyme_dup, y_, dy_, enzyme_dup,            \
                                   z0[2 * NB], v[2 * NB]);                     \
    memcpy(jv_, dx_, sizeof dx_), memcpy(jv_ + NB, dy_, sizeof dy_);           \
    check_case(#fn, fn, z0, w, v, g_, jv_);                                    \
  } while (0)

int main(void) {
  double z[NZ], w[NZ], v[NZ];
  gc_direction(z, NZ, 0);
  z[2 * NB] = 0.8; /* a: away from BLAS's special alphas 0 and 1 */
  gc_direction(w, NZ, 2);
  w[2 * NB] = 1.0; /* reverse mode seeds the result with 1 */
  gc_direction(v, NZ, 1);

  RUN(f_dot, z, w, v);
  RUN(f_axpy, z, w, v);
  RUN(f_scal_reuse, z, w, v);
  RUN(f_const_alias, z, w, v);
  RUN(f_nrm2, z, w, v);
  return gradcheck_exit();
}
