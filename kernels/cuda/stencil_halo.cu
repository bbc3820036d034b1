//===- stencil_halo.cu - 1-D stencil through a shared tile with halos -----===//
//
// Part of gpuad.
//
// A (2R+1)-point weighted stencil on a periodic 1-D grid, advanced for a
// number of time steps, one launch per step, ping-ponging two buffers.
// Each block stages its tile plus a halo of R points on either side in
// shared memory -- every thread loads its own point, the first R threads
// also the left and right halos (wrapped around the ends of the grid) --
// then a barrier, then each thread takes the weighted sum of its 2R+1
// neighbours.  The weights, deliberately asymmetric so that a mirrored
// index shows, live in __constant__ memory set by cudaMemcpyToSymbol; the
// barrier is __syncthreads_count, whose count of the block's in-range
// threads one thread adds to a __device__ counter, read back with
// cudaMemcpyFromSymbol after the last step.
//
// The grid size is not a multiple of the block, so the last block has
// threads past the end: they load (the wrapped-around right halo) and reach
// the barrier, but store nothing.  The result is compared with a host
// stencil in double to an absolute tolerance (the weights are positive and
// sum to 1, so values stay in [0, 1) and float rounding adds at most
// 2 * (2R+1) units of 2^-24 per step).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "include/cuda_check.h"

constexpr int RADIUS = 3;
constexpr int WIDTH = 2 * RADIUS + 1;
constexpr int BLOCK = 128;

__constant__ float Weights[WIDTH];
__device__ unsigned PointsUpdated;

/// Deterministic inputs in [0, 1): a 32-bit LCG (Numerical Recipes).
static unsigned Seed = 31337u;
static float nextUniform() { return static_cast<float>(nextLcg(Seed)); }

__device__ __forceinline__ int wrap(int I, int N) { return (I % N + N) % N; }

__global__ void __launch_bounds__(BLOCK)
    stencilStep(const float *In, float *Out, int N) {
  __shared__ float Tile[BLOCK + 2 * RADIUS];
  int G = blockIdx.x * blockDim.x + threadIdx.x;
  int L = threadIdx.x + RADIUS;
  Tile[L] = In[wrap(G, N)];
  if (threadIdx.x < RADIUS) {
    Tile[L - RADIUS] = In[wrap(G - RADIUS, N)];
    Tile[L + blockDim.x] = In[wrap(G + blockDim.x, N)];
  }
  int InRange = __syncthreads_count(G < N);
  if (threadIdx.x == 0)
    atomicAdd(&PointsUpdated, static_cast<unsigned>(InRange));
  if (G >= N)
    return;
  float Sum = 0.0f;
#pragma unroll
  for (int J = -RADIUS; J <= RADIUS; ++J)
    Sum += Weights[J + RADIUS] * Tile[L + J];
  Out[G] = Sum;
}

int main() {
  const int N = 2999;
  const int Steps = 8;
  const float HostWeights[WIDTH] = {0.02f, 0.08f, 0.15f, 0.35f,
                                    0.25f, 0.10f, 0.05f};

  std::vector<float> Init(N);
  for (float &V : Init)
    V = nextUniform();

  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  float *DA, *DB;
  CHECK(cudaMalloc(&DA, N * sizeof(float)));
  CHECK(cudaMalloc(&DB, N * sizeof(float)));
  CHECK(cudaMemcpyAsync(DA, Init.data(), N * sizeof(float),
                        cudaMemcpyHostToDevice, Stream));
  CHECK(cudaMemcpyToSymbol(Weights, HostWeights, sizeof(HostWeights)));
  const unsigned Zero = 0;
  CHECK(cudaMemcpyToSymbol(PointsUpdated, &Zero, sizeof(Zero)));

  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  const int Blocks = (N + BLOCK - 1) / BLOCK;
  float *Cur = DA, *Next = DB;
  float StepMs = 0.0f;
  for (int S = 0; S < Steps; ++S) {
    if (S == 0)
      CHECK(cudaEventRecord(Start, Stream));
    stencilStep<<<Blocks, BLOCK, 0, Stream>>>(Cur, Next, N);
    CHECK_LAUNCH();
    if (S == 0) {
      CHECK(cudaEventRecord(Stop, Stream));
      CHECK(cudaEventSynchronize(Stop));
      CHECK(cudaEventElapsedTime(&StepMs, Start, Stop));
    }
    std::swap(Cur, Next);
  }
  CHECK(cudaStreamSynchronize(Stream));

  std::vector<float> Got(N);
  CHECK(cudaMemcpy(Got.data(), Cur, N * sizeof(float), cudaMemcpyDeviceToHost));
  unsigned Points = 0;
  CHECK(cudaMemcpyFromSymbol(&Points, PointsUpdated, sizeof(Points)));
  float WeightsBack[WIDTH];
  CHECK(cudaMemcpyFromSymbol(WeightsBack, Weights, sizeof(WeightsBack)));

  // Host reference.
  std::vector<double> Ref(Init.begin(), Init.end()), Tmp(N);
  for (int S = 0; S < Steps; ++S) {
    for (int I = 0; I < N; ++I) {
      double Sum = 0.0;
      for (int J = -RADIUS; J <= RADIUS; ++J)
        Sum += static_cast<double>(HostWeights[J + RADIUS]) *
               Ref[((I + J) % N + N) % N];
      Tmp[I] = Sum;
    }
    Ref.swap(Tmp);
  }

  for (int J = 0; J < WIDTH; ++J)
    if (WeightsBack[J] != HostWeights[J]) {
      std::fprintf(stderr,
                   "stencil_halo: FAIL __constant__ Weights[%d] read back: "
                   "got %.9g, expected %.9g (tolerance 0, exact)\n",
                   J, WeightsBack[J], HostWeights[J]);
      return 1;
    }
  if (Points != static_cast<unsigned>(N * Steps)) {
    std::fprintf(stderr,
                 "stencil_halo: FAIL __device__ PointsUpdated: got %u, "
                 "expected %u (tolerance 0, exact)\n",
                 Points, static_cast<unsigned>(N * Steps));
    return 1;
  }
  // Per step: 7 products and 7 sums of values in [0, 1), each rounding
  // by at most 2^-24 relative, and rounding errors do not grow (weights
  // positive, summing to 1).
  const double Tol = Steps * 2 * WIDTH * std::ldexp(1.0, -24);
  double MaxErr = 0.0;
  for (int I = 0; I < N; ++I) {
    double Err = std::fabs(Got[I] - Ref[I]);
    if (!(Err <= Tol)) {
      std::fprintf(stderr,
                   "stencil_halo: FAIL u[%d] after %d steps: got %.9g, "
                   "expected %.9g (abs err %.3g, tolerance %.3g)\n",
                   I, Steps, Got[I], Ref[I], Err, Tol);
      return 1;
    }
    MaxErr = std::fmax(MaxErr, Err);
  }

  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  std::printf("stencil_halo: PASS (n=%d, radius %d, %d steps, max abs err "
              "%.3g, tolerance %.3g; one step %.3f ms)\n",
              N, RADIUS, Steps, MaxErr, Tol, StepMs);
  return 0;
}
