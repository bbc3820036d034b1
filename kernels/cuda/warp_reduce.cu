//===- warp_reduce.cu - Warp shuffles and votes ---------------------------===//
//
// Part of gpuad.
//
// The warp-level primitives a reduction or a stream compaction is built
// from, each checked per lane against the host:
//
//   warpSum        __shfl_down_sync tree: lane 0 ends with the warp's sum;
//   blockSum       the same per warp, warp sums through shared memory, the
//                  first warp reduces them, one atomicAdd per block;
//   warpAllReduce  __shfl_xor_sync butterfly: every lane ends with the
//                  warp's total; and with width 8, every lane with the sum
//                  of its 8-lane segment;
//   warpScan       __shfl_up_sync inclusive prefix scan, __shfl_sync
//                  broadcasts of lane 0's input and lane 31's scan (the
//                  warp total);
//   warpVotes      __ballot_sync / __any_sync / __all_sync of predicates;
//                  the ballot drives a warp-aggregated compaction (one
//                  atomicAdd per warp by its leader, the base broadcast with
//                  __shfl_sync, each lane's slot the popcount of the ballot
//                  below it) and a leader broadcast among the lanes of the
//                  ballot mask only;
//   halfWarp       partial masks in a diverged warp: lanes 0..15 run
//                  __shfl_down_sync(0x0000ffff, ...) on one side of a
//                  branch while lanes 16..31 run a
//                  __shfl_xor_sync(0xffff0000, ...) butterfly on the other.
//
// Every thread of a warp stays alive through the full-mask primitives; the
// input length is not a multiple of 32, so the last warp has lanes past the
// end that contribute 0 (or a false predicate).  Values are integers (floats
// holding small integers in warpAllReduce), so all checks are exact.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "include/cuda_check.h"

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int BLOCK = 128;

/// Deterministic inputs in [0, 1000): a 32-bit LCG (Numerical Recipes).
static unsigned Seed = 7u;
static int nextValue() {
  return static_cast<int>((nextLcgBits(Seed) >> 8) % 1000u);
}

__device__ int warpReduceSum(int V) {
  for (int Offset = warpSize / 2; Offset > 0; Offset /= 2)
    V += __shfl_down_sync(FULL_MASK, V, Offset);
  return V;
}

/// WarpSums[w] = sum of In over global warp w.
__global__ void warpSum(const int *In, int *WarpSums, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Lane = threadIdx.x & 31;
  int V = I < N ? In[I] : 0;
  V = warpReduceSum(V);
  if (Lane == 0)
    WarpSums[I / warpSize] = V;
}

/// *Total += sum of In, one atomicAdd per block.
__global__ void __launch_bounds__(BLOCK)
    blockSum(const int *In, int *Total, int N) {
  __shared__ int WarpTotals[BLOCK / 32];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Lane = threadIdx.x & 31;
  int Warp = threadIdx.x / warpSize;
  int V = warpReduceSum(I < N ? In[I] : 0);
  if (Lane == 0)
    WarpTotals[Warp] = V;
  __syncthreads();
  if (Warp == 0) {
    int Warps = blockDim.x / warpSize;
    V = Lane < Warps ? WarpTotals[Lane] : 0;
    V = warpReduceSum(V);
    if (Lane == 0)
      atomicAdd(Total, V);
  }
}

/// All[i] = total of i's warp; Seg8[i] = total of i's aligned 8-lane group.
__global__ void warpAllReduce(const float *In, float *All, float *Seg8, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = I < N ? In[I] : 0.0f;
  float S = V;
  for (int Mask = 4; Mask > 0; Mask >>= 1)
    S += __shfl_xor_sync(FULL_MASK, S, Mask, 8);
  for (int Mask = warpSize / 2; Mask > 0; Mask >>= 1)
    V += __shfl_xor_sync(FULL_MASK, V, Mask);
  if (I < N) {
    All[I] = V;
    Seg8[I] = S;
  }
}

/// Scan[i] = inclusive prefix sum of In within i's warp; First[i] = input
/// of lane 0 of i's warp; Total[i] = the warp total (lane 31's scan).
__global__ void warpScan(const int *In, int *Scan, int *First, int *Total,
                         int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Lane = threadIdx.x & 31;
  int X = I < N ? In[I] : 0;
  int V = X;
  for (int Delta = 1; Delta < warpSize; Delta *= 2) {
    int Up = __shfl_up_sync(FULL_MASK, V, Delta);
    if (Lane >= Delta)
      V += Up;
  }
  int F = __shfl_sync(FULL_MASK, X, 0);
  int T = __shfl_sync(FULL_MASK, V, warpSize - 1);
  if (I < N) {
    Scan[I] = V;
    First[I] = F;
    Total[I] = T;
  }
}

struct VoteResult {
  unsigned Ballot; // lanes with In % 3 == 0
  int Any;         // some lane has In > 990
  int All;         // every lane in range has In >= 30
  int Leader;      // the value of the lowest lane with In % 3 == 0, or -1
};

/// Per warp: the votes; Out gets the values divisible by 3, compacted (in
/// lane order within each warp, warps in any order); *Count their number.
__global__ void warpVotes(const int *In, VoteResult *Votes, int *Out,
                          int *Count, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Lane = threadIdx.x & 31;
  int X = I < N ? In[I] : -1;
  bool Keep = I < N && X % 3 == 0;
  unsigned Ballot = __ballot_sync(FULL_MASK, Keep);
  int Any = __any_sync(FULL_MASK, I < N && X > 990);
  int All = __all_sync(FULL_MASK, I >= N || X >= 30);

  // Warp-aggregated atomic: the lowest kept lane reserves space for all.
  int Base = 0;
  int Leader = Ballot ? __ffs(Ballot) - 1 : 0;
  if (Lane == Leader && Ballot)
    Base = atomicAdd(Count, __popc(Ballot));
  Base = __shfl_sync(FULL_MASK, Base, Leader);
  if (Keep)
    Out[Base + __popc(Ballot & ((1u << Lane) - 1u))] = X;

  // Only the kept lanes take part: broadcast the leader's value among them.
  int LeaderValue = -1;
  if (Keep)
    LeaderValue = __shfl_sync(Ballot, X, Leader);
  // Lane 0 need not have taken part: it learns the value from the leader.
  int FromLeader = __shfl_sync(FULL_MASK, LeaderValue, Leader);
  if (Lane == 0) {
    VoteResult R;
    R.Ballot = Ballot;
    R.Any = Any;
    R.All = All;
    R.Leader = Ballot ? FromLeader : -1;
    Votes[I / warpSize] = R;
  }
}

/// Half-warp reductions under partial masks, the two halves on the two
/// sides of a branch: lanes 0..15 run a shuffle-down tree and lane 0 writes
/// their sum to Sums[w]; lanes 16..31 run a butterfly and each writes their
/// sum to All[i].  The halves must not see each other's values.
__global__ void halfWarp(const int *In, int *Sums, int *All, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  int Lane = threadIdx.x & 31;
  int V = I < N ? In[I] : 0;
  if (Lane < 16) {
    for (int Offset = 8; Offset > 0; Offset /= 2)
      V += __shfl_down_sync(0x0000ffffu, V, Offset);
    if (Lane == 0)
      Sums[I / warpSize] = V;
  } else {
    for (int Mask = 8; Mask > 0; Mask >>= 1)
      V += __shfl_xor_sync(0xffff0000u, V, Mask);
    if (I < N)
      All[I] = V;
  }
}

static void fail(const char *What, int Index, long long Got,
                 long long Expected) {
  std::fprintf(stderr,
               "warp_reduce: FAIL %s[%d]: got %lld, expected %lld "
               "(tolerance 0, exact)\n",
               What, Index, Got, Expected);
  std::exit(1);
}

static void expectEq(const char *What, int Index, long long Got,
                     long long Expected) {
  if (Got != Expected)
    fail(What, Index, Got, Expected);
}

int main() {
  const int N = 3001; // 93 full warps and one with 25 lanes in range
  const int Blocks = (N + BLOCK - 1) / BLOCK;
  const int Warps = Blocks * BLOCK / 32;
  std::vector<int> In(N);
  for (int &V : In)
    V = nextValue();
  std::vector<float> InF(In.begin(), In.end());
  auto at = [&](int I) { return I < N ? In[I] : 0; };

  int *DIn, *DA, *DB, *DC, *DCount;
  float *DInF, *DAllF, *DSegF;
  VoteResult *DVotes;
  CHECK(cudaMalloc(&DIn, N * sizeof(int)));
  CHECK(cudaMalloc(&DInF, N * sizeof(float)));
  CHECK(cudaMalloc(&DA, N * sizeof(int)));
  CHECK(cudaMalloc(&DB, N * sizeof(int)));
  CHECK(cudaMalloc(&DC, N * sizeof(int)));
  CHECK(cudaMalloc(&DAllF, N * sizeof(float)));
  CHECK(cudaMalloc(&DSegF, N * sizeof(float)));
  CHECK(cudaMalloc(&DCount, sizeof(int)));
  CHECK(cudaMalloc(&DVotes, Warps * sizeof(VoteResult)));
  CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(
      cudaMemcpy(DInF, InF.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  std::vector<int> WarpRef(Warps, 0);
  for (int W = 0; W < Warps; ++W)
    for (int L = 0; L < 32; ++L)
      WarpRef[W] += at(W * 32 + L);

  // warpSum, timed.
  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  CHECK(cudaEventRecord(Start, 0));
  warpSum<<<Blocks, BLOCK>>>(DIn, DA, N);
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(Stop, 0));
  CHECK(cudaEventSynchronize(Stop));
  float Ms = 0.0f;
  CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  std::vector<int> A(N), B(N), C(N);
  CHECK(cudaMemcpy(A.data(), DA, Warps * sizeof(int), cudaMemcpyDeviceToHost));
  for (int W = 0; W < Warps; ++W)
    expectEq("warpSum (shfl_down) warp", W, A[W], WarpRef[W]);

  // blockSum.
  CHECK(cudaMemset(DCount, 0, sizeof(int)));
  blockSum<<<Blocks, BLOCK>>>(DIn, DCount, N);
  CHECK_LAUNCH();
  int Total = 0, TotalRef = 0;
  CHECK(cudaMemcpy(&Total, DCount, sizeof(int), cudaMemcpyDeviceToHost));
  for (int V : In)
    TotalRef += V;
  expectEq("blockSum total", 0, Total, TotalRef);

  // warpAllReduce.
  warpAllReduce<<<Blocks, BLOCK>>>(DInF, DAllF, DSegF, N);
  CHECK_LAUNCH();
  std::vector<float> AllF(N), SegF(N);
  CHECK(cudaMemcpy(AllF.data(), DAllF, N * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(SegF.data(), DSegF, N * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I) {
    expectEq("warpAllReduce (shfl_xor) lane", I,
             static_cast<long long>(AllF[I]), WarpRef[I / 32]);
    int Seg = 0;
    for (int L = 0; L < 8; ++L)
      Seg += at(I / 8 * 8 + L);
    expectEq("warpAllReduce (shfl_xor width 8) lane", I,
             static_cast<long long>(SegF[I]), Seg);
  }

  // warpScan.
  warpScan<<<Blocks, BLOCK>>>(DIn, DA, DB, DC, N);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(A.data(), DA, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(B.data(), DB, N * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(C.data(), DC, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int I = 0, Run = 0; I < N; ++I) {
    Run = (I % 32 == 0 ? 0 : Run) + In[I];
    expectEq("warpScan (shfl_up) inclusive scan", I, A[I], Run);
    expectEq("warpScan (shfl idx 0) broadcast", I, B[I], In[I / 32 * 32]);
    expectEq("warpScan (shfl idx 31) warp total", I, C[I], WarpRef[I / 32]);
  }

  // warpVotes and the compaction.
  CHECK(cudaMemset(DCount, 0, sizeof(int)));
  CHECK(cudaMemset(DA, 0xff, N * sizeof(int)));
  warpVotes<<<Blocks, BLOCK>>>(DIn, DVotes, DA, DCount, N);
  CHECK_LAUNCH();
  std::vector<VoteResult> Votes(Warps);
  CHECK(cudaMemcpy(Votes.data(), DVotes, Warps * sizeof(VoteResult),
                   cudaMemcpyDeviceToHost));
  int Count = 0;
  CHECK(cudaMemcpy(&Count, DCount, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(A.data(), DA, N * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> Kept;
  int AnyWarps = 0, AllWarps = 0;
  for (int W = 0; W < Warps; ++W) {
    unsigned Ballot = 0;
    bool Any = false, All = true;
    int Leader = -1;
    for (int L = 0; L < 32; ++L) {
      int I = W * 32 + L;
      if (I >= N)
        continue;
      if (In[I] % 3 == 0) {
        Ballot |= 1u << L;
        Kept.push_back(In[I]);
        if (Leader < 0)
          Leader = In[I];
      }
      Any |= In[I] > 990;
      All &= In[I] >= 30;
    }
    AnyWarps += Any;
    AllWarps += All;
    expectEq("warpVotes ballot of warp", W, Votes[W].Ballot, Ballot);
    expectEq("warpVotes popc(ballot) of warp", W,
             __builtin_popcount(Votes[W].Ballot), __builtin_popcount(Ballot));
    expectEq("warpVotes any of warp", W, Votes[W].Any != 0, Any);
    expectEq("warpVotes all of warp", W, Votes[W].All != 0, All);
    expectEq("warpVotes leader broadcast (ballot mask) of warp", W,
             Votes[W].Leader, Leader);
  }
  // The test must see both outcomes of each vote.
  if (AnyWarps == 0 || AnyWarps == Warps || AllWarps == 0 ||
      AllWarps == Warps) {
    std::fprintf(stderr,
                 "warp_reduce: FAIL inputs do not exercise the votes "
                 "(any in %d, all in %d of %d warps)\n",
                 AnyWarps, AllWarps, Warps);
    return 1;
  }
  expectEq("warpVotes compaction count", 0, Count,
           static_cast<long long>(Kept.size()));
  std::vector<int> Compacted(A.begin(), A.begin() + Count);
  std::sort(Compacted.begin(), Compacted.end());
  std::sort(Kept.begin(), Kept.end());
  for (int I = 0; I < Count; ++I)
    expectEq("warpVotes compaction (sorted) element", I, Compacted[I], Kept[I]);

  // halfWarp: both halves of each warp, diverged.
  CHECK(cudaMemset(DB, 0xff, N * sizeof(int)));
  halfWarp<<<Blocks, BLOCK>>>(DIn, DA, DB, N);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(A.data(), DA, Warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(B.data(), DB, N * sizeof(int), cudaMemcpyDeviceToHost));
  for (int W = 0; W < Warps; ++W) {
    int Low = 0, High = 0;
    for (int L = 0; L < 16; ++L) {
      Low += at(W * 32 + L);
      High += at(W * 32 + 16 + L);
    }
    expectEq("halfWarp (shfl_down mask 0x0000ffff) warp", W, A[W], Low);
    for (int L = 16; L < 32 && W * 32 + L < N; ++L)
      expectEq("halfWarp (shfl_xor mask 0xffff0000) lane", W * 32 + L,
               B[W * 32 + L], High);
  }

  CHECK(cudaFree(DIn));
  CHECK(cudaFree(DInF));
  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  CHECK(cudaFree(DC));
  CHECK(cudaFree(DAllF));
  CHECK(cudaFree(DSegF));
  CHECK(cudaFree(DCount));
  CHECK(cudaFree(DVotes));
  std::printf("warp_reduce: PASS (n=%d, %d warps, %d kept by ballot, exact; "
              "warpSum %.3f ms)\n",
              N, Warps, Count, Ms);
  return 0;
}
