// Split mode as programs written for Enzyme do it: __enzyme_augmentfwd is
// declared to return a struct of the program's own (an 8-byte
// `struct Byte8 { char x[8]; }`), each thread stores it in a global array,
// and a second kernel hands it to __enzyme_reverse.  The collide step of a
// D3Q19 lattice Boltzmann site (BGK) keeps 19 populations and more on its
// tape, so the 8 bytes hold a pointer to it; a struct big enough holds the
// tape itself (no device malloc), as do the tape-and-primal pair, an
// integer, and enzyme_allocated.  No gpuad header: the markers are the
// program's own declarations.  Each gradient vs the combined one
// (__enzyme_autodiff, 1e-13) and vs central finite differences of a host
// copy (1e-6).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// The by-value kernels allocate nothing.
// CHECK-LABEL: .entry _Z12aug_by_value
// CHECK-NOT: malloc
// CHECK: ret;

#include "include/plaincheck.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int Q = 19, L = 4, Sites = L * L * L;

__host__ __device__ inline int velocity(int q, int axis) {
  // D3Q19: rest, 6 faces, 12 edges.
  const signed char c[Q][3] = {
      {0, 0, 0},  {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0},
      {0, 0, 1},  {0, 0, -1}, {1, 1, 0},  {-1, -1, 0}, {1, -1, 0},
      {-1, 1, 0}, {1, 0, 1},  {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1},
      {0, 1, 1},  {0, -1, -1}, {0, 1, -1}, {0, -1, 1}};
  return c[q][axis];
}
__host__ __device__ inline double weight(int q) {
  return q == 0 ? 1.0 / 3 : q < 7 ? 1.0 / 18 : 1.0 / 36;
}

// BGK collision at site s, streamed to the neighbours (periodic):
// out[(s + c_q) * Q + q] = f_q - omega (f_q - feq_q(rho, u)).
__host__ __device__ void collideStream(const double *in, double *out, int s,
                                       double omega) {
  const double *f = in + s * Q;
  double rho = 0, m[3] = {0, 0, 0};
  for (int q = 0; q < Q; ++q) {
    rho += f[q];
    for (int a = 0; a < 3; ++a)
      m[a] += f[q] * velocity(q, a);
  }
  double u[3] = {m[0] / rho, m[1] / rho, m[2] / rho};
  double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  int x = s % L, y = s / L % L, z = s / (L * L);
  for (int q = 0; q < Q; ++q) {
    double cu = velocity(q, 0) * u[0] + velocity(q, 1) * u[1] +
                velocity(q, 2) * u[2];
    double feq = weight(q) * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * uu);
    int nx = (x + velocity(q, 0) + L) % L, ny = (y + velocity(q, 1) + L) % L,
        nz = (z + velocity(q, 2) + L) % L;
    out[((nz * L + ny) * L + nx) * Q + q] = f[q] - omega * (f[q] - feq);
  }
}

__device__ void site(const double *in, double *out, double omega) {
  collideStream(in, out, blockIdx.x * blockDim.x + threadIdx.x, omega);
}

extern __device__ int enzyme_dup, enzyme_const, enzyme_allocated;
struct Byte8 {
  char x[8];
};
struct Tape512 {
  char x[512];
};
struct WithPrimal {
  Byte8 tape;
  double primal;
};
__device__ Byte8 __enzyme_augmentfwd(void *, ...);
__device__ Tape512 __enzyme_augmentfwd_512(void *, ...);
__device__ unsigned long long __enzyme_augmentfwd_u64(void *, ...);
__device__ void __enzyme_reverse(void *, ...);
__device__ void __enzyme_autodiff(void *, ...);

__device__ double siteSum(const double *in, double *out, double omega) {
  site(in, out, omega);
  return 0.5;
}
__device__ WithPrimal __enzyme_augmentfwd_pair(void *, ...);

#define ARGS enzyme_dup, in, din, enzyme_dup, out, dout, enzyme_const, omega
#define ID (blockIdx.x * blockDim.x + threadIdx.x)
#define PARAMS                                                                 \
  const double *in, double *din, double *out, double *dout, double omega

__global__ void aug_pointer(PARAMS, Byte8 *tapes) {
  tapes[ID] = __enzyme_augmentfwd((void *)site, ARGS);
}
__global__ void rev_pointer(PARAMS, const Byte8 *tapes) {
  __enzyme_reverse((void *)site, ARGS, tapes[ID]);
}
__global__ void aug_by_value(PARAMS, Tape512 *tapes) {
  tapes[ID] = __enzyme_augmentfwd_512((void *)site, ARGS);
}
__global__ void rev_by_value(PARAMS, const Tape512 *tapes) {
  __enzyme_reverse((void *)site, ARGS, tapes[ID]);
}
__global__ void aug_pair(PARAMS, Byte8 *tapes, double *primal) {
  WithPrimal a = __enzyme_augmentfwd_pair((void *)siteSum, ARGS);
  tapes[ID] = a.tape;
  primal[ID] = a.primal;
}
__global__ void rev_pair(PARAMS, const Byte8 *tapes) {
  __enzyme_reverse((void *)siteSum, ARGS, 1.0, tapes[ID]);
}
__global__ void aug_u64(PARAMS, unsigned long long *tapes) {
  tapes[ID] = __enzyme_augmentfwd_u64((void *)site, ARGS);
}
__global__ void rev_u64(PARAMS, const unsigned long long *tapes) {
  __enzyme_reverse((void *)site, ARGS, tapes[ID]);
}
__global__ void aug_allocated(PARAMS, Tape512 *tapes) {
  tapes[ID] = __enzyme_augmentfwd_512((void *)site, enzyme_allocated, 512,
                                      ARGS);
}
__global__ void rev_allocated(PARAMS, const Tape512 *tapes) {
  __enzyme_reverse((void *)site, enzyme_allocated, 512, ARGS, tapes[ID]);
}
__global__ void combined(PARAMS) { __enzyme_autodiff((void *)site, ARGS); }

// ---- Host: run each pair of kernels, check against FD and combined ----

static double loss(const std::vector<double> &in, const std::vector<double> &w,
                   double omega) {
  std::vector<double> out(in.size());
  for (int s = 0; s < Sites; ++s)
    collideStream(in.data(), out.data(), s, omega);
  double sum = 0;
  for (size_t i = 0; i < out.size(); ++i)
    sum += w[i] * out[i];
  return sum;
}

int main() {
  const size_t N = size_t(Sites) * Q;
  const double omega = 1.3;
  std::vector<double> in(N), w(N);
  for (size_t i = 0; i < N; ++i) {
    in[i] = weight(int(i % Q)) * (1.0 + 0.05 * std::sin(0.7 * double(i)));
    w[i] = std::cos(0.3 * double(i));
  }
  // The reference: central differences of the weighted sum of the outputs.
  std::vector<double> fd(N);
  for (size_t i = 0; i < N; ++i) {
    std::vector<double> p = in, m = in;
    double h = 1e-6 * std::fmax(std::fabs(in[i]), 1.0);
    p[i] += h;
    m[i] -= h;
    fd[i] = (loss(p, w, omega) - loss(m, w, omega)) / (2 * h);
  }

  double *din, *dgrad, *dout, *dseed, *dprimal;
  void *dtapes;
  CHECK_CUDA(cudaMalloc((void **)&din, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc((void **)&dgrad, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc((void **)&dout, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc((void **)&dseed, N * sizeof(double)));
  CHECK_CUDA(cudaMalloc((void **)&dprimal, Sites * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&dtapes, Sites * sizeof(Tape512)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), N * sizeof(double),
                        cudaMemcpyHostToDevice));
  const int Block = 32, Blocks = Sites / Block;

  std::vector<double> reference;
  for (int kind = 0; kind < 6; ++kind) {
    std::vector<double> zero(N, 0.0);
    CHECK_CUDA(cudaMemcpy(dgrad, zero.data(), N * sizeof(double),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dseed, w.data(), N * sizeof(double),
                          cudaMemcpyHostToDevice));
    const char *name = "";
#define RUN(aug, rev, ...)                                                     \
  aug<<<Blocks, Block>>>(din, dgrad, dout, dseed, omega, __VA_ARGS__);         \
  CHECK_CUDA(cudaDeviceSynchronize());                                         \
  rev<<<Blocks, Block>>>(din, dgrad, dout, dseed, omega,                       \
                         (decltype(__VA_ARGS__))dtapes);                       \
  name = #aug;
    switch (kind) {
    case 0:
      combined<<<Blocks, Block>>>(din, dgrad, dout, dseed, omega);
      name = "combined";
      break;
    case 1:
      RUN(aug_pointer, rev_pointer, (Byte8 *)dtapes);
      break;
    case 2:
      RUN(aug_by_value, rev_by_value, (Tape512 *)dtapes);
      break;
    case 3:
      aug_pair<<<Blocks, Block>>>(din, dgrad, dout, dseed, omega,
                                  (Byte8 *)dtapes, dprimal);
      CHECK_CUDA(cudaDeviceSynchronize());
      rev_pair<<<Blocks, Block>>>(din, dgrad, dout, dseed, omega,
                                  (const Byte8 *)dtapes);
      name = "aug_pair";
      break;
    case 4:
      RUN(aug_u64, rev_u64, (unsigned long long *)dtapes);
      break;
    case 5:
      RUN(aug_allocated, rev_allocated, (Tape512 *)dtapes);
      break;
    }
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> grad(N);
    CHECK_CUDA(cudaMemcpy(grad.data(), dgrad, N * sizeof(double),
                          cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < N; ++i) {
      expectNear(name, i, grad[i], fd[i], 1e-6);
      if (kind > 0)
        expectNear(name, i, grad[i], reference[i], 1e-13);
    }
    if (kind == 0)
      reference = grad;
    if (kind == 3) {
      std::vector<double> primal(Sites);
      CHECK_CUDA(cudaMemcpy(primal.data(), dprimal, Sites * sizeof(double),
                            cudaMemcpyDeviceToHost));
      for (int s = 0; s < Sites; ++s)
        expectNear("primal", size_t(s), primal[s], 0.5, 0);
    }
  }
  cudaFree(din);
  cudaFree(dgrad);
  cudaFree(dout);
  cudaFree(dseed);
  cudaFree(dprimal);
  cudaFree(dtapes);
  if (failures) {
    std::printf("split-user-tape: FAIL (%d mismatches)\n", failures);
    return 1;
  }
  std::printf("split-user-tape: PASS (5 tape declarations x %zu gradient "
              "entries vs FD 1e-6 and combined 1e-13)\n",
              N);
  return 0;
}
