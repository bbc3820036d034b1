/* A gpuad fuzz program (tools/fuzz/progen.py), __SEED__.
 * The same source is CUDA and HIP.
 * A host driver around the random function f: it allocates device memory,
 * copies x and y in, runs STEPS launches of a kernel whose B threads each
 * run f on their own slice of x and y (in place; __LAUNCH_DOC__),
 * __DRIVER_DOC__, copies
 * each step's results back and sums them on the host, and copies x and y
 * back.  The driver is differentiated from host requests in forward mode,
 * reverse mode, split mode and at width W in both; fuzzcheck.h checks the
 * map from (x, y, s) to (x, y, the sum). */
#ifdef __HIP__
#include <hip/hip_runtime.h>
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif
#include <gpuad/gpuad.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cstdio>
#include <cstdlib>

#include "fuzzcheck.h"

#define NX __NX__
#define NY __NY__
#define B __BLOCK__
#define W __W__
#define STEPS __STEPS__
#define XN (B * NX)
#define YN (B * NY)
#define NIN (XN + YN + 1)
#define NOUT (XN + YN + 1)
typedef __REAL__ real;

#ifdef FZ_ONLY
#define FZ_MODE(k) (FZ_ONLY == (k))
#else
#define FZ_MODE(k) 1
#endif

__FUNCTIONS__

template <typename T, T (*F)(T *, T *, T, int)>
__global__ void step(T *x, T *y, T s, T *ret, int n) {
  int t = threadIdx.x;
  ret[t] = F(x + t * NX, y + t * NY, s, n);
}

/* The same kernel taking its arguments in a struct by value, and taking s
 * and n in a small one (x86-64 passes {float, int} as one integer). */
template <typename T> struct Packed {
  T *x, *y, *ret;
  T s;
  int n;
};
template <typename T, T (*F)(T *, T *, T, int)>
__global__ void stepPacked(Packed<T> a) {
  int t = threadIdx.x;
  a.ret[t] = F(a.x + t * NX, a.y + t * NY, a.s, a.n);
}
template <typename T> struct Small {
  T s;
  int n;
};
template <typename T, T (*F)(T *, T *, T, int)>
__global__ void stepSmall(T *x, T *y, Small<T> a, T *ret) {
  int t = threadIdx.x;
  ret[t] = F(x + t * NX, y + t * NY, a.s, a.n);
}

static void ok(int status) {
  if (status != 0) {
    printf("FZ runtime error %d\n", status);
    exit(2);
  }
}

/* The driver: (x, y) in and out through host memory, the sum returned. */
template <typename T, T (*F)(T *, T *, T, int)>
__attribute__((noinline)) T driver(T *xh, T *yh, T s) {
  size_t xb = sizeof(T) * XN, yb = sizeof(T) * YN;
  T *x, *y, *other, *ret;
  ok(API(Malloc)(&x, xb));
  ok(API(Malloc)(&y, yb));
  ok(API(Malloc)(&other, xb));
  ok(API(Malloc)(&ret, sizeof(T) * B));
  API(Stream_t) stream;
  ok(API(StreamCreate)(&stream));
  ok(API(MemcpyAsync)(x, xh, xb, API(MemcpyHostToDevice), stream));
  ok(API(Memcpy)(y, yh, yb, API(MemcpyHostToDevice)));
  ok(API(StreamSynchronize)(stream));
  T total = 0, r[B];
  for (int it = 0; it < STEPS; ++it) {
    __LAUNCH__
    ok(API(StreamSynchronize)(stream));
    ok(API(Memcpy)(r, ret, sizeof(T) * B, API(MemcpyDeviceToHost)));
    for (int t = 0; t < B; ++t)
      total += r[t] * (T)(1 + 0.125 * t);
    __DRIVER_MIX__
  }
  ok(API(Memcpy)(xh, x, xb, API(MemcpyDeviceToHost)));
  ok(API(Memcpy)(yh, y, yb, API(MemcpyDeviceToHost)));
  ok(API(StreamDestroy)(stream));
  ok(API(Free)(x));
  ok(API(Free)(y));
  ok(API(Free)(other));
  ok(API(Free)(ret));
  return total;
}

struct lanes {
  real d[W];
};

/* u = (x, y, s) -> o = (x, y, the sum). */
template <typename T, T (*F)(T *, T *, T, int)>
static void run_primal(const double *u, double *o) {
  T x[XN], y[YN];
  for (int i = 0; i < XN; ++i)
    x[i] = (T)u[i];
  for (int i = 0; i < YN; ++i)
    y[i] = (T)u[XN + i];
  T sum = driver<T, F>(x, y, (T)u[XN + YN]);
  for (int i = 0; i < XN; ++i)
    o[i] = x[i];
  for (int i = 0; i < YN; ++i)
    o[XN + i] = y[i];
  o[XN + YN] = sum;
}
static void prim(const double *u, double *o) {
  run_primal<double, f_ref>(u, o);
}
static void primf(const double *u, double *o) { run_primal<real, f>(u, o); }

/* The point, and lane l's seeds (v: an input direction or an output
 * weight, over the x and y parts). */
static real X[XN], Y[YN], DX[W][XN], DY[W][YN];
static void point(const double *u) {
  for (int i = 0; i < XN; ++i)
    X[i] = (real)u[i];
  for (int i = 0; i < YN; ++i)
    Y[i] = (real)u[XN + i];
}
static void seed(int l, const double *v) {
  for (int i = 0; i < XN; ++i)
    DX[l][i] = (real)v[i];
  for (int i = 0; i < YN; ++i)
    DY[l][i] = (real)v[XN + i];
}
static void result(int l, double *out, double last) {
  for (int i = 0; i < XN; ++i)
    out[i] = DX[l][i];
  for (int i = 0; i < YN; ++i)
    out[XN + i] = DY[l][i];
  out[XN + YN] = last;
}

int main() {
  static const double u0[NIN] = {__U0__};
  const double *u = fz_init(NIN, NOUT, prim, __ISFLOAT__ ? primf : NULL, u0,
                            __ISFLOAT__);
  const real s = (real)u[XN + YN];
  double v[NIN], w[NOUT], r[NOUT];
  int ndirs = fz.ndirs;
  static double single[W][NIN];
  int have_single = 0;
  (void)single, (void)have_single, (void)r, (void)w, (void)v, (void)s;
  void *fn = (void *)driver<real, f>;
  (void)fn;

#if FZ_MODE(1)
  for (int k = 0; k < ndirs; ++k) {
    fz_direction(k, v);
    point(u);
    seed(0, v);
    real t = __enzyme_fwddiff<real>(fn, enzyme_dup, X, DX[0], enzyme_dup, Y,
                                    DY[0], enzyme_dup, s, (real)v[XN + YN]);
    result(0, r, t);
    fz_check_fwd("fwd", k, r);
  }
#endif

#if FZ_MODE(2)
  {
    real ds[W];
    point(u);
    for (int l = 0; l < W; ++l) {
      fz_direction(l % ndirs, v);
      seed(l, v);
      ds[l] = (real)v[XN + YN];
    }
    lanes d = __enzyme_fwddiff<lanes>(
        fn, enzyme_width, W, enzyme_dupv, (int)sizeof(DX[0]), X, DX[0],
        enzyme_dupv, (int)sizeof(DY[0]), Y, DY[0], enzyme_dup, s,
        __DS_LANES__);
    for (int l = 0; l < W; ++l) {
      result(l, r, d.d[l]);
      fz_check_fwd_lane(l, r);
    }
  }
#endif

#if FZ_MODE(3)
  have_single = 1;
  for (int k = 0; k < W; ++k) {
    fz_weight(k, w);
    point(u);
    seed(0, w);
    real ds = __enzyme_autodiff<real>(fn, enzyme_dup, X, DX[0], enzyme_dup, Y,
                                      DY[0], enzyme_out, s);
    result(0, single[k], ds);
    if (k < 2)
      fz_check_rev("rev", k, single[k]);
  }
#endif

#if FZ_MODE(4)
  {
    point(u);
    for (int l = 0; l < W; ++l) {
      fz_weight(l, w);
      seed(l, w);
    }
    lanes d = __enzyme_autodiff<lanes>(
        fn, enzyme_width, W, enzyme_dupv, (int)sizeof(DX[0]), X, DX[0],
        enzyme_dupv, (int)sizeof(DY[0]), Y, DY[0], enzyme_out, s);
    for (int l = 0; l < W; ++l) {
      result(l, r, d.d[l]);
      fz_check_rev_lane(l, r, have_single ? single[l] : NULL);
    }
  }
#endif

#if FZ_MODE(5)
  {
    fz_weight(0, w);
    point(u);
    seed(0, w);
    void *tape = __enzyme_augmentfwd<void *>(fn, enzyme_dup, X, DX[0],
                                             enzyme_dup, Y, DY[0], enzyme_out,
                                             s, enzyme_noret);
    real ds = __enzyme_reverse<real>(fn, enzyme_dup, X, DX[0], enzyme_dup, Y,
                                     DY[0], enzyme_out, s, (real)1, tape);
    result(0, r, ds);
    fz_check_rev("split", 0, r);
    if (have_single)
      fz_check_same("split", "split vs combined", r, single[0], NIN);
  }
#endif
  return fz_finish();
}
