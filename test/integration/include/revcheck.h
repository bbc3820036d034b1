/*===- revcheck.h - Checks for reverse-mode integration tests ---*- C/C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Reverse mode computes w^T J (a vector-Jacobian product) of y = F(x); these
 * helpers check one against
 *   - central finite differences: component j is d/dt <w, F(x + t e_j)>,
 *     compared with gradcheck.h's double-vs-FD tolerance (rtol 1e-6,
 *     atol 1e-8);
 *   - forward mode, by the dot-product test <J v, w> = <v, J^T w>: both sides
 *     are derivatives gpuad computed, so they agree to rounding
 *     (rtol 1e-10, atol 1e-12);
 *   - N single runs, for a batched (width N) result (rtol 1e-13,
 *     atol 1e-15: the same operations, possibly vectorised differently).
 *
 * F is written as `void F(double *x, double *y, void *ctx)` (x may be
 * overwritten: it is a scratch copy), so one harness serves scalar
 * functions (m = 1), vector functions and in-place updates.
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_TEST_REVCHECK_H
#define GPUAD_TEST_REVCHECK_H

#include "gradcheck.h"

#define GC_RTOL_DOT 1e-10
#define GC_ATOL_DOT 1e-12
#define GC_RTOL_LANES 1e-13
#define GC_ATOL_LANES 1e-15

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*gc_vec_fn)(double *x, double *y, void *ctx);

/* Checks vjp[j] = d/dt <w, F(x + t e_j)> for every j (n inputs, m outputs). */
static inline void gc_check_vjp(const char *name, gc_vec_fn f, const double *x,
                                int n, int m, void *ctx, const double *w,
                                const double *vjp) {
  double *e = (double *)calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  double *dy = (double *)malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
  char label[128];
  for (int j = 0; j < n; ++j) {
    double want = 0.0;
    e[j] = 1.0;
    gc_fd_dir_vec(f, x, e, n, m, ctx, dy);
    e[j] = 0.0;
    for (int i = 0; i < m; ++i)
      want += w[i] * dy[i];
    snprintf(label, sizeof label, "%s vjp[%d] fd", name, j);
    check_close(label, vjp[j], want, GC_RTOL_D, GC_ATOL_D);
  }
  free(e);
  free(dy);
}

static inline double gc_dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

/* The dot-product test: <jv, w> (m terms, from forward mode) against
 * <v, vjp> (n terms, from reverse mode). */
static inline void gc_check_dot(const char *name, const double *v,
                                const double *vjp, int n, const double *jv,
                                const double *w, int m) {
  char label[128];
  snprintf(label, sizeof label, "%s <Jv,w> = <v,J^T w>", name);
  check_close(label, gc_dot(v, vjp, n), gc_dot(jv, w, m), GC_RTOL_DOT,
              GC_ATOL_DOT);
}

/* A batched result (lane k of `lanes` holds n values at lanes + k*n) against
 * the single runs in `singles` (same layout). */
static inline void gc_check_lanes(const char *name, const double *lanes,
                                  const double *singles, int n, int width) {
  char label[128];
  for (int k = 0; k < width; ++k)
    for (int j = 0; j < n; ++j) {
      snprintf(label, sizeof label, "%s lane %d [%d] = single run", name, k, j);
      check_close(label, lanes[k * n + j], singles[k * n + j], GC_RTOL_LANES,
                  GC_ATOL_LANES);
    }
}

/* A direction with entries in [-1, 1] that are not special (seeded by k). */
static inline void gc_direction(double *v, int n, int k) {
  for (int i = 0; i < n; ++i)
    v[i] = sin(1.3 * i + 0.7 * k + 0.2);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- Whole checks for the three common shapes -----------------------------
 * `double fn(double *x, int n)` (a scalar of an array), `void fn(double *x,
 * int n)` (an in-place update) and `void fn(double *out, const double *x, int
 * n)` (n outputs of n inputs).  GC_SCALAR_OF_ARRAY(fn) / GC_INPLACE(fn) /
 * GC_OUT_OF_ARRAY(fn) at file scope define the harness form;
 * GC_CHECK_SCALAR / GC_CHECK_INPLACE run, on a copy of x0:
 *   - reverse mode (width 1) against finite differences;
 *   - the dot-product test against forward mode;
 *   - reverse mode at width 2 (enzyme_dupv) against two single runs;
 * GC_CHECK_OUT the first two.
 * The program includes <gpuad/gpuad.h> first. */

#define GC_SCALAR_OF_ARRAY(fn)                                                 \
  static void fn##_vec(double *x, double *y, void *c) {                        \
    y[0] = fn(x, *(int *)c);                                                   \
  }

#define GC_INPLACE(fn)                                                         \
  static void fn##_vec(double *x, double *y, void *c) {                        \
    int n_ = *(int *)c;                                                        \
    fn(x, n_);                                                                 \
    memcpy(y, x, sizeof(double) * (size_t)n_);                                 \
  }

#define GC_OUT_OF_ARRAY(fn)                                                    \
  static void fn##_vec(double *x, double *y, void *c) {                        \
    int n_ = *(int *)c;                                                        \
    memset(y, 0, sizeof(double) * (size_t)n_);                                 \
    fn(y, x, n_);                                                              \
  }

#define GC_CHECK_OUT(fn, x0, n)                                                \
  do {                                                                         \
    int n_ = (n);                                                              \
    size_t b_ = sizeof(double) * (size_t)n_;                                   \
    double *x_ = (double *)malloc(b_), *o_ = (double *)calloc(n_, 8);          \
    double *g_ = (double *)calloc(n_, 8), *w_ = (double *)malloc(b_);          \
    double *d_ = (double *)malloc(b_), *v_ = (double *)malloc(b_);             \
    double *t_ = (double *)malloc(b_), *j_ = (double *)calloc(n_, 8);          \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(w_, n_, 3);                                                   \
    memcpy(d_, w_, b_);                                                        \
    __enzyme_autodiff((void *)fn, enzyme_dup, o_, d_, enzyme_dup, x_, g_, n_); \
    gc_check_vjp(#fn, fn##_vec, x0, n_, n_, &n_, w_, g_);                      \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(v_, n_, 4);                                                   \
    memcpy(t_, v_, b_);                                                        \
    __enzyme_fwddiff((void *)fn, enzyme_dup, o_, j_, enzyme_dup, x_, t_, n_);  \
    gc_check_dot(#fn, v_, g_, n_, j_, w_, n_);                                 \
    free(x_);                                                                  \
    free(o_);                                                                  \
    free(g_);                                                                  \
    free(w_);                                                                  \
    free(d_);                                                                  \
    free(v_);                                                                  \
    free(t_);                                                                  \
    free(j_);                                                                  \
  } while (0)

#define GC_CHECK_SCALAR(fn, x0, n)                                             \
  do {                                                                         \
    int n_ = (n);                                                              \
    size_t b_ = sizeof(double) * (size_t)n_;                                   \
    double *x_ = (double *)malloc(b_), *g_ = (double *)calloc(n_, 8);          \
    double *v_ = (double *)malloc(b_), *l_ = (double *)calloc(2 * n_, 8);      \
    double one_ = 1.0, jv_;                                                    \
    memcpy(x_, x0, b_);                                                        \
    __enzyme_autodiff((void *)fn, enzyme_dup, x_, g_, n_);                     \
    gc_check_vjp(#fn, fn##_vec, x0, n_, 1, &n_, &one_, g_);                    \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(l_, n_, 1); /* fn may update x: l_ gets its tangent */        \
    jv_ = __enzyme_fwddiff((void *)fn, enzyme_dup, x_, l_, n_);                \
    gc_direction(v_, n_, 1);                                                   \
    gc_check_dot(#fn, v_, g_, n_, &jv_, &one_, 1);                             \
    memset(l_, 0, 2 * b_);                                                     \
    memcpy(x_, x0, b_);                                                        \
    __enzyme_autodiff((void *)fn, enzyme_width, 2, enzyme_dupv, (int)b_, x_,   \
                      l_, n_);                                                 \
    {/* both lanes are seeded with 1: each is the gradient */                  \
      double *s_ = (double *)malloc(2 * b_);                                   \
      memcpy(s_, g_, b_);                                                      \
      memcpy(s_ + n_, g_, b_);                                                 \
      gc_check_lanes(#fn " width 2", l_, s_, n_, 2);                           \
      free(s_);                                                                \
    }                                                                          \
    free(x_);                                                                  \
    free(g_);                                                                  \
    free(v_);                                                                  \
    free(l_);                                                                  \
  } while (0)

#define GC_CHECK_INPLACE(fn, x0, n)                                            \
  do {                                                                         \
    int n_ = (n);                                                              \
    size_t b_ = sizeof(double) * (size_t)n_;                                   \
    double *x_ = (double *)malloc(b_), *w_ = (double *)malloc(b_);             \
    double *s_ = (double *)malloc(2 * b_), *v_ = (double *)malloc(b_);         \
    double *t_ = (double *)malloc(b_), *l_ = (double *)malloc(2 * b_);         \
    /* s_ = J^T w (lane 0) and J^T w2 (lane 1), by single runs. */             \
    for (int k_ = 0; k_ < 2; ++k_) {                                           \
      memcpy(x_, x0, b_);                                                      \
      gc_direction(s_ + k_ * n_, n_, 2 + k_);                                  \
      __enzyme_autodiff((void *)fn, enzyme_dup, x_, s_ + k_ * n_, n_);         \
    }                                                                          \
    gc_direction(w_, n_, 2);                                                   \
    gc_check_vjp(#fn, fn##_vec, x0, n_, n_, &n_, w_, s_);                      \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(v_, n_, 1);                                                   \
    memcpy(t_, v_, b_);                                                        \
    __enzyme_fwddiff((void *)fn, enzyme_dup, x_, t_, n_);                      \
    gc_check_dot(#fn, v_, s_, n_, t_, w_, n_);                                 \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(l_, n_, 2);                                                   \
    gc_direction(l_ + n_, n_, 3);                                              \
    __enzyme_autodiff((void *)fn, enzyme_width, 2, enzyme_dupv, (int)b_, x_,   \
                      l_, n_);                                                 \
    gc_check_lanes(#fn " width 2", l_, s_, n_, 2);                             \
    free(x_);                                                                  \
    free(w_);                                                                  \
    free(s_);                                                                  \
    free(v_);                                                                  \
    free(t_);                                                                  \
    free(l_);                                                                  \
  } while (0)

#endif /* GPUAD_TEST_REVCHECK_H */
