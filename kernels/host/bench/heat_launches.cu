// A time loop of kernel launches: the Allen-Cahn step of
// kernels/host/bench/heat_checkpoint.c as a kernel, launched T times by a
// host driver that allocates its buffers with cudaMalloc, swaps them
// between launches and copies the loss back.  The full tape keeps what each
// launch's adjoint needs; with a tape budget the launch loop is
// checkpointed: its snapshots are device copies of both buffers (tools/
// bench.sh runs it on the emulator, tools/gpu-suite.sh natively).  `check`
// compares d loss / d k with a central difference.
// bench-variant: budget=1MiB -mllvm -gpuad-tape-budget=1
// bench-variant: full-tape
#include <gpuad/gpuad.h>
extern "C" { // the heap accounting wraps the C library's malloc
#include "bench.h"
}

#ifndef N
#define N 4096
#endif
#ifndef T
#define T 200
#endif

struct LoopStats {
  int snapshots;
  long long state_bytes, steps, recomputed_steps;
};
extern "C" LoopStats gpuad_last_loop_stats(void);

__global__ void allenCahn(double *v, const double *u, double k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int l = i > 0 ? i - 1 : i, r = i < n - 1 ? i + 1 : i;
  v[i] =
      u[i] + k * (u[l] - 2 * u[i] + u[r]) + 0.01 * (u[i] - u[i] * u[i] * u[i]);
}

__global__ void squares(double *sum, const double *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, u[i] * u[i]);
}

static void ok(cudaError_t e) {
  if (e != cudaSuccess) {
    fprintf(stderr, "heat_launches: %s\n", cudaGetErrorString(e));
    exit(1);
  }
}

double loss(const double *u0, int steps, double k) {
  size_t bytes = N * sizeof(double);
  double *a, *b, *sum;
  ok(cudaMalloc(&a, bytes));
  ok(cudaMalloc(&b, bytes));
  ok(cudaMalloc(&sum, sizeof(double)));
  ok(cudaMemcpy(a, u0, bytes, cudaMemcpyHostToDevice));
  ok(cudaMemset(sum, 0, sizeof(double)));
  int threads = 256, blocks = (N + threads - 1) / threads;
  for (int t = 0; t < steps; ++t) {
    allenCahn<<<blocks, threads>>>(b, a, k, N);
    double *w = a;
    a = b;
    b = w;
  }
  squares<<<blocks, threads>>>(sum, a, N);
  double s;
  ok(cudaMemcpy(&s, sum, sizeof(double), cudaMemcpyDeviceToHost));
  ok(cudaFree(a));
  ok(cudaFree(b));
  ok(cudaFree(sum));
  return s;
}

struct Ctx {
  double *u0, *du0;
  double k, dk, sink;
};

static void primal(void *c) {
  Ctx *x = (Ctx *)c;
  x->sink += loss(x->u0, T, x->k);
}
static void gradient(void *c) {
  Ctx *x = (Ctx *)c;
  memset(x->du0, 0, sizeof(double) * N);
  x->dk = __enzyme_autodiff<double>((void *)loss, enzyme_dup, x->u0, x->du0,
                                    enzyme_const, T, enzyme_out, x->k);
}

int main() {
  Ctx x = {};
  x.u0 = (double *)calloc(N, sizeof(double));
  x.du0 = (double *)calloc(N, sizeof(double));
  for (int i = 0; i < N; ++i)
    x.u0[i] = 0.5 * sin(6.283185307179586 * 7 * i / N);
  x.k = 0.2;
  gradient(&x);
  double h = 1e-6, dk = x.dk;
  double fd = (loss(x.u0, T, x.k + h) - loss(x.u0, T, x.k - h)) / (2 * h);
  LoopStats st = gpuad_last_loop_stats();
  char size[64];
  snprintf(size, sizeof size, "n=%d T=%d", N, T);
  bench_report("heat launches", size, primal, gradient, &x, bench_rel(dk, fd));
  printf("  heat launches: dk = %.17g", dk);
  if (st.steps)
    printf("; %d snapshots of %lld B, %.2f steps run again per step",
           st.snapshots, st.state_bytes,
           (double)st.recomputed_steps / (double)st.steps);
  printf("\n");
  return 0;
}
