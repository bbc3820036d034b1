// BLAS level 1 through CBLAS (OpenBLAS): cblas_{d,s}{dot,axpy,scal,copy,nrm2}
// called from the differentiated functions.  Covered: unit strides, strides
// 2 and 3, negative increments (BLAS walks the vector from its end), n = 0,
// a buffer overwritten after dot/axpy read it (the derivative needs the
// value at the call), aliasing (dot(x, x), axpy(a, x, x), a copy inside one
// buffer), alpha active (a function of the enzyme_out scalar) and constant
// (a literal, and the scalar passed as enzyme_const).
// Each case is F: (x, y, a) -> (x, y after the call, result), with x and y
// enzyme_dup buffers and a an active scalar.  Reverse mode gives J^T w (the
// buffers' shadows seeded with w, the result with 1), forward mode J v;
// checked against central differences (reverse: every component of J^T w;
// forward: every component of J v), and by the dot-product test
// <w, J v> = <J^T w, v>.  Tolerances: double vs FD GC_RTOL_D/GC_ATOL_D
// (1e-6, 1e-8, step 1e-6 * max(1, max |z|)); float vs FD GC_RTOL_F/GC_ATOL_F
// (1e-2, 1e-3, step 1e-3 * max(1, max |z|)); the dot-product test: double
// GC_RTOL_DOT/GC_ATOL_DOT (1e-10, 1e-12), float 1e-4 (atol 1e-5).
// REQUIRES: openblas
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lopenblas -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lopenblas -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lopenblas -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lopenblas -lm && %t.O3

#include <cblas.h>
#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 5              /* the length passed to BLAS */
#define NB 16            /* each buffer: room for N elements at stride 3 */
#define NZ (2 * NB + 1)  /* z = (x, y, a); F(z) = (x, y, result) */
#define DOT_RTOL_F 1e-4
#define DOT_ATOL_F 1e-5

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
float s_nrm2(float *x, float *y, float a) {
  float r = cblas_snrm2(N, x, 1);
  cblas_saxpy(N, a, y, 2, x, 1);
  return r + a * cblas_snrm2(N, x, 1);
}

/* ---- Harness ------------------------------------------------------------- */

typedef void (*anyfn)(void);

/* out = F(z), evaluated in the case's precision. */
static void eval(anyfn f, int fl, const double *z, double *out) {
  double xd[NB], yd[NB];
  float xf[NB], yf[NB];
  for (int i = 0; i < NB; ++i) {
    xd[i] = z[i], yd[i] = z[NB + i];
    xf[i] = (float)z[i], yf[i] = (float)z[NB + i];
  }
  if (fl)
    out[2 * NB] = ((float (*)(float *, float *, float))f)(xf, yf, (float)z[2 * NB]);
  else
    out[2 * NB] = ((double (*)(double *, double *, double))f)(xd, yd, z[2 * NB]);
  for (int i = 0; i < NB; ++i) {
    out[i] = fl ? xf[i] : xd[i];
    out[NB + i] = fl ? yf[i] : yd[i];
  }
}

/* dy = the central difference of F at z0 along e_j (j >= 0) or along d
 * (j < 0), divided by the step actually taken in F's precision. */
static void fd(anyfn f, int fl, const double *z0, int j, const double *d,
               double *dy) {
  double zp[NZ], zm[NZ], op[NZ], om[NZ], step;
  double h = (fl ? 1e-3 : 1e-6) * fmax(1.0, gc_max_abs(z0, NZ));
  for (int i = 0; i < NZ; ++i) {
    double di = j < 0 ? d[i] : i == j;
    zp[i] = z0[i] + h * di, zm[i] = z0[i] - h * di;
    if (fl)
      zp[i] = (float)zp[i], zm[i] = (float)zm[i];
  }
  step = j < 0 ? 2 * h : zp[j] - zm[j];
  eval(f, fl, zp, op);
  eval(f, fl, zm, om);
  for (int i = 0; i < NZ; ++i)
    dy[i] = (op[i] - om[i]) / step;
}

/* Component j of z ("x[3]", "y[0]", "a") or of F(z) ("result" last). */
static void name_of(char *buf, size_t size, int j, const char *last) {
  if (j == 2 * NB)
    snprintf(buf, size, "%s", last);
  else
    snprintf(buf, size, "%s[%d]", j < NB ? "x" : "y", j % NB);
}

/* g = J^T w (reverse), jv = J v (forward), against FD and each other. */
static void check_case(const char *name, anyfn f, int fl, const double *z0,
                       const double *w, const double *v, const double *g,
                       const double *jv) {
  double rtol = fl ? GC_RTOL_F : GC_RTOL_D, atol = fl ? GC_ATOL_F : GC_ATOL_D;
  double dy[NZ];
  char label[96], part[16];
  for (int j = 0; j < NZ; ++j) { /* g[j] = d/dt <w, F(z0 + t e_j)> */
    fd(f, fl, z0, j, NULL, dy);
    name_of(part, sizeof part, j, "a");
    snprintf(label, sizeof label, "%s rev d/d%s", name, part);
    check_close(label, g[j], gc_dot(w, dy, NZ), rtol, atol);
  }
  fd(f, fl, z0, -1, v, dy);
  for (int i = 0; i < NZ; ++i) {
    name_of(part, sizeof part, i, "result");
    snprintf(label, sizeof label, "%s fwd tangent of %s", name, part);
    check_close(label, jv[i], dy[i], rtol, atol);
  }
  snprintf(label, sizeof label, "%s <w,Jv> = <J^T w,v>", name);
  check_close(label, gc_dot(w, jv, NZ), gc_dot(g, v, NZ),
              fl ? DOT_RTOL_F : GC_RTOL_DOT, fl ? DOT_ATOL_F : GC_ATOL_DOT);
}

/* Both modes of fn (T: its precision) at z0 with weights w, direction v;
 * the (x, y, a) parts of J^T w are left in g. */
#define RUN(T, fn, z0, w, v, g)                                                \
  do {                                                                         \
    T x_[NB], y_[NB], dx_[NB], dy_[NB];                                        \
    double jv_[NZ];                                                            \
    for (int i_ = 0; i_ < NB; ++i_) {                                          \
      x_[i_] = (T)z0[i_], y_[i_] = (T)z0[NB + i_];                             \
      dx_[i_] = (T)w[i_], dy_[i_] = (T)w[NB + i_];                             \
    }                                                                          \
    g[2 * NB] = __enzyme_autodiff((void *)fn, enzyme_dup, x_, dx_, enzyme_dup, \
                                  y_, dy_, enzyme_out, (T)z0[2 * NB]);         \
    for (int i_ = 0; i_ < NB; ++i_) {                                          \
      g[i_] = dx_[i_], g[NB + i_] = dy_[i_];                                   \
      x_[i_] = (T)z0[i_], y_[i_] = (T)z0[NB + i_];                             \
      dx_[i_] = (T)v[i_], dy_[i_] = (T)v[NB + i_];                             \
    }                                                                          \
    jv_[2 * NB] = __enzyme_fwddiff((void *)fn, enzyme_dup, x_, dx_,            \
                                   enzyme_dup, y_, dy_, enzyme_dup,            \
                                   (T)z0[2 * NB], (T)v[2 * NB]);               \
    for (int i_ = 0; i_ < NB; ++i_)                                            \
      jv_[i_] = dx_[i_], jv_[NB + i_] = dy_[i_];                               \
    check_case(#fn, (anyfn)fn, sizeof(T) == 4, z0, w, v, g, jv_);              \
  } while (0)

int main(void) {
  double z[NZ], w[NZ], v[NZ], zf[NZ], wf[NZ], vf[NZ], g[NZ];
  gc_direction(z, NZ, 0);
  z[2 * NB] = 0.8; /* a: away from BLAS's special alphas 0 and 1 */
  gc_direction(w, NZ, 2);
  w[2 * NB] = 1.0; /* reverse mode seeds the result with 1 */
  gc_direction(v, NZ, 1);
  for (int i = 0; i < NZ; ++i) /* the same vectors, exact in float */
    zf[i] = (float)z[i], wf[i] = (float)w[i], vf[i] = (float)v[i];

  RUN(double, d_dot, z, w, v, g);
  RUN(double, d_axpy, z, w, v, g);
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
  RUN(double, d_axpy_const, z, w, v, g);
  RUN(double, d_scal_reuse, z, w, v, g);
  RUN(double, d_copy, z, w, v, g);
  RUN(double, d_alias, z, w, v, g);
  RUN(double, d_nrm2, z, w, v, g);
  RUN(double, d_empty, z, w, v, g);

  RUN(float, s_dot, zf, wf, vf, g);
  RUN(float, s_axpy, zf, wf, vf, g);
  RUN(float, s_scal_reuse, zf, wf, vf, g);
  RUN(float, s_copy_alias, zf, wf, vf, g);
  RUN(float, s_nrm2, zf, wf, vf, g);
  return gradcheck_exit();
}
