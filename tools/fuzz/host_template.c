/* A gpuad fuzz program (tools/fuzz/progen.py), __SEED__.
 * f is differentiated in forward mode, reverse mode, split mode and at
 * width W in both, and checked by fuzzcheck.h. */
#include <gpuad/gpuad.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzcheck.h"
__CXX_INCLUDES__

#define NX __NX__
#define NY __NY__
#define NIN (NX + NY + 1)
#define NOUT (NX + NY + 1)
#define W __W__
typedef __REAL__ real;

/* -DFZ_ONLY=k builds only mode k (1 fwd, 2 fwd-width, 3 rev, 4 rev-width,
 * 5 split): fuzz.py tells which mode a gpuad diagnostic is about. */
#ifdef FZ_ONLY
#define FZ_MODE(k) (FZ_ONLY == (k))
#else
#define FZ_MODE(k) 1
#endif

__FUNCTIONS__

typedef struct {
  real d[W];
} lanes;
typedef struct {
  void *tape;
  real primal;
} augmented;
real __enzyme_fwddiff_real(void *, ...);
real __enzyme_autodiff_real(void *, ...);
lanes __enzyme_fwddiff_lanes(void *, ...);
lanes __enzyme_autodiff_lanes(void *, ...);
augmented __enzyme_augmentfwd_real(void *, ...);
real __enzyme_reverse_real(void *, ...);

static void prim(const double *u, double *o) {
  double x[NX], y[NY];
  for (int i = 0; i < NX; ++i)
    x[i] = u[i];
  for (int i = 0; i < NY; ++i)
    y[i] = u[NX + i];
  double r = f_ref(x, y, u[NX + NY], NX);
  for (int i = 0; i < NX; ++i)
    o[i] = x[i];
  for (int i = 0; i < NY; ++i)
    o[NX + i] = y[i];
  o[NX + NY] = r;
}

static void primf(const double *u, double *o) {
  real x[NX], y[NY];
  for (int i = 0; i < NX; ++i)
    x[i] = (real)u[i];
  for (int i = 0; i < NY; ++i)
    y[i] = (real)u[NX + i];
  real r = f(x, y, (real)u[NX + NY], NX);
  for (int i = 0; i < NX; ++i)
    o[i] = x[i];
  for (int i = 0; i < NY; ++i)
    o[NX + i] = y[i];
  o[NX + NY] = r;
}

static const double *u;
static real x[NX], y[NY], dx[W][NX], dy[W][NY];

/* The point into x and y; lane l's input direction (or output weight) k
 * into dx[l], dy[l]; returns the s component. */
static void load_point(void) {
  for (int i = 0; i < NX; ++i)
    x[i] = (real)u[i];
  for (int i = 0; i < NY; ++i)
    y[i] = (real)u[NX + i];
}
static real load_seed(int l, const double *v) {
  for (int i = 0; i < NX; ++i)
    dx[l][i] = (real)v[i];
  for (int i = 0; i < NY; ++i)
    dy[l][i] = (real)v[NX + i];
  return (real)v[NX + NY];
}
static void store_result(int l, double last, double *out) {
  for (int i = 0; i < NX; ++i)
    out[i] = dx[l][i];
  for (int i = 0; i < NY; ++i)
    out[NX + i] = dy[l][i];
  out[NX + NY] = last;
}

int main(void) {
  static const double u0[NIN] = {__U0__};
  u = fz_init(NIN, NOUT, prim, __ISFLOAT__ ? primf : NULL, u0, __ISFLOAT__);
  double v[NIN], w[NOUT], r[NOUT];
  int ndirs = fz.ndirs;

  int have_single = 0;
  double single[W][NIN];
  (void)single, (void)have_single, (void)r;

#if FZ_MODE(1)
  /* Forward mode, one direction at a time. */
  for (int k = 0; k < ndirs; ++k) {
    fz_direction(k, v);
    load_point();
    real ds = load_seed(0, v);
    real dr = __enzyme_fwddiff_real((void *)f, enzyme_dup, x, dx[0],
                                    enzyme_dup, y, dy[0], enzyme_dup,
                                    (real)u[NX + NY], ds, enzyme_const, NX);
    store_result(0, dr, r);
    fz_check_fwd("fwd", k, r);
  }

#endif

#if FZ_MODE(2)
  /* Forward mode at width W: lane l is direction l (mod ndirs), against
   * finite differences and the width-1 run. */
  {
    load_point();
    real ds[W];
    for (int l = 0; l < W; ++l) {
      fz_direction(l % ndirs, v);
      ds[l] = load_seed(l, v);
    }
    lanes dr = __enzyme_fwddiff_lanes(
        (void *)f, enzyme_width, W, enzyme_dupv, (int)sizeof(dx[0]), x,
        dx[0], enzyme_dupv, (int)sizeof(dy[0]), y, dy[0], enzyme_dup,
        (real)u[NX + NY], __DS_LANES__, enzyme_const, NX);
    for (int l = 0; l < W; ++l) {
      store_result(l, dr.d[l], r);
      fz_check_fwd_lane(l, r);
    }
  }
#endif

#if FZ_MODE(3)
  /* Reverse mode: two output weights, each checked against finite
   * differences and forward mode. */
  have_single = 1;
  for (int k = 0; k < W; ++k) {
    fz_weight(k, w);
    load_point();
    load_seed(0, w);
    real ds = __enzyme_autodiff_real((void *)f, enzyme_dup, x, dx[0],
                                     enzyme_dup, y, dy[0], enzyme_out,
                                     (real)u[NX + NY], enzyme_const, NX);
    store_result(0, ds, single[k]);
    if (k < 2)
      fz_check_rev("rev", k, single[k]);
  }
#endif

#if FZ_MODE(4)
  /* Reverse mode at width W: lane l seeded with weight l. */
  {
    load_point();
    for (int l = 0; l < W; ++l) {
      fz_weight(l, w);
      load_seed(l, w);
    }
    lanes ds = __enzyme_autodiff_lanes(
        (void *)f, enzyme_width, W, enzyme_dupv, (int)sizeof(dx[0]), x,
        dx[0], enzyme_dupv, (int)sizeof(dy[0]), y, dy[0], enzyme_out,
        (real)u[NX + NY], enzyme_const, NX);
    for (int l = 0; l < W; ++l) {
      store_result(l, ds.d[l], r);
      fz_check_rev_lane(l, r, have_single ? single[l] : NULL);
    }
  }
#endif

#if FZ_MODE(5)
  /* Split mode: the augmented forward pass, then the reverse pass with the
   * tape, against finite differences and the combined reverse mode. */
  {
    fz_weight(0, w);
    load_point();
    load_seed(0, w);
    augmented a = __enzyme_augmentfwd_real(
        (void *)f, enzyme_dup, x, dx[0], enzyme_dup, y, dy[0], enzyme_out,
        (real)u[NX + NY], enzyme_const, NX);
    real ds = __enzyme_reverse_real((void *)f, enzyme_dup, x, dx[0],
                                    enzyme_dup, y, dy[0], enzyme_out,
                                    (real)u[NX + NY], enzyme_const, NX,
                                    (real)1.0, a.tape);
    store_result(0, ds, r);
    fz_check_rev("split", 0, r);
    if (have_single)
      fz_check_same("split", "split vs combined", r, single[0], NIN);
    primf(u, w);
    double want = w[NOUT - 1], got = a.primal;
    fz_check_same("split", "primal", &got, &want, 1);
  }
#endif
  return fz_finish();
}
