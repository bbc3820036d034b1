//===- matmul_tiled.cu - Tiled matrix multiply and transpose --------------===//
//
// Part of gpuad.
//
// C = A * B with A (M x K), B (K x N), row-major floats, computed by the
// textbook shared-memory tiling: a 2-D grid of 16x16 blocks, one output
// element per thread; per step each block stages a 16x16 tile of A and of B
// in static __shared__ memory (zero-padded past the matrix edges), syncs,
// accumulates 16 products, and syncs again before the next tiles overwrite
// them.  M, K and N are not multiples of 16, so the padded loads and the
// guarded store both run.
//
// The transpose moves 32x32 tiles through a [32][33] shared tile (the extra
// column keeps the column reads free of bank conflicts) with 32x8 blocks,
// each thread copying four rows of its tile.
//
// The product is compared with a host triple loop accumulated in double, to
// a tolerance scaled by sum_k |a_ik| |b_kj| (the bound on the rounding error
// of a float dot product of length K); the transpose is compared exactly.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "include/cuda_check.h"

/// Deterministic inputs in [-1, 1): a 32-bit LCG (Numerical Recipes).
static unsigned Seed = 2024u;
static float nextSigned() {
  return static_cast<float>(nextLcg(Seed) * 2.0 - 1.0);
}

constexpr int TILE = 16;

__global__ void __launch_bounds__(TILE *TILE)
    matmulTiled(const float *A, const float *B, float *C, int M, int K, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * TILE + ty;
  int Col = blockIdx.x * TILE + tx;
  float Acc = 0.0f;
  for (int T = 0; T < (K + TILE - 1) / TILE; ++T) {
    int ACol = T * TILE + tx;
    int BRow = T * TILE + ty;
    As[ty][tx] = (Row < M && ACol < K) ? A[Row * K + ACol] : 0.0f;
    Bs[ty][tx] = (BRow < K && Col < N) ? B[BRow * N + Col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      Acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (Row < M && Col < N)
    C[Row * N + Col] = Acc;
}

constexpr int TDIM = 32;
constexpr int BLOCK_ROWS = 8;

/// Out (Cols x Rows) = transpose of In (Rows x Cols).
__global__ void __launch_bounds__(TDIM *BLOCK_ROWS)
    transposeTiled(const float *In, float *Out, int Rows, int Cols) {
  __shared__ float Tile[TDIM][TDIM + 1];
  int X = blockIdx.x * TDIM + threadIdx.x; // column of In
  int Y = blockIdx.y * TDIM + threadIdx.y; // row of In
  for (int J = 0; J < TDIM; J += BLOCK_ROWS)
    if (X < Cols && Y + J < Rows)
      Tile[threadIdx.y + J][threadIdx.x] = In[(Y + J) * Cols + X];
  __syncthreads();
  X = blockIdx.y * TDIM + threadIdx.x; // column of Out
  Y = blockIdx.x * TDIM + threadIdx.y; // row of Out
  for (int J = 0; J < TDIM; J += BLOCK_ROWS)
    if (X < Rows && Y + J < Cols)
      Out[(Y + J) * Rows + X] = Tile[threadIdx.x][threadIdx.y + J];
}

int main() {
  const int M = 77, K = 50, N = 93;
  std::vector<float> A(M * K), B(K * N), C(M * N);
  for (float &V : A)
    V = nextSigned();
  for (float &V : B)
    V = nextSigned();

  float *DA, *DB, *DC, *DT;
  CHECK(cudaMalloc(&DA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&DB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&DC, C.size() * sizeof(float)));
  CHECK(cudaMalloc(&DT, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(DA, A.data(), A.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB, B.data(), B.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  // Poison the outputs so an element never written cannot pass.
  CHECK(cudaMemset(DC, 0xff, C.size() * sizeof(float)));
  CHECK(cudaMemset(DT, 0xff, C.size() * sizeof(float)));

  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  dim3 Block(TILE, TILE);
  dim3 Grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  CHECK(cudaEventRecord(Start, 0));
  matmulTiled<<<Grid, Block>>>(DA, DB, DC, M, K, N);
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(Stop, 0));
  CHECK(cudaEventSynchronize(Stop));
  float MatmulMs = 0.0f;
  CHECK(cudaEventElapsedTime(&MatmulMs, Start, Stop));
  CHECK(cudaMemcpy(C.data(), DC, C.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));

  // |c - c_ref| <= gamma * sum_k |a_ik b_kj| with gamma a few K * 2^-24.
  const double Gamma = 2.0 * K * std::ldexp(1.0, -24);
  double MaxRelErr = 0.0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      double Ref = 0.0, Abs = 0.0;
      for (int L = 0; L < K; ++L) {
        double P = static_cast<double>(A[I * K + L]) * B[L * N + J];
        Ref += P;
        Abs += std::fabs(P);
      }
      double Got = C[I * N + J];
      double Tol = Gamma * Abs;
      double Err = std::fabs(Got - Ref);
      if (!(Err <= Tol)) {
        std::fprintf(stderr,
                     "matmul_tiled: FAIL matmul C[%d][%d]: got %.9g, expected "
                     "%.9g (abs err %.3g, tolerance %.3g)\n",
                     I, J, Got, Ref, Err, Tol);
        return 1;
      }
      if (Abs > 0.0 && Err / Abs > MaxRelErr)
        MaxRelErr = Err / Abs;
    }

  // Transpose C (M x N) into T (N x M) with a 2-D grid of 32x8 blocks.
  dim3 TBlock(TDIM, BLOCK_ROWS);
  dim3 TGrid((N + TDIM - 1) / TDIM, (M + TDIM - 1) / TDIM);
  transposeTiled<<<TGrid, TBlock>>>(DC, DT, M, N);
  CHECK_LAUNCH();
  std::vector<float> T(N * M);
  CHECK(cudaMemcpy(T.data(), DT, T.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J) {
      float Got = T[I * M + J], Want = C[J * N + I];
      // Bitwise: a transpose moves values, it never rounds.
      if (std::memcmp(&Got, &Want, sizeof(float)) != 0) {
        std::fprintf(stderr,
                     "matmul_tiled: FAIL transpose T[%d][%d]: got %.9g, "
                     "expected %.9g (tolerance 0, exact)\n",
                     I, J, Got, Want);
        return 1;
      }
    }

  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  CHECK(cudaFree(DC));
  CHECK(cudaFree(DT));
  std::printf("matmul_tiled: PASS (C=%dx%d*%dx%d, max rel err %.3g of "
              "sum|a*b|; transpose %dx%d exact; matmul %.3f ms)\n",
              M, K, K, N, MaxRelErr, M, N, MatmulMs);
  return 0;
}
