// From the numeric fuzzer (tools/fuzz, omp seed 1 at -O0, reduced): split
// mode (__enzyme_augmentfwd, then __enzyme_reverse) of a function whose
// OpenMP parallel region is handed stack arrays (the four copies); each
// thread's tape keeps pointers into their shadows (a struct returned with a
// pointer in it), so the shadows must outlive the augmented half.  They
// stayed on its stack, and the backward half read freed memory.  The fork's
// arguments travel in a record, so the split form now counts a runtime call
// that calls back a function it is given as handing that function what the
// record holds.
// REQUIRES: openmp
// RUN: %gpuad-cc -fopenmp -O0 -I%fuzz-dir %s -o %t -lm && env OMP_NUM_THREADS=2 %t
// RUN: %gpuad-cc -fopenmp -O2 -I%fuzz-dir %s -o %t.O2 -lm && env OMP_NUM_THREADS=2 %t.O2
/* A gpuad fuzz program (tools/fuzz/progen.py), omp seed 1: bits condstore dynloop heap if inactive index last likefn loop nonsmooth pview return select struct structs union while.
 * f is differentiated in forward mode, reverse mode, split mode and at
 * width W in both, and checked by fuzzcheck.h. */
#include <gpuad/gpuad.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzcheck.h"
#include <omp.h>

#define NX 5
#define NY 1
#define NIN (NX + NY + 1)
#define NOUT (NX + NY + 1)
#define W 3
typedef double real;

/* -DFZ_ONLY=k builds only mode k (1 fwd, 2 fwd-width, 3 rev, 4 rev-width,
 * 5 split): fuzz.py tells which mode a gpuad diagnostic is about. */
#ifdef FZ_ONLY
#define FZ_MODE(k) (FZ_ONLY == (k))
#else
#define FZ_MODE(k) 1
#endif

struct pair {
  double a, b;
};
static double pair_dot(struct pair p) { return p.a * p.b + sin(p.a); }
static double pair_norm(const struct pair *p) {
  return sqrt(0.5 + p->a * p->a + p->b * p->b);
}
__attribute__((enzyme_inactive)) static double gain(int k) {
  return 0.5 + (double)(k % 3) * 0.25;
}
static double lp_like(double a)
    __attribute__((enzyme_function_like("log1p")));
static double lp_like(double a) { return log(1.0 + a); }
struct pview {
  double *at;
  double w;
};
__attribute__((noinline)) static  struct pview make_pview(double *p, int k,
                                                                  double v) {
  struct pview r = {p + k, v * v + 0.5};
  return r;
}
static double h0(double a, double b, double *x) {
  return erf(((fma(b, x[1], 0.178) * b) + pow(0.99 + (b - a) * (b - a), 0.5)));
}
static double h1(double a, double b, double *x) {
  return tanh(log(0.758 + b * b));
}
double f_body(double *x, double *y, double s, int n) {
  double w4;
  {
    uint64_t b3;
    double t_ = sin(atan2(atan((x[3] / (1.705 + y[0] * y[0]))), sqrt(1.16 + (y[0] * x[3]) * (y[0] * x[3])) + 7.0));
    memcpy(&b3, &t_, sizeof b3);
    memcpy(&w4, &b3, sizeof w4);
  }
  double last5 = 0.0;
  for (int i6 = 0; i6 < n; ++i6) {
    last5 = tanh(w4) * x[i6];
    x[i6] *= 0.9;
  }
  if ((exp2(-1.911) * (2.201 > -0.122 ? last5 : x[1])) > -0.401) {
    {
      struct pview pv7 = make_pview(x, 4, erf(log10(1.174 + ((w4 * x[3]) * last5) * ((w4 * x[3]) * last5))));
      y[0] += pv7.w * pv7.at[0];
    }
  } else {
  }
  return sin(last5) + sin(w4) + x[0] * s;
}

/* Four copies in parallel, averaged. */
double f(double *x, double *y, double s, int n) {
  double xs[4][NX], ys[4][NY > 0 ? NY : 1], total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < NX; ++i)
      xs[k][i] = x[i];
    for (int i = 0; i < NY; ++i)
      ys[k][i] = y[i];
    total += f_body(xs[k], ys[k], s, n);
  }
  for (int i = 0; i < NX; ++i)
    x[i] = (xs[0][i] + xs[1][i] + xs[2][i] + xs[3][i]) * (double)0.25;
  for (int i = 0; i < NY; ++i)
    y[i] = (ys[0][i] + ys[1][i] + ys[2][i] + ys[3][i]) * (double)0.25;
  return total * (double)0.25;
}
#define f_ref f


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
  static const double u0[NIN] = {0.535, 0.631, 0.211, -0.301, -0.471, 0.416, 0.748};
  u = fz_init(NIN, NOUT, prim, 0 ? primf : NULL, u0, 0);
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
        (real)u[NX + NY], ds[0], ds[1], ds[2], enzyme_const, NX);
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
