//===- reduce_shared.cu - Block sum reductions in shared memory -----------===//
//
// Part of gpuad.
//
// The classic two-level sum reduction: each block loads its part of the
// input (grid-stride), folds it in a shared-memory tree with a
// __syncthreads() per level, and writes one partial per block.  The partials
// are then combined either by a second launch of the same kernel (one block)
// or by atomicAdd of each block's partial into a single total.  The kernel is
// a template over the element type (float, double) and the block size; a
// third variant sizes its shared buffer at launch (`extern __shared__`, the
// third <<<>>> argument) and uses a non-power-of-two block, so the tree
// starts with a fold of the upper part onto the lower one.
//
// Each total is compared with a host sum accumulated in double; the inputs
// are positive, so the relative error of a float/double sum is bounded by
// about log2(n) * eps and the tolerances below are stated in those terms.
// The input length is not a multiple of any block size used, so the bounds
// checks of the loads run.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "include/cuda_check.h"

/// Deterministic inputs in [0, 1): a 32-bit LCG (Numerical Recipes).
static unsigned Seed = 12345u;
static double nextUniform() { return nextLcg(Seed); }

/// This thread's grid-stride share of in[0, n), then the block's sum by a
/// tree in shared memory (BLOCK threads, BLOCK a power of 2); the sum is
/// valid in thread 0.
template <typename T, int BLOCK> __device__ T blockSum(const T *in, int n) {
  __shared__ T sdata[BLOCK];
  unsigned tid = threadIdx.x;
  T sum = 0;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x)
    sum += in[i];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  return sdata[0];
}

/// Sums in[0, n) into partial[blockIdx.x].
template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduceStatic(const T *in, T *partial, int n) {
  T sum = blockSum<T, BLOCK>(in, n);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum;
}

/// Same reduction, each block adding its partial into *total atomically.
template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduceAtomic(const T *in, T *total, int n) {
  T sum = blockSum<T, BLOCK>(in, n);
  if (threadIdx.x == 0)
    atomicAdd(total, sum);
}

/// Shared buffer of blockDim.x elements sized at launch; blockDim.x need not
/// be a power of two: the elements above the largest power of two P <
/// blockDim.x are first folded onto [0, P).
template <typename T>
__global__ void reduceDynamic(const T *in, T *partial, int n) {
  extern __shared__ __align__(sizeof(double)) unsigned char Smem[];
  T *sdata = reinterpret_cast<T *>(Smem);
  unsigned tid = threadIdx.x;
  T sum = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sdata[tid] = sum;
  __syncthreads();
  unsigned p = 1;
  while (p * 2 < blockDim.x)
    p *= 2;
  if (tid < p && tid + p < blockDim.x)
    sdata[tid] += sdata[tid + p];
  __syncthreads();
  for (unsigned s = p / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sdata[0];
}

static double MaxRelErr = 0.0;

/// Compares a device total with the host sum; exits on a mismatch.
static void expectClose(const char *What, double Got, double Expected,
                        double Tol) {
  double Rel = std::fabs(Got - Expected) / std::fabs(Expected);
  if (!(Rel <= Tol)) {
    std::fprintf(stderr,
                 "reduce_shared: FAIL %s: got %.17g, expected %.17g "
                 "(rel err %.3g, tolerance %.3g)\n",
                 What, Got, Expected, Rel, Tol);
    std::exit(1);
  }
  if (Rel > MaxRelErr)
    MaxRelErr = Rel;
}

template <typename T> struct Traits;
template <> struct Traits<float> {
  static constexpr const char *Name = "float";
  // Tree sums of positive values: error ~ log2(n) * 2^-24; n < 2^17.
  static constexpr double Tol = 4e-6;
};
template <> struct Traits<double> {
  static constexpr const char *Name = "double";
  static constexpr double Tol = 1e-13;
};

template <typename T>
static void runType(const std::vector<double> &Input, cudaStream_t Stream,
                    float *KernelMs) {
  const int N = static_cast<int>(Input.size());
  constexpr int Block = 256;
  std::vector<T> H(Input.begin(), Input.end());
  // The host sum, accumulated in double, of the values as converted to T.
  double Expected = 0.0;
  for (T V : H)
    Expected += static_cast<double>(V);

  // Few blocks, each thread summing many elements (grid-stride): the
  // emulator's concurrent schedule starts an OS thread per GPU thread.
  const int Blocks = 10;
  T *DIn, *DPartial, *DTotal;
  CHECK(cudaMalloc(&DIn, N * sizeof(T)));
  CHECK(cudaMalloc(&DPartial, Blocks * sizeof(T)));
  CHECK(cudaMalloc(&DTotal, sizeof(T)));
  CHECK(cudaMemcpyAsync(DIn, H.data(), N * sizeof(T), cudaMemcpyHostToDevice,
                        Stream));

  char What[96];

  // 1. Two passes with the static kernel: a grid-stride first pass, then
  //    one block over the partials.
  {
    const int Grid = Blocks - 1;
    cudaEvent_t Start, Stop;
    CHECK(cudaEventCreate(&Start));
    CHECK(cudaEventCreate(&Stop));
    CHECK(cudaEventRecord(Start, Stream));
    reduceStatic<T, Block><<<Grid, Block, 0, Stream>>>(DIn, DPartial, N);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(Stop, Stream));
    CHECK(cudaEventSynchronize(Stop));
    float Ms = 0.0f;
    CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    *KernelMs += Ms;
    reduceStatic<T, Block><<<1, Block, 0, Stream>>>(DPartial, DTotal, Grid);
    CHECK_LAUNCH();
    T Got;
    CHECK(cudaMemcpyAsync(&Got, DTotal, sizeof(T), cudaMemcpyDeviceToHost,
                          Stream));
    CHECK(cudaStreamSynchronize(Stream));
    std::snprintf(What, sizeof(What), "%s two-pass static shared",
                  Traits<T>::Name);
    expectClose(What, Got, Expected, Traits<T>::Tol);
  }

  // 2. Block partials combined with atomicAdd.
  {
    CHECK(cudaMemset(DTotal, 0, sizeof(T)));
    reduceAtomic<T, Block><<<Blocks, Block, 0, Stream>>>(DIn, DTotal, N);
    CHECK_LAUNCH();
    T Got;
    CHECK(cudaMemcpyAsync(&Got, DTotal, sizeof(T), cudaMemcpyDeviceToHost,
                          Stream));
    CHECK(cudaStreamSynchronize(Stream));
    std::snprintf(What, sizeof(What), "%s atomicAdd of block partials",
                  Traits<T>::Name);
    expectClose(What, Got, Expected, Traits<T>::Tol);
  }

  // 3. Dynamic shared memory sized at launch, with block sizes that are and
  //    are not powers of two.
  for (int DynBlock : {128, 96, 200}) {
    const int Grid = 7;
    const size_t Shmem = DynBlock * sizeof(T);
    reduceDynamic<T><<<Grid, DynBlock, Shmem, Stream>>>(DIn, DPartial, N);
    CHECK_LAUNCH();
    reduceDynamic<T><<<1, DynBlock, Shmem, Stream>>>(DPartial, DTotal, Grid);
    CHECK_LAUNCH();
    T Got;
    CHECK(cudaMemcpy(&Got, DTotal, sizeof(T), cudaMemcpyDeviceToHost));
    std::snprintf(What, sizeof(What),
                  "%s dynamic extern __shared__ (block %d, %zu bytes)",
                  Traits<T>::Name, DynBlock, Shmem);
    expectClose(What, Got, Expected, Traits<T>::Tol);
  }

  CHECK(cudaFree(DIn));
  CHECK(cudaFree(DPartial));
  CHECK(cudaFree(DTotal));
}

int main() {
  const int N = 100003; // not a multiple of any block size above
  std::vector<double> Input(N);
  for (double &V : Input)
    V = nextUniform();

  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  float KernelMs = 0.0f;
  runType<float>(Input, Stream, &KernelMs);
  runType<double>(Input, Stream, &KernelMs);
  CHECK(cudaDeviceSynchronize());

  std::printf("reduce_shared: PASS (n=%d, float and double, max rel err "
              "%.3g, first-pass kernels %.3f ms)\n",
              N, MaxRelErr, KernelMs);
  return 0;
}
