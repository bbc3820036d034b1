// HIP: the device-side situations of the CUDA tests, on amdgcn.
//   - structs (array of structs through a shadowed pointer, a struct by value)
//   - calls between __noinline__ __device__ functions
//   - thread/block ids and sizes inside the differentiated function
//     (inactive; on gfx90a blockDim comes from the implicit kernel arguments)
//     and a wavefront shuffle of an inactive value
//   - __syncthreads() and __shared__ memory in the surrounding kernel only
//
// Debian's ROCm 5.2 headers implement __syncthreads() with
// __atomic_work_item_fence, which no device library defines under that name;
// gpuad gives it a body at the start of the pipeline
// (Target/HipWorkItemFence.cpp), so programs using it link
// (native-link.test).  The kernels use block_sync(), the
// fence/s_barrier/fence sequence newer HIP headers expand __syncthreads() to;
// -DUSE_SYNCTHREADS compiles the real __syncthreads() instead.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -DUSE_SYNCTHREADS -x hip --cuda-device-only -O0 -S %s -o %t.s.O0.s
// RUN: FileCheck %s --input-file=%t.s.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.s.O0.s
// RUN: %gpuad-cc -DUSE_SYNCTHREADS -x hip --cuda-device-only -O2 -S %s -o %t.s.O2.s
// RUN: FileCheck %s --input-file=%t.s.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.s.O2.s
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

// ---- structs ---------------------------------------------------------------
struct Particle {
  double pos[3];
  double mass;
  int kind; // inactive
};
struct Pair {
  double a, b;
};

__device__ double energy(const Particle *p, int i) {
  const Particle &q = p[i];
  double r2 = q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2];
  return (q.kind == 0 ? 0.5 : 0.25) * q.mass * r2 + cos(q.pos[0]);
}

__device__ double pair_fn(Pair p) { return p.a * sin(p.b) + p.b * p.b; }
// The request passes the struct by pointer: by value, amdgcn's calling
// convention splits it into its fields, and gpuad refuses to guess which
// argument is which field's shadow (test/lit/errors/split-struct-argument.cpp).
__device__ double pair_fn_at(const Pair *p) { return pair_fn(*p); }

__global__ void structs_hip(const Particle *p, const Particle *dp,
                            const Pair *pr, const Pair *dpr, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[2 * i] = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, dp,
                                      enzyme_const, i);
  d[2 * i + 1] =
      __enzyme_fwddiff<double>((void *)pair_fn_at, enzyme_dup, pr + i, dpr + i);
}

// ---- __noinline__ calls ----------------------------------------------------
__device__ __noinline__ double square_sin(double x) {
  double s = sin(x);
  return s * s;
}
__device__ __noinline__ double blend(double a, double b) {
  return a * exp(-b) + b * b;
}
__device__ __noinline__ void accumulate(double *acc, double v) {
  *acc += v * v;
}
__device__ double top(double x, double y) {
  double acc = 0.0;
  accumulate(&acc, square_sin(x));
  accumulate(&acc, blend(x, y));
  accumulate(&acc, blend(y, 2.0));
  return acc;
}

__global__ void noinline_hip(const double *x, const double *y, double *d,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)top, enzyme_dup, x[i], 1.0,
                                    enzyme_dup, y[i], 0.5);
}

// ---- thread ids ------------------------------------------------------------
__device__ void by_thread(const double *x, double *y, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  double v = x[gid];
  double s = v * v * (1.0 + threadIdx.x);
  for (int j = gid + blockDim.x * gridDim.x; j < n; j += blockDim.x * gridDim.x)
    s += x[j] * (double)(blockIdx.y + 1);
  int other = __shfl_xor((int)(threadIdx.x % warpSize), 1);
  y[gid] = s * (other + 1);
}

__global__ void thread_ids_hip(const double *x, const double *dx, double *y,
                               double *dy, int n) {
  __enzyme_fwddiff<void>((void *)by_thread, enzyme_dup, x, dx, enzyme_dup, y,
                         dy, enzyme_const, n);
}

// ---- shared memory and barriers around the request --------------------------
#define TILE 128

#ifdef USE_SYNCTHREADS
#define block_sync() __syncthreads()
#else
__device__ inline void block_sync() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif

__device__ double smooth(double left, double mid, double right) {
  return 0.25 * left + 0.5 * mid + 0.25 * right + tanh(mid);
}

__global__ void __launch_bounds__(TILE)
    shared_sync_hip(const double *x, const double *dx, double *dy,
                    double *block_sums, int n) {
  __shared__ double tile[TILE + 2];
  __shared__ double dtile[TILE + 2];
  int t = threadIdx.x;
  int i = blockIdx.x * TILE + t;
  tile[t + 1] = i < n ? x[i] : 0.0;
  dtile[t + 1] = i < n ? dx[i] : 0.0;
  if (t == 0) {
    tile[0] = dtile[0] = 0.0;
    tile[TILE + 1] = dtile[TILE + 1] = 0.0;
  }
  block_sync();
  double d = __enzyme_fwddiff<double>((void *)smooth, enzyme_dup, tile[t],
                                      dtile[t], enzyme_dup, tile[t + 1],
                                      dtile[t + 1], enzyme_dup, tile[t + 2],
                                      dtile[t + 2]);
  if (i < n)
    dy[i] = d;
  block_sync();
  dtile[t] = d;
  block_sync();
  for (int s = TILE / 2; s > 0; s >>= 1) {
    if (t < s)
      dtile[t] += dtile[t + s];
    block_sync();
  }
  if (t == 0)
    block_sums[blockIdx.x] = dtile[0];
}

// CHECK-DAG: .amdhsa_kernel {{.*}}structs_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}noinline_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}thread_ids_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}shared_sync_hip
// CHECK-DAG: s_barrier
// CHECK-DAG: s_swappc_b64

// NOSYM-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Every kernel's tangents against central differences of host copies in
// double along the same seeds: the struct shadows (the inactive `kind` of
// the shadow holds garbage), the noinline chain along (1, 0.5), by_thread
// along the whole dx vector (its loop reads other threads' x; the shuffle
// partner's lane is part of the host copy), and the shared-memory stencil
// per thread plus its block sums.  by_thread's primal y too, and the slots
// it must not write.

#include "include/devcheck.h"

static double hostEnergy(const Particle &q) {
  double r2 = q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2];
  return (q.kind == 0 ? 0.5 : 0.25) * q.mass * r2 + std::cos(q.pos[0]);
}
static Particle moved(Particle q, const Particle &dq, double e) {
  for (int c = 0; c < 3; ++c)
    q.pos[c] += e * dq.pos[c];
  q.mass += e * dq.mass;
  return q;
}
static double hostPair(double a, double b) { return a * std::sin(b) + b * b; }

static double hostBlend(double a, double b) { return a * std::exp(-b) + b * b; }
static double hostTop(double x, double y) {
  double s = std::sin(x), p = hostBlend(x, y), q = hostBlend(y, 2.0);
  return s * s * s * s + p * p + q * q;
}

// by_thread for a 1-D grid of `threads` threads in blocks of `block`.
static double hostByThread(const std::vector<double> &x, int gid, int block,
                           int threads) {
  int n = (int)x.size(), t = gid % block;
  double s = x[gid] * x[gid] * (1.0 + t);
  for (int j = gid + threads; j < n; j += threads)
    s += x[j];              // blockIdx.y == 0
  int other = (t % 64) ^ 1; // wave64: the partner lane's id
  return s * (other + 1);
}

static double hostSmooth(double l, double m, double r) {
  return 0.25 * l + 0.5 * m + 0.25 * r + std::tanh(m);
}

int main() {
  const double H = 1e-6; // double central differences: error ~1e-9 here
  Tol fd{"fd", 1e-6};
  // Primal values computed by the same arithmetic: FMA contraction only.
  Tol primal{"primal", 1e-13};
  const int block = 128;

  // ---- structs ----
  const int ns = 300;
  std::vector<Particle> p(ns), dp(ns);
  std::vector<Pair> pr(ns), dpr(ns);
  for (int i = 0; i < ns; ++i) {
    for (int c = 0; c < 3; ++c) {
      p[i].pos[c] = std::sin(0.3 * i + c);
      dp[i].pos[c] = 0.5 + 0.25 * std::cos(0.7 * i + 2 * c);
    }
    p[i].mass = 1.0 + 0.01 * i;
    dp[i].mass = 0.3 - 0.002 * i;
    p[i].kind = i % 3 == 0;
    dp[i].kind = 12345; // the shadow of an inactive field: never read
    pr[i] = {std::cos(0.11 * i), -1.5 + 3.0 * i / ns};
    dpr[i] = {0.25 + 0.001 * i, 0.75 - 0.002 * i};
  }
  Particle *dP = deviceCopy(p), *dDp = deviceCopy(dp);
  Pair *dPr = deviceCopy(pr), *dDpr = deviceCopy(dpr);
  double *dS = deviceCopy(std::vector<double>(2 * ns, 0.0));
  structs_hip<<<(ns + block - 1) / block, block>>>(dP, dDp, dPr, dDpr, dS, ns);
  CHECK(hipGetLastError());

  // ---- noinline calls ----
  const int nn = 400;
  std::vector<double> nx(nn), ny(nn);
  for (int i = 0; i < nn; ++i) {
    nx[i] = -2.0 + 4.0 * (i + 0.5) / nn;
    ny[i] = -1.0 + 2.5 * (double)((i * 31) % nn) / nn;
  }
  double *dNx = deviceCopy(nx), *dNy = deviceCopy(ny);
  double *dN = deviceCopy(std::vector<double>(nn, 0.0));
  hipLaunchKernelGGL(noinline_hip, dim3((nn + block - 1) / block), dim3(block),
                     0, 0, dNx, dNy, dN, nn);
  CHECK(hipGetLastError());

  // ---- thread ids: 2 blocks of 128 over n = 600, so the grid-stride loop
  // runs 1 or 2 times; slots 256..599 are not written ----
  const int nt = 600, tgrid = 2, threads = tgrid * block;
  const double sentinel = -7.0;
  std::vector<double> tx(nt), tdx(nt);
  for (int i = 0; i < nt; ++i) {
    tx[i] = std::cos(0.05 * i);
    tdx[i] = 0.5 + 0.4 * std::sin(0.3 * i);
  }
  double *dTx = deviceCopy(tx), *dTdx = deviceCopy(tdx);
  double *dTy = deviceCopy(std::vector<double>(nt, sentinel)),
         *dTdy = deviceCopy(std::vector<double>(nt, sentinel));
  thread_ids_hip<<<tgrid, block>>>(dTx, dTdx, dTy, dTdy, nt);
  CHECK(hipGetLastError());

  // ---- shared memory: 3 tiles, the last one partial ----
  const int nsh = 300, shGrid = (nsh + block - 1) / block;
  std::vector<double> sx(nsh), sdx(nsh);
  for (int i = 0; i < nsh; ++i) {
    sx[i] = 1.5 * std::sin(0.07 * i);
    sdx[i] = 0.25 + 0.5 * std::cos(0.13 * i);
  }
  double *dSx = deviceCopy(sx), *dSdx = deviceCopy(sdx);
  double *dSdy = deviceCopy(std::vector<double>(nsh, 0.0)),
         *dSums = deviceCopy(std::vector<double>(shGrid, 0.0));
  shared_sync_hip<<<shGrid, block>>>(dSx, dSdx, dSdy, dSums, nsh);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());

  std::vector<double> s = hostCopy(dS, 2 * ns);
  for (int i = 0; i < ns; ++i) {
    expectNear(fd, "d energy", i, s[2 * i],
               (hostEnergy(moved(p[i], dp[i], H)) -
                hostEnergy(moved(p[i], dp[i], -H))) /
                   (2 * H));
    expectNear(fd, "d pair_fn", i, s[2 * i + 1],
               (hostPair(pr[i].a + H * dpr[i].a, pr[i].b + H * dpr[i].b) -
                hostPair(pr[i].a - H * dpr[i].a, pr[i].b - H * dpr[i].b)) /
                   (2 * H));
  }

  std::vector<double> nd = hostCopy(dN, nn);
  for (int i = 0; i < nn; ++i)
    expectNear(fd, "d(1,0.5) top", i, nd[i],
               (hostTop(nx[i] + H, ny[i] + 0.5 * H) -
                hostTop(nx[i] - H, ny[i] - 0.5 * H)) /
                   (2 * H));

  std::vector<double> ty = hostCopy(dTy, nt), tdy = hostCopy(dTdy, nt);
  std::vector<double> txp(nt), txm(nt);
  for (int i = 0; i < nt; ++i)
    txp[i] = tx[i] + H * tdx[i], txm[i] = tx[i] - H * tdx[i];
  for (int i = 0; i < nt; ++i) {
    if (i >= threads) {
      expectNear(primal, "by_thread y (unwritten)", i, ty[i], sentinel);
      expectNear(primal, "by_thread dy (unwritten)", i, tdy[i], sentinel);
      continue;
    }
    expectNear(primal, "by_thread y", i, ty[i],
               hostByThread(tx, i, block, threads));
    expectNear(fd, "by_thread dy", i, tdy[i],
               (hostByThread(txp, i, block, threads) -
                hostByThread(txm, i, block, threads)) /
                   (2 * H));
  }

  std::vector<double> sdy = hostCopy(dSdy, nsh), sums = hostCopy(dSums, shGrid);
  for (int b = 0; b < shGrid; ++b) {
    // The block's tile as the kernel builds it: zeros outside the block.
    double tile[block + 2] = {}, dtile[block + 2] = {};
    for (int t = 0; t < block; ++t) {
      int i = b * block + t;
      if (i < nsh)
        tile[t + 1] = sx[i], dtile[t + 1] = sdx[i];
    }
    double sum = 0;
    for (int t = 0; t < block; ++t) {
      const double *v = tile + t, *dv = dtile + t;
      double d =
          (hostSmooth(v[0] + H * dv[0], v[1] + H * dv[1], v[2] + H * dv[2]) -
           hostSmooth(v[0] - H * dv[0], v[1] - H * dv[1], v[2] - H * dv[2])) /
          (2 * H);
      sum += d; // threads past n contribute too
      int i = b * block + t;
      if (i < nsh)
        expectNear(fd, "d smooth", i, sdy[i], d);
    }
    expectNear(fd, "block sum", b, sums[b], sum);
  }

  return finish("struct, noinline, thread-id and shared-memory tangents vs "
                "central FD h=1e-6 of host copies; by_thread's y and "
                "untouched slots",
                {&fd, &primal});
}
