/*===- blascheck.h - Checks of functions that call BLAS ---------*- C/C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * A case is `T F(T *b0, ..., T *b{NBUF-1}, T a)`: it calls BLAS on its
 * buffers and scalar.  As a function of z = (b0, ..., a) it gives
 * F(z) = (the buffers after the call, the result).  Reverse mode gives
 * J^T w (the buffers' shadows seeded with w, the result with 1), forward
 * mode J v.  BC_RUN checks both in the case's precision T:
 *   - every component of J^T w and of J v against central differences
 *     (double: GC_RTOL_D/GC_ATOL_D = 1e-6/1e-8, step 1e-6 * max(1, max |z|);
 *     float: GC_RTOL_F/GC_ATOL_F = 1e-2/1e-3, step 1e-3 * max(1, max |z|));
 *   - the dot-product test <w, J v> = <J^T w, v> (double
 *     GC_RTOL_DOT/GC_ATOL_DOT = 1e-10/1e-12, float 1e-4/1e-5).
 *
 * Define before including: NBUF (2 or 3), NB (elements in each buffer) and
 * BC_NAMES, a string of NBUF letters naming the buffers in messages.
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_TEST_BLASCHECK_H
#define GPUAD_TEST_BLASCHECK_H

#include <gpuad/gpuad.h>
#include <revcheck.h>
#include <string.h>

#define NZ (NBUF * NB + 1) /* z = (buffers, a) */
#define BC_A (NBUF * NB)   /* a's component, and the result's */
#define BC_RTOL_DOT_F 1e-4
#define BC_ATOL_DOT_F 1e-5

#if NBUF == 2
#define BC_CALL(T, f, b, a) ((T(*)(T *, T *, T))(f))(b[0], b[1], a)
#define BC_DUP(b, db) enzyme_dup, b[0], db[0], enzyme_dup, b[1], db[1]
#elif NBUF == 3
#define BC_CALL(T, f, b, a) ((T(*)(T *, T *, T *, T))(f))(b[0], b[1], b[2], a)
#define BC_DUP(b, db)                                                          \
  enzyme_dup, b[0], db[0], enzyme_dup, b[1], db[1], enzyme_dup, b[2], db[2]
#else
#error "blascheck.h: define NBUF as 2 or 3"
#endif

typedef void (*bc_fn)(void);

/* out = F(z), evaluated in the case's precision. */
static void bc_eval(bc_fn f, int fl, const double *z, double *out) {
  double bd[NBUF][NB];
  float bf[NBUF][NB];
  for (int i = 0; i < NBUF * NB; ++i)
    bd[i / NB][i % NB] = z[i], bf[i / NB][i % NB] = (float)z[i];
  if (fl)
    out[BC_A] = BC_CALL(float, f, bf, (float)z[BC_A]);
  else
    out[BC_A] = BC_CALL(double, f, bd, z[BC_A]);
  for (int i = 0; i < NBUF * NB; ++i)
    out[i] = fl ? bf[i / NB][i % NB] : bd[i / NB][i % NB];
}

/* dy = the central difference of F at z0 along e_j (j >= 0) or along d
 * (j < 0), divided by the step actually taken in F's precision. */
static void bc_fd(bc_fn f, int fl, const double *z0, int j, const double *d,
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
  bc_eval(f, fl, zp, op);
  bc_eval(f, fl, zm, om);
  for (int i = 0; i < NZ; ++i)
    dy[i] = (op[i] - om[i]) / step;
}

/* Component j of z ("x[3]", "a") or of F(z) ("result" last). */
static void bc_name(char *buf, size_t size, int j, const char *last) {
  if (j == BC_A)
    snprintf(buf, size, "%s", last);
  else
    snprintf(buf, size, "%c[%d]", BC_NAMES[j / NB], j % NB);
}

/* g = J^T w (reverse), jv = J v (forward), against FD and each other. */
static void bc_check(const char *name, bc_fn f, int fl, const double *z0,
                     const double *w, const double *v, const double *g,
                     const double *jv) {
  double rtol = fl ? GC_RTOL_F : GC_RTOL_D, atol = fl ? GC_ATOL_F : GC_ATOL_D;
  double dy[NZ];
  char label[96], part[16];
  for (int j = 0; j < NZ; ++j) { /* g[j] = d/dt <w, F(z0 + t e_j)> */
    bc_fd(f, fl, z0, j, NULL, dy);
    bc_name(part, sizeof part, j, "a");
    snprintf(label, sizeof label, "%s rev d/d%s", name, part);
    check_close(label, g[j], gc_dot(w, dy, NZ), rtol, atol);
  }
  bc_fd(f, fl, z0, -1, v, dy);
  for (int i = 0; i < NZ; ++i) {
    bc_name(part, sizeof part, i, "result");
    snprintf(label, sizeof label, "%s fwd tangent of %s", name, part);
    check_close(label, jv[i], dy[i], rtol, atol);
  }
  snprintf(label, sizeof label, "%s <w,Jv> = <J^T w,v>", name);
  check_close(label, gc_dot(w, jv, NZ), gc_dot(g, v, NZ),
              fl ? BC_RTOL_DOT_F : GC_RTOL_DOT,
              fl ? BC_ATOL_DOT_F : GC_ATOL_DOT);
}

/* z0 (a = 0.8, away from BLAS's special alphas 0 and 1), the weights w
 * (the result's 1) and the direction v; and the same, exact in float. */
static void bc_inputs(double *z, double *w, double *v, double *zf, double *wf,
                      double *vf) {
  gc_direction(z, NZ, 0);
  z[BC_A] = 0.8;
  gc_direction(w, NZ, 2);
  w[BC_A] = 1.0;
  gc_direction(v, NZ, 1);
  for (int i = 0; i < NZ; ++i)
    zf[i] = (float)z[i], wf[i] = (float)w[i], vf[i] = (float)v[i];
}

/* Both modes of fn (T: its precision) at z0 with weights w, direction v;
 * J^T w is left in g. */
#define BC_RUN(T, fn, z0, w, v, g)                                             \
  do {                                                                         \
    T b_[NBUF][NB], db_[NBUF][NB];                                             \
    double jv_[NZ];                                                            \
    for (int i_ = 0; i_ < NBUF * NB; ++i_)                                     \
      b_[i_ / NB][i_ % NB] = (T)z0[i_], db_[i_ / NB][i_ % NB] = (T)w[i_];      \
    g[BC_A] = __enzyme_autodiff((void *)fn, BC_DUP(b_, db_), enzyme_out,       \
                                (T)z0[BC_A]);                                  \
    for (int i_ = 0; i_ < NBUF * NB; ++i_) {                                   \
      g[i_] = db_[i_ / NB][i_ % NB];                                           \
      b_[i_ / NB][i_ % NB] = (T)z0[i_], db_[i_ / NB][i_ % NB] = (T)v[i_];      \
    }                                                                          \
    jv_[BC_A] = __enzyme_fwddiff((void *)fn, BC_DUP(b_, db_), enzyme_dup,      \
                                 (T)z0[BC_A], (T)v[BC_A]);                     \
    for (int i_ = 0; i_ < NBUF * NB; ++i_)                                     \
      jv_[i_] = db_[i_ / NB][i_ % NB];                                         \
    bc_check(#fn, (bc_fn)fn, sizeof(T) == 4, z0, w, v, g, jv_);                \
  } while (0)

#if NBUF == 3
/* The void function fn(b0, b1, b2) as y = F(x) on the three buffers, for
 * central differences: ctx is fn. */
typedef void (*bc_void_fn)(double *, double *, double *);
static void bc_void_vec(double *x, double *y, void *ctx) {
  memcpy(y, x, sizeof(double) * NBUF * NB);
  ((bc_void_fn)ctx)(y, y + NB, y + 2 * NB);
}

/* Reverse mode of the void function fn at width 2 (enzyme_width 2, each
 * buffer's two shadows enzyme_dupv) against two width-1 runs, each of them
 * checked against central differences. */
#define BC_CHECK_WIDTH2(fn)                                                    \
  do {                                                                         \
    enum { Z_ = NBUF * NB };                                                   \
    double z_[Z_], seed_[2][Z_], single_[2 * Z_], lane_[2 * Z_];               \
    double b_[NBUF][NB], shadow_[NBUF][2][NB];                                 \
    gc_direction(z_, Z_, 3);                                                   \
    gc_direction(seed_[0], Z_, 4);                                             \
    gc_direction(seed_[1], Z_, 5);                                             \
    for (int k_ = 0; k_ < 2; ++k_) {                                           \
      double db_[NBUF][NB];                                                    \
      memcpy(b_, z_, sizeof b_), memcpy(db_, seed_[k_], sizeof db_);           \
      __enzyme_autodiff((void *)fn, BC_DUP(b_, db_));                          \
      for (int j_ = 0; j_ < NBUF; ++j_) /* lane k: buffer j */                 \
        memcpy(single_ + k_ * Z_ + j_ * NB, db_[j_], sizeof db_[j_]);          \
      gc_check_vjp(k_ ? #fn " seed 1" : #fn " seed 0", bc_void_vec, z_, Z_,    \
                   Z_, (void *)fn, seed_[k_], single_ + k_ * Z_);              \
    }                                                                          \
    memcpy(b_, z_, sizeof b_);                                                 \
    for (int k_ = 0; k_ < 2; ++k_)                                             \
      for (int j_ = 0; j_ < NBUF; ++j_)                                        \
        memcpy(shadow_[j_][k_], seed_[k_] + j_ * NB, sizeof shadow_[j_][k_]);  \
    int stride_ = (int)sizeof shadow_[0][0];                                   \
    __enzyme_autodiff((void *)fn, enzyme_width, 2, enzyme_dupv, stride_,       \
                      b_[0], shadow_[0], enzyme_dupv, stride_, b_[1],          \
                      shadow_[1], enzyme_dupv, stride_, b_[2], shadow_[2]);    \
    for (int k_ = 0; k_ < 2; ++k_)                                             \
      for (int j_ = 0; j_ < NBUF; ++j_)                                        \
        memcpy(lane_ + k_ * Z_ + j_ * NB, shadow_[j_][k_],                     \
               sizeof shadow_[j_][k_]);                                        \
    gc_check_lanes(#fn " rev", lane_, single_, Z_, 2);                         \
  } while (0)
#endif

#endif /* GPUAD_TEST_BLASCHECK_H */
