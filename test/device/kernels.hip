// HIP: the device-side situations of the CUDA tests, on amdgcn.
//   - structs (array of structs through a shadowed pointer, a struct by value)
//   - calls between __noinline__ __device__ functions
//   - thread/block ids and sizes inside the differentiated function
//     (inactive; on gfx90a blockDim comes from the implicit kernel arguments)
//     and a wavefront shuffle of an inactive value
//   - __syncthreads() and __shared__ memory in the surrounding kernel only
//
// Debian's ROCm 5.2 headers implement __syncthreads() with
// __atomic_work_item_fence, which lives in opencl.bc and which clang 22 does
// not link for HIP, so any HIP program using __syncthreads() fails to link
// here, with or without gpuad.  The kernels therefore use block_sync(), the
// fence/s_barrier/fence sequence newer HIP headers expand __syncthreads() to;
// -DUSE_SYNCTHREADS compiles the real __syncthreads() to assembly only.
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

__global__ void structs_hip(const Particle *p, const Particle *dp,
                            const Pair *pr, const Pair *dpr, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[2 * i] = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, dp,
                                      enzyme_const, i);
  d[2 * i + 1] =
      __enzyme_fwddiff<double>((void *)pair_fn, enzyme_dup, pr[i], dpr[i]);
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
