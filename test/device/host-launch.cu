// A whole GPU program's host driver differentiated from one host request:
// it allocates, copies in on a stream, zeroes with memset, runs a time loop
// of a stencil kernel and an in-place kernel through a helper function that
// launches them, swapping its ping-pong buffers on the host, then reduces
// with a shared-memory kernel (hipLaunchKernelGGL in HIP) and an atomic
// kernel (cudaLaunchKernel / hipLaunchKernel with an argument array),
// copies back and finishes the loss on the host.  A constant coefficient field (memory no derivative
// reaches) gets a zeroed stand-in shadow; the reaction rate is a by-value
// float argument whose adjoint comes back from the device.
// Checked: the reverse gradient (x and the rate) against central
// differences (rtol 1e-6); the forward tangent against it (the dot-product
// test, rtol 1e-10); split mode (__enzyme_augmentfwd/__enzyme_reverse of the
// driver) and each lane of width-2 reverse and forward requests against
// the single requests (rtol 1e-12).  Built with -DCHECKPOINTED=N (a marker
// asking for N snapshots) or -DCHECKPOINTED=0 with a tape budget, the time
// loop is checkpointed: its device buffers are snapshots, and the width-2
// lanes (full tape) check the checkpointed gradient.
// RUN: %gpuad-cc --emulate -O2 -DCHECKPOINTED=3 -Rpass=gpuad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: host-launch.cu:[[@LINE+114]]:3: remark: loop checkpointed: its state is {{.*}} on the device (its whole allocation){{.*}}; snapshots: 3,
//
// The host half launches the derivative kernels, which the device half
// contains:
// REQUIRES: cuda
// (an empty fatbin: the host compile then registers its kernels)
// RUN: touch %t.fatbin
// RUN: %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=HOST
// HOST-DAG: call i32 @__cudaRegisterFunction(ptr %{{.*}}, ptr nonnull @__gpuad_rev__Z7diffusePdPKdS1_di.gpuad.handle
// HOST-DAG: call i32 @__cudaRegisterFunction(ptr %{{.*}}, ptr nonnull @__gpuad_fwd__Z5reactPddi.gpuad.handle
// HOST-DAG: call i32 @cudaLaunchKernel(ptr nonnull @__gpuad_rev__Z10atomicLossPdPKdi.gpuad.handle
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// PTX-DAG: .entry __gpuad_fwd__Z7diffusePdPKdS1_di(
// PTX-DAG: .entry __gpuad_rev__Z7diffusePdPKdS1_di(
// PTX-DAG: .entry __gpuad_rev__Z9blockSumsPdPKdi(
// PTX-DAG: .entry __gpuad_rev__Z5reactPddi(

#include <gpuad/gpuad.h>

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif

#include <cstdlib>

constexpr int N = 80;
constexpr int Threads = 32;
constexpr int Blocks = (N + Threads - 1) / Threads;
constexpr int Steps = 10;

__global__ void diffuse(double *out, const double *in, const double *k,
                        double dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double l = in[(i + n - 1) % n], r = in[(i + 1) % n];
    out[i] = in[i] + dt * k[i] * (l - 2 * in[i] + r);
  }
}

// In place: its adjoint needs u as it was before the launch.
__global__ void react(double *u, double rate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = u[i] + rate * sin(u[i]) * (1 - u[i] * u[i] / 4);
}

__global__ void blockSums(double *sums, const double *u, int n) {
  __shared__ double s[Threads];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? u[i] * u[i] : 0.0;
  __syncthreads();
  for (int w = Threads / 2; w > 0; w /= 2) {
    if (t < w)
      s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0)
    sums[blockIdx.x] = s[0];
}

__global__ void atomicLoss(double *total, const double *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, u[i] * (1 + 0.01 * i));
}

// Integers only, a struct by value: no derivative flows through its
// launches, which run as they are.
struct Window {
  int lo, hi, stride, pad[5];
};
__global__ void countInside(int *count, Window w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % w.stride == 0 && i > w.lo && i < w.hi)
    atomicAdd(count, 1);
}

static void ok(int status) {
  if (status != 0)
    abort();
}

// A helper the driver calls: its launches are differentiated too.
__attribute__((noinline)) static void step(API(Stream_t) s, double *out,
                                           const double *in, const double *k,
                                           double rate) {
  diffuse<<<Blocks, Threads, 0, s>>>(out, in, k, 0.2, N);
  react<<<Blocks, Threads, 0, s>>>(out, rate, N);
}

double loss(const double *x, double rate) {
  size_t bytes = N * sizeof(double);
  double *a, *b, *k, *sums, *total;
  ok(API(Malloc)(&a, bytes));
  ok(API(Malloc)(&b, bytes));
  ok(API(Malloc)(&k, bytes));
  ok(API(Malloc)(&sums, Blocks * sizeof(double)));
  ok(API(Malloc)(&total, sizeof(double)));
  API(Stream_t) s;
  ok(API(StreamCreate)(&s));
  double coefficients[N];
  for (int i = 0; i < N; ++i)
    coefficients[i] = 0.5 + 0.4 * ((i * 7) % 5) / 5.0;
  ok(API(MemcpyAsync)(a, x, bytes, API(MemcpyHostToDevice), s));
  ok(API(MemcpyAsync)(k, coefficients, bytes, API(MemcpyHostToDevice), s));
  ok(API(Memset)(total, 0, sizeof(double)));
  int *count;
  ok(API(Malloc)(&count, sizeof(int)));
  ok(API(Memset)(count, 0, sizeof(int)));
  for (int t = 0; t < Steps; ++t) {
#if CHECKPOINTED > 0
    __gpuad_checkpoint(CHECKPOINTED);
#endif
    step(s, b, a, k, rate);
    countInside<<<Blocks, Threads, 0, s>>>(count, Window{4, 60, 2, {}}, N);
    double *swap = a;
    a = b;
    b = swap;
  }
  // The runtime's launch functions, as well as <<<>>>.
#ifdef __HIP__
  hipLaunchKernelGGL(blockSums, dim3(Blocks), dim3(Threads), 0, s, sums,
                     (const double *)a, N);
#else
  blockSums<<<Blocks, Threads, 0, s>>>(sums, a, N);
#endif
  {
    const double *in = a;
    int n = N;
    void *args[] = {&total, &in, &n};
    ok(API(LaunchKernel)((const void *)atomicLoss, dim3(Blocks),
                         dim3(Threads), args, 0, s));
  }
  ok(API(StreamSynchronize)(s));
  double h[Blocks + 1];
  ok(API(Memcpy)(h, sums, Blocks * sizeof(double), API(MemcpyDeviceToHost)));
  ok(API(Memcpy)(h + Blocks, total, sizeof(double), API(MemcpyDeviceToHost)));
  double result = h[Blocks] * h[Blocks];
  for (int b = 0; b < Blocks; ++b)
    result += h[b] * (1 + 0.1 * b);
  ok(API(StreamDestroy)(s));
  ok(API(Free)(a));
  ok(API(Free)(b));
  ok(API(Free)(k));
  ok(API(Free)(sums));
  ok(API(Free)(total));
  ok(API(Free)(count));
  return result;
}

#include "include/devcheck.h"

#ifdef CHECKPOINTED
// The checkpointed loop's run record (runtime/CheckpointedLoop.h).
struct LoopStats {
  int snapshots;
  long long state_bytes, steps, recomputed_steps;
};
extern "C" LoopStats gpuad_last_loop_stats();
#endif

/// A width-2 request's two lanes.
struct Lanes {
  double lane[2];
};

int main() {
  std::vector<double> x(N), v(N);
  for (int i = 0; i < N; ++i) {
    x[i] = std::sin(0.3 * i) + 0.1;
    v[i] = 0.5 - 0.01 * i;
  }
  const double rate = 0.3, vrate = -0.7;
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10}, same{"same", 1e-12};

  std::vector<double> g(N, 0.0);
  double grate = __enzyme_autodiff<double>((void *)loss, enzyme_dup, x.data(),
                                           g.data(), enzyme_out, rate);
#ifdef CHECKPOINTED
  // Built to checkpoint the time loop (a marker asking for CHECKPOINTED
  // snapshots, or a budget): the reverse sweep ran steps again from
  // snapshots, and the width-2 requests below (never checkpointed) check
  // its gradient against the full tape's.
  LoopStats st = gpuad_last_loop_stats();
  bool ran = st.steps >= Steps && st.recomputed_steps >= st.steps &&
             (CHECKPOINTED == 0 || (st.snapshots == CHECKPOINTED &&
                                    st.recomputed_steps > st.steps));
  if (!ran)
    std::printf("checkpointed loop: %lld steps, %d snapshots, %lld run "
                "again\n",
                st.steps, st.snapshots, st.recomputed_steps);
  expectNear(same, "the loop was checkpointed", 0, ran ? 1.0 : 0.0, 1.0);
#endif
  for (int i = 0; i < N; ++i) {
    std::vector<double> p = x, m = x;
    double h = 1e-6 * std::fmax(std::fabs(x[i]), 1.0);
    p[i] += h;
    m[i] -= h;
    expectNear(fd, "dloss/dx", i, g[i],
               (loss(p.data(), rate) - loss(m.data(), rate)) / (2 * h));
  }
  double h = 1e-6;
  expectNear(fd, "dloss/drate", 0, grate,
             (loss(x.data(), rate + h) - loss(x.data(), rate - h)) / (2 * h));

  std::vector<double> vd = v;
  double tangent = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, x.data(),
                                            vd.data(), enzyme_dup, rate, vrate);
  expectNear(dot, "<g, v> = tangent", 0, tangent,
             dotProduct(g, v) + grate * vrate);

  std::vector<double> gs(N, 0.0);
  void *tape = __enzyme_augmentfwd<void *>((void *)loss, enzyme_dup, x.data(),
                                           gs.data(), enzyme_out, rate,
                                           enzyme_noret);
  double srate = __enzyme_reverse<double>((void *)loss, enzyme_dup, x.data(),
                                          gs.data(), enzyme_out, rate, 1.0,
                                          tape);
  for (int i = 0; i < N; ++i)
    expectNear(same, "split", i, gs[i], g[i]);
  expectNear(same, "split rate", 0, srate, grate);
  // Width 2: each lane as the single request (the second lane's direction
  // is the first's, doubled).
  std::vector<double> g2(2 * N, 0.0);
  Lanes r2 = __enzyme_autodiff<Lanes>(
      (void *)loss, enzyme_width, 2, enzyme_dupv, (int)(N * sizeof(double)),
      x.data(), g2.data(), enzyme_out, rate);
  for (int i = 0; i < N; ++i) {
    expectNear(same, "width 2 lane 0", i, g2[i], g[i]);
    expectNear(same, "width 2 lane 1", i, g2[N + i], g[i]);
  }
  expectNear(same, "width 2 rate", 0, r2.lane[0], grate);
  expectNear(same, "width 2 rate", 1, r2.lane[1], grate);
  std::vector<double> v2(2 * N);
  for (int i = 0; i < N; ++i)
    v2[i] = v[i], v2[N + i] = 2 * v[i];
  Lanes t2 = __enzyme_fwddiff<Lanes>(
      (void *)loss, enzyme_width, 2, enzyme_dupv, (int)(N * sizeof(double)),
      x.data(), v2.data(), enzyme_dup, rate, vrate, 2 * vrate);
  expectNear(same, "forward width 2", 0, t2.lane[0], tangent);
  expectNear(same, "forward width 2", 1, t2.lane[1], 2 * tangent);
  return finish("a driver's launches in a time loop with ping-pong buffers, "
                "in place, shared memory, atomics, streams and memset: "
                "reverse, forward, split and width 2",
                {&fd, &dot, &same});
}
