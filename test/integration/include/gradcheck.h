/*===- gradcheck.h - Numeric checks for the integration tests ---*- C/C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Helpers the integration programs use to compare a derivative computed by
 * gpuad against a central finite difference (FD) or an exact analytic value.
 * Usable from C and C++; everything is static inline, so a program includes it
 * once and links nothing.
 *
 *   double fd = gc_fd(f, x);                      // d f / d x at x
 *   check_close("sin'(x)", got, fd, GC_RTOL_D, GC_ATOL_D);
 *   ...
 *   return gradcheck_exit();                      // nonzero if anything failed
 *
 * Finite differences are central: (f(x+h) - f(x-h)) / 2h with
 *   double: h = 1e-6 * max(1, |x|)
 *   float:  h = 1e-3 * max(1, |x|)
 * For a direction through an array, x + t*dx is formed and |x| is the largest
 * |x_i| (gc_fd_dir, gc_fd_dir_vec); for anything else, gc_fd_t differentiates
 * a function of one double t that the test writes itself (build x + t*dx from
 * a context and evaluate).
 *
 * Tolerances (a check passes when |got - want| <= atol + rtol * |want|):
 *   double vs FD       : rtol 1e-6, atol 1e-8   (GC_RTOL_D, GC_ATOL_D)
 *   float  vs FD       : rtol 1e-2, atol 1e-3   (GC_RTOL_F, GC_ATOL_F)
 *   double vs analytic : rtol 1e-12, atol 1e-14 (GC_RTOL_EXACT, GC_ATOL_EXACT)
 *   float  vs analytic : rtol 1e-5, atol 1e-6   (GC_RTOL_EXACTF, GC_ATOL_EXACTF)
 * A NaN or infinite `got` always fails, as does a non-finite `want` unless
 * `got` is bitwise the same kind of value (both NaN, or the same infinity).
 *
 * Every check prints one line, `PASS name got want` or `FAIL name got want
 * (|diff| ... > tol ...)`, so a failing lit run shows what was compared.
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_TEST_GRADCHECK_H
#define GPUAD_TEST_GRADCHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GC_RTOL_D 1e-6
#define GC_ATOL_D 1e-8
#define GC_RTOL_F 1e-2
#define GC_ATOL_F 1e-3
#define GC_RTOL_EXACT 1e-12
#define GC_ATOL_EXACT 1e-14
#define GC_RTOL_EXACTF 1e-5
#define GC_ATOL_EXACTF 1e-6

#ifdef __cplusplus
extern "C" {
#endif

/* Counters shared by all checks of one program. */
static int gc_checks_run;
static int gc_checks_failed;

static inline double gc_step_d(double x) {
  double a = fabs(x);
  return 1e-6 * (a > 1.0 ? a : 1.0);
}

static inline float gc_step_f(float x) {
  float a = fabsf(x);
  return 1e-3f * (a > 1.0f ? a : 1.0f);
}

/* Whether got matches want within atol + rtol*|want|. */
static inline int gc_close(double got, double want, double rtol, double atol) {
  if (isnan(want))
    return isnan(got);
  if (isinf(want))
    return got == want;
  if (!isfinite(got))
    return 0;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* Compares got against want; prints PASS/FAIL and records a failure.
 * Returns 1 when the check passed. */
static inline int check_close(const char *name, double got, double want,
                              double rtol, double atol) {
  int ok = gc_close(got, want, rtol, atol);
  ++gc_checks_run;
  if (ok) {
    printf("PASS %s %.17g %.17g\n", name, got, want);
  } else {
    ++gc_checks_failed;
    printf("FAIL %s %.17g %.17g (|diff| %.3g > tol %.3g)\n", name, got, want,
           fabs(got - want), atol + rtol * fabs(want));
  }
  return ok;
}

/* Records a boolean check (for things that are not numbers: a pointer, a
 * count).  Prints PASS/FAIL name. */
static inline int check_true(const char *name, int cond) {
  ++gc_checks_run;
  if (cond) {
    printf("PASS %s\n", name);
  } else {
    ++gc_checks_failed;
    printf("FAIL %s\n", name);
  }
  return cond != 0;
}

/* Prints the summary line; returns the process exit status (0: all passed). */
static inline int gradcheck_exit(void) {
  if (gc_checks_run == 0) {
    printf("gradcheck: FAILED, no checks were run\n");
    return 1;
  }
  if (gc_checks_failed) {
    printf("gradcheck: FAILED %d of %d checks\n", gc_checks_failed,
           gc_checks_run);
    return 1;
  }
  printf("gradcheck: all %d checks passed\n", gc_checks_run);
  return 0;
}

/* ---- Central finite differences ---------------------------------------- */

/* d f/dx at x, f: double -> double. */
static inline double gc_fd(double (*f)(double), double x) {
  double h = gc_step_d(x);
  return (f(x + h) - f(x - h)) / (2.0 * h);
}

/* d f/dx at x, f: float -> float; evaluated in float, differenced in double. */
static inline double gc_fdf(float (*f)(float), float x) {
  float h = gc_step_f(x);
  volatile float xp = x + h, xm = x - h; /* the steps actually taken */
  return ((double)f(xp) - (double)f(xm)) / ((double)xp - (double)xm);
}

/* d g/dt at t, for a g the test writes itself (ctx carries its data). */
static inline double gc_fd_t(double (*g)(double t, void *ctx), double t,
                             void *ctx) {
  double h = gc_step_d(t);
  return (g(t + h, ctx) - g(t - h, ctx)) / (2.0 * h);
}

/* As gc_fd_t for a float computation: step 1e-3 * max(1, |t|). */
static inline double gc_fd_tf(float (*g)(float t, void *ctx), float t,
                              void *ctx) {
  float h = gc_step_f(t);
  volatile float tp = t + h, tm = t - h;
  return ((double)g(tp, ctx) - (double)g(tm, ctx)) /
         ((double)tp - (double)tm);
}

static inline double gc_max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; ++i)
    if (fabs(x[i]) > m)
      m = fabs(x[i]);
  return m;
}

/* Directional derivative of a scalar function of an array:
 *   (f(x + h dx) - f(x - h dx)) / 2h,  h = 1e-6 * max(1, max_i |x_i|).
 * f gets a scratch copy it may overwrite; x itself is not modified. */
static inline double gc_fd_dir(double (*f)(double *x, void *ctx),
                               const double *x, const double *dx, int n,
                               void *ctx) {
  double h = gc_step_d(gc_max_abs(x, n));
  double *xs = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  double fp, fm;
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] + h * dx[i];
  fp = f(xs, ctx);
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] - h * dx[i];
  fm = f(xs, ctx);
  free(xs);
  return (fp - fm) / (2.0 * h);
}

/* Directional derivative of a vector function y = f(x) (n inputs, m
 * outputs): dy[j] = (y(x + h dx)[j] - y(x - h dx)[j]) / 2h.  f gets scratch
 * copies of x it may overwrite. */
static inline void gc_fd_dir_vec(void (*f)(double *x, double *y, void *ctx),
                                 const double *x, const double *dx, int n,
                                 int m, void *ctx, double *dy) {
  double h = gc_step_d(gc_max_abs(x, n));
  size_t nb = sizeof(double) * (size_t)(n > 0 ? n : 1);
  size_t mb = sizeof(double) * (size_t)(m > 0 ? m : 1);
  double *xs = (double *)malloc(nb);
  double *yp = (double *)malloc(mb);
  double *ym = (double *)malloc(mb);
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] + h * dx[i];
  f(xs, yp, ctx);
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] - h * dx[i];
  f(xs, ym, ctx);
  for (int j = 0; j < m; ++j)
    dy[j] = (yp[j] - ym[j]) / (2.0 * h);
  free(xs);
  free(yp);
  free(ym);
}

/* Float version of gc_fd_dir: step 1e-3 * max(1, max_i |x_i|). */
static inline double gc_fd_dirf(float (*f)(float *x, void *ctx),
                                const float *x, const float *dx, int n,
                                void *ctx) {
  float m = 0.0f, h;
  float *xs = (float *)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  double fp, fm;
  for (int i = 0; i < n; ++i)
    if (fabsf(x[i]) > m)
      m = fabsf(x[i]);
  h = gc_step_f(m);
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] + h * dx[i];
  fp = f(xs, ctx);
  for (int i = 0; i < n; ++i)
    xs[i] = x[i] - h * dx[i];
  fm = f(xs, ctx);
  free(xs);
  return (fp - fm) / (2.0 * (double)h);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUAD_TEST_GRADCHECK_H */
