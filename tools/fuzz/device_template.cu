/* A gpuad fuzz program (tools/fuzz/progen.py), __SEED__.
 * The same source is CUDA and HIP.
 * One block of B threads runs g: each thread's f on its own slice of x and
 * y, then (in most programs) shared memory, barriers, atomics or shuffles
 * mix the threads.  g is differentiated in device code in forward mode, reverse
 * mode, split mode and at width W in both; fuzzcheck.h checks the map from
 * (x, y, acc, s) to (x, y, acc, each thread's result). */
#ifdef __HIP__
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemset hipMemset
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaGetLastError hipGetLastError
#define cudaGetErrorString hipGetErrorString
#define SHFL_XOR(v, m) __shfl_xor(v, m, B)
#else
#define SHFL_XOR(v, m) __shfl_xor_sync((1u << B) - 1, v, m, B)
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
/* The threads do not talk (g only calls f). */
#define INDEPENDENT __INDEPENDENT__
#define W __W__
#define NIN (B * NX + B * NY + 2)
#define NOUT (B * NX + B * NY + 1 + B)
typedef __REAL__ real;

/* -DFZ_ONLY=k builds only mode k (1 fwd, 2 fwd-width, 3 rev, 4 rev-width,
 * 5 split): fuzz.py tells which mode a gpuad diagnostic is about. */
#ifdef FZ_ONLY
#define FZ_MODE(k) (FZ_ONLY == (k))
#else
#define FZ_MODE(k) 1
#endif

__FUNCTIONS__

/* g: the block's function, the same for the float program and its double
 * reference. */
#define DEFINE_G(name, T, fn)                                                  \
  __device__ T name(T *x, T *y, T s, T *acc, int n) {                         \
    int t = threadIdx.x;                                                       \
    T r = fn(x + t * NX, y + t * NY, s, n);                                    \
    T *yt = y + t * NY;                                                        \
    (void)yt;                                                                  \
    __MIX__                                                                    \
    return r;                                                                  \
  }
DEFINE_G(g, real, f)
DEFINE_G(g_ref, double, f_ref)

struct lanes {
  real d[W];
};
struct augmented {
  void *tape;
  real primal;
};

__global__ void primal_ref(double *x, double *y, double s, double *acc,
                           double *ret, int n) {
  ret[threadIdx.x] = g_ref(x, y, s, acc, n);
}
__global__ void primal(real *x, real *y, real s, real *acc, real *ret, int n) {
  ret[threadIdx.x] = g(x, y, s, acc, n);
}
#if FZ_MODE(1)
__global__ void forward(real *x, real *dx, real *y, real *dy, real s, real ds,
                        real *acc, real *dacc, real *dret, int n) {
  dret[threadIdx.x] = __enzyme_fwddiff<real>(
      (void *)g, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, s, ds,
      enzyme_dup, acc, dacc, enzyme_const, n);
}
#endif
#if FZ_MODE(2)
__global__ void forward_lanes(real *x, real *dx, real *y, real *dy, real s,
                              lanes ds, real *acc, real *dacc, real *dret,
                              int n) {
#if INDEPENDENT
  // Threads that do not talk: each differentiates f on its own part (a
  // function lanes can carry; g reads the thread index).
  int t = threadIdx.x;
  lanes d = __enzyme_fwddiff<lanes>(
      (void *)f, enzyme_width, W, enzyme_dupv, (int)(sizeof(real) * B * NX),
      x + t * NX, dx + t * NX, enzyme_dupv, (int)(sizeof(real) * B * NY),
      y + t * NY, dy + t * NY, enzyme_dup, s, __DS_D_LANES__, enzyme_const, n);
#else
  lanes d = __enzyme_fwddiff<lanes>(
      (void *)g, enzyme_width, W, enzyme_dupv, (int)(sizeof(real) * B * NX),
      x, dx, enzyme_dupv, (int)(sizeof(real) * B * NY), y, dy, enzyme_dup, s,
      __DS_D_LANES__, enzyme_dupv, (int)sizeof(real), acc, dacc, enzyme_const,
      n);
#endif
  for (int l = 0; l < W; ++l)
    dret[l * B + threadIdx.x] = d.d[l];
}
#endif
#if FZ_MODE(3)
__global__ void reverse(real *x, real *dx, real *y, real *dy, real s, real *ds,
                        real *acc, real *dacc, int n) {
  real d = __enzyme_autodiff<real>((void *)g, enzyme_dup, x, dx, enzyme_dup,
                                   y, dy, enzyme_out, s, enzyme_dup, acc,
                                   dacc, enzyme_const, n);
  atomicAdd(ds, d);
}
#endif
#if FZ_MODE(4)
__global__ void reverse_lanes(real *x, real *dx, real *y, real *dy, real s,
                              real *ds, real *acc, real *dacc, int n) {
#if INDEPENDENT
  int t = threadIdx.x;
  lanes d = __enzyme_autodiff<lanes>(
      (void *)f, enzyme_width, W, enzyme_dupv, (int)(sizeof(real) * B * NX),
      x + t * NX, dx + t * NX, enzyme_dupv, (int)(sizeof(real) * B * NY),
      y + t * NY, dy + t * NY, enzyme_out, s, enzyme_const, n);
#else
  lanes d = __enzyme_autodiff<lanes>(
      (void *)g, enzyme_width, W, enzyme_dupv, (int)(sizeof(real) * B * NX),
      x, dx, enzyme_dupv, (int)(sizeof(real) * B * NY), y, dy, enzyme_out, s,
      enzyme_dupv, (int)sizeof(real), acc, dacc, enzyme_const, n);
#endif
  for (int l = 0; l < W; ++l)
    atomicAdd(&ds[l], d.d[l]);
}
#endif
#if FZ_MODE(5)
__global__ void split(real *x, real *dx, real *y, real *dy, real s, real *ds,
                      real *acc, real *dacc, real *ret, int n) {
  augmented a = __enzyme_augmentfwd<augmented>(
      (void *)g, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, s,
      enzyme_dup, acc, dacc, enzyme_const, n);
  ret[threadIdx.x] = a.primal;
  real d = __enzyme_reverse<real>((void *)g, enzyme_dup, x, dx, enzyme_dup, y,
                                  dy, enzyme_out, s, enzyme_dup, acc, dacc,
                                  enzyme_const, n, (real)1, a.tape);
  atomicAdd(ds, d);
}
#endif

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("FZ runtime error: %s: %s\n", #call, cudaGetErrorString(e_));     \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

/* Device buffers of L lanes of `count` values each. */
template <typename T> static T *dev(int count, int lanesCount = 1) {
  T *p;
  CHECK(cudaMalloc(&p, sizeof(T) * count * lanesCount));
  CHECK(cudaMemset(p, 0, sizeof(T) * count * lanesCount));
  return p;
}
template <typename T> static void put(T *d, const double *h, int count) {
  T tmp[B * (NX + NY) + B + 2];
  for (int i = 0; i < count; ++i)
    tmp[i] = (T)h[i];
  CHECK(cudaMemcpy(d, tmp, sizeof(T) * count, cudaMemcpyHostToDevice));
}
template <typename T> static void get(double *h, const T *d, int count) {
  T tmp[B * (NX + NY) + B + 2];
  CHECK(cudaMemcpy(tmp, d, sizeof(T) * count, cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i)
    h[i] = (double)tmp[i];
}

enum { XN = B * NX, YN = B * NY };

/* u = (x, y, acc, s) -> o = (x, y, acc, returns), on the device. */
template <typename T, bool Ref> static void run_primal(const double *u,
                                                       double *o) {
  T *x = dev<T>(XN), *y = dev<T>(YN), *acc = dev<T>(1), *ret = dev<T>(B);
  put(x, u, XN);
  put(y, u + XN, YN);
  put(acc, u + XN + YN, 1);
  T s = (T)u[XN + YN + 1];
  if (Ref)
    primal_ref<<<1, B>>>((double *)x, (double *)y, s, (double *)acc,
                         (double *)ret, NX);
  else
    primal<<<1, B>>>((real *)x, (real *)y, s, (real *)acc, (real *)ret, NX);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  get(o, x, XN);
  get(o + XN, y, YN);
  get(o + XN + YN, acc, 1);
  get(o + XN + YN + 1, ret, B);
  cudaFree(x), cudaFree(y), cudaFree(acc), cudaFree(ret);
}
static void prim(const double *u, double *o) { run_primal<double, true>(u, o); }
static void primf(const double *u, double *o) {
  run_primal<real, false>(u, o);
}

struct Buffers {
  real *x = dev<real>(XN), *y = dev<real>(YN), *acc = dev<real>(1);
  real *dx = dev<real>(XN, W), *dy = dev<real>(YN, W), *dacc = dev<real>(1, W);
  real *ret = dev<real>(B, W), *ds = dev<real>(W);
  ~Buffers() {
    for (real *p : {x, y, acc, dx, dy, dacc, ret, ds})
      cudaFree(p);
  }
  void point(const double *u) {
    put(x, u, XN);
    put(y, u + XN, YN);
    put(acc, u + XN + YN, 1);
  }
  /* Lane l's seed: an input direction or an output weight (the x, y and
   * acc parts). */
  void seed(int l, const double *v) {
    put(dx + l * XN, v, XN);
    put(dy + l * YN, v + XN, YN);
    put(dacc + l, v + XN + YN, 1);
  }
  /* Lane l's derivative with its last part (the returns' tangents, or the
   * adjoint of s). */
  void result(int l, double *out, const real *last, int lastCount) {
    get(out, dx + l * XN, XN);
    get(out + XN, dy + l * YN, YN);
    get(out + XN + YN, dacc + l, 1);
    get(out + XN + YN + 1, last, lastCount);
  }
};

static void sync() {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
}

int main() {
  static const double u0[NIN] = {__U0__};
  fz.nret = B;
  const double *u = fz_init(NIN, NOUT, prim, __ISFLOAT__ ? primf : NULL, u0,
                            __ISFLOAT__);
  const real s = (real)u[XN + YN + 1];
  double v[NIN], w[NOUT], r[NOUT];
  int ndirs = fz.ndirs;
  Buffers b;
  static double single[W][NIN];
  int have_single = 0;
  (void)single, (void)have_single, (void)r;

#if FZ_MODE(1)
  for (int k = 0; k < ndirs; ++k) {
    fz_direction(k, v);
    b.point(u);
    b.seed(0, v);
    forward<<<1, B>>>(b.x, b.dx, b.y, b.dy, s, (real)v[XN + YN + 1], b.acc,
                      b.dacc, b.ret, NX);
    sync();
    b.result(0, r, b.ret, B);
    fz_check_fwd("fwd", k, r);
  }
#endif

#if FZ_MODE(2)
  {
    lanes ds;
    b.point(u);
    for (int l = 0; l < W; ++l) {
      fz_direction(l % ndirs, v);
      b.seed(l, v);
      ds.d[l] = (real)v[XN + YN + 1];
    }
    forward_lanes<<<1, B>>>(b.x, b.dx, b.y, b.dy, s, ds, b.acc, b.dacc, b.ret,
                            NX);
    sync();
    for (int l = 0; l < W; ++l) {
      b.result(l, r, b.ret + l * B, B);
      fz_check_fwd_lane(l, r);
    }
  }
#endif

#if FZ_MODE(3)
  have_single = 1;
  for (int k = 0; k < W; ++k) {
    fz_weight(k, w);
    b.point(u);
    b.seed(0, w);
    CHECK(cudaMemset(b.ds, 0, sizeof(real)));
    reverse<<<1, B>>>(b.x, b.dx, b.y, b.dy, s, b.ds, b.acc, b.dacc, NX);
    sync();
    b.result(0, single[k], b.ds, 1);
    if (k < 2)
      fz_check_rev("rev", k, single[k]);
  }
#endif

#if FZ_MODE(4)
  {
    b.point(u);
    for (int l = 0; l < W; ++l) {
      fz_weight(l, w);
      b.seed(l, w);
    }
    CHECK(cudaMemset(b.ds, 0, sizeof(real) * W));
    reverse_lanes<<<1, B>>>(b.x, b.dx, b.y, b.dy, s, b.ds, b.acc, b.dacc, NX);
    sync();
    for (int l = 0; l < W; ++l) {
      b.result(l, r, b.ds + l, 1);
      fz_check_rev_lane(l, r, have_single ? single[l] : NULL);
    }
  }
#endif

#if FZ_MODE(5)
  {
    fz_weight(0, w);
    b.point(u);
    b.seed(0, w);
    CHECK(cudaMemset(b.ds, 0, sizeof(real)));
    split<<<1, B>>>(b.x, b.dx, b.y, b.dy, s, b.ds, b.acc, b.dacc, b.ret, NX);
    sync();
    b.result(0, r, b.ds, 1);
    fz_check_rev("split", 0, r);
    if (have_single)
      fz_check_same("split", "split vs combined", r, single[0], NIN);
    double primals[NOUT];
    primf(u, w);
    get(primals, b.ret, B);
    fz_check_same("split", "primal", primals, w + XN + YN + 1, B);
  }
#endif
  return fz_finish();
}
