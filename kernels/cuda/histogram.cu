//===- histogram.cu - Histograms and the integer atomics ------------------===//
//
// Part of gpuad.
//
// A 256-bin histogram of skewed data (a fifth of the samples fall into one
// bin, so the atomics contend), computed twice: privatized per block in
// shared memory (atomicAdd on shared ints, __syncthreads, then one global
// atomicAdd per non-empty bin) and directly with global atomicAdd.  Then the
// rest of the atomic family over the same samples:
//
//   statistics  atomicMin / atomicMax on signed ints, unsigned long long
//               atomicAdd of values past 2^32, atomicOr into a bitmask of
//               the bins of the largest values, a float maximum by an atomicCAS
//               loop on the bits, and a double sum by the atomicCAS loop of the
//               CUDA programming guide (of multiples of 1/4, so any order of
//               additions gives the exact sum);
//   tickets     atomicInc with a wraparound limit and atomicExch, each
//               returning the old value per sample: the old values of
//               atomicInc from 0 with limit L are 0, 1, ..., L, 0, 1, ... in
//               some order, so their histogram is known; the old values of
//               atomicExch together with the final one are exactly the
//               initial value and every value exchanged in.
//
// Every result is compared exactly with the host's.  Kernels loop over the
// samples grid-stride; the sample count is not a multiple of the grid.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "include/cuda_check.h"

constexpr int NUM_BINS = 256;
constexpr int BLOCK = 256;
constexpr unsigned INC_LIMIT = 100; // atomicInc wraps from 100 to 0
// Values are uniform in [-2^19, 2^19); about 0.2% of them mark their bin
// in the atomicOr bitmask, so some bits stay clear.
constexpr int SEEN_THRESHOLD = (1 << 19) - 2000;

/// Deterministic 32-bit LCG (Numerical Recipes).
static unsigned Seed = 99u;
static unsigned nextRandom() { return nextLcgBits(Seed); }

__global__ void __launch_bounds__(BLOCK)
    histShared(const unsigned char *Data, unsigned *Hist, int N) {
  __shared__ unsigned Local[NUM_BINS];
  for (int B = threadIdx.x; B < NUM_BINS; B += blockDim.x)
    Local[B] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    atomicAdd(&Local[Data[I]], 1u);
  __syncthreads();
  for (int B = threadIdx.x; B < NUM_BINS; B += blockDim.x)
    if (Local[B])
      atomicAdd(&Hist[B], Local[B]);
}

__global__ void histGlobal(const unsigned char *Data, unsigned *Hist, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    atomicAdd(&Hist[Data[I]], 1u);
}

struct Stats {
  int Min, Max;
  unsigned long long WideSum;
  unsigned Seen[NUM_BINS / 32];
  float FMax;
  double DSum;
};

__device__ float atomicMaxFloat(float *Address, float Value) {
  int *Bits = reinterpret_cast<int *>(Address);
  int Old = *Bits, Assumed;
  do {
    Assumed = Old;
    if (__int_as_float(Assumed) >= Value)
      break;
    Old = atomicCAS(Bits, Assumed, __float_as_int(Value));
  } while (Assumed != Old);
  return __int_as_float(Old);
}

/// atomicAdd on double as the CUDA C++ Programming Guide writes it for
/// devices without a native one.
__device__ double atomicAddDouble(double *Address, double Value) {
  unsigned long long *Bits = reinterpret_cast<unsigned long long *>(Address);
  unsigned long long Old = *Bits, Assumed;
  do {
    Assumed = Old;
    Old =
        atomicCAS(Bits, Assumed,
                  __double_as_longlong(Value + __longlong_as_double(Assumed)));
  } while (Assumed != Old);
  return __longlong_as_double(Old);
}

/// Value[i] is a signed int; its bin is Data[i].
__global__ void statistics(const unsigned char *Data, const int *Value,
                           Stats *S, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x) {
    int V = Value[I];
    atomicMin(&S->Min, V);
    atomicMax(&S->Max, V);
    atomicAdd(&S->WideSum, static_cast<unsigned long long>(V + 1000000) << 20);
    if (V > SEEN_THRESHOLD)
      atomicOr(&S->Seen[Data[I] / 32], 1u << (Data[I] % 32));
    atomicMaxFloat(&S->FMax, V * 0.001f);
    atomicAddDouble(&S->DSum, V * 0.25);
  }
}

/// IncOld[i] = atomicInc's old value for sample i; ExchOld[i] the value
/// atomicExch replaced with i + 1.
__global__ void tickets(unsigned *Counter, int *Slot, unsigned *IncOld,
                        int *ExchOld, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x) {
    IncOld[I] = atomicInc(Counter, INC_LIMIT);
    ExchOld[I] = atomicExch(Slot, I + 1);
  }
}

static void fail(const char *What, long long Index, long long Got,
                 long long Expected) {
  std::fprintf(stderr,
               "histogram: FAIL %s[%lld]: got %lld, expected %lld "
               "(tolerance 0, exact)\n",
               What, Index, Got, Expected);
  std::exit(1);
}

static void expectEq(const char *What, long long Index, long long Got,
                     long long Expected) {
  if (Got != Expected)
    fail(What, Index, Got, Expected);
}

static void expectHist(const char *What, const std::vector<unsigned> &Got,
                       const std::vector<unsigned> &Expected) {
  for (size_t B = 0; B < Expected.size(); ++B)
    expectEq(What, B, Got[B], Expected[B]);
}

int main() {
  const int N = 40009;
  const int Grid = 12; // 3072 threads: not a divisor of N
  std::vector<unsigned char> Data(N);
  std::vector<int> Value(N);
  for (int I = 0; I < N; ++I) {
    unsigned R = nextRandom();
    Data[I] = (R >> 8) % 5 == 0 ? 42 : static_cast<unsigned char>(R >> 24);
    Value[I] = static_cast<int>(nextRandom() >> 12) - (1 << 19);
  }

  unsigned char *DData;
  int *DValue, *DSlot, *DExchOld;
  unsigned *DHist, *DCounter, *DIncOld;
  Stats *DStats;
  CHECK(cudaMalloc(&DData, N));
  CHECK(cudaMalloc(&DValue, N * sizeof(int)));
  CHECK(cudaMalloc(&DHist, NUM_BINS * sizeof(unsigned)));
  CHECK(cudaMalloc(&DStats, sizeof(Stats)));
  CHECK(cudaMalloc(&DCounter, sizeof(unsigned)));
  CHECK(cudaMalloc(&DSlot, sizeof(int)));
  CHECK(cudaMalloc(&DIncOld, N * sizeof(unsigned)));
  CHECK(cudaMalloc(&DExchOld, N * sizeof(int)));
  CHECK(cudaMemcpy(DData, Data.data(), N, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DValue, Value.data(), N * sizeof(int),
                   cudaMemcpyHostToDevice));

  std::vector<unsigned> Ref(NUM_BINS, 0), Hist(NUM_BINS);
  for (unsigned char D : Data)
    ++Ref[D];

  // Privatized histogram, timed.
  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  CHECK(cudaMemset(DHist, 0, NUM_BINS * sizeof(unsigned)));
  CHECK(cudaEventRecord(Start, 0));
  histShared<<<Grid, BLOCK>>>(DData, DHist, N);
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(Stop, 0));
  CHECK(cudaEventSynchronize(Stop));
  float Ms = 0.0f;
  CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
  CHECK(cudaMemcpy(Hist.data(), DHist, NUM_BINS * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  expectHist("histShared bin", Hist, Ref);

  // Global atomics only.
  CHECK(cudaMemset(DHist, 0, NUM_BINS * sizeof(unsigned)));
  histGlobal<<<Grid, BLOCK>>>(DData, DHist, N);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(Hist.data(), DHist, NUM_BINS * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  expectHist("histGlobal bin", Hist, Ref);

  // Statistics.
  Stats Init;
  std::memset(&Init, 0, sizeof(Init));
  Init.Min = 1 << 30;
  Init.Max = -(1 << 30);
  Init.FMax = -1e30f;
  CHECK(cudaMemcpy(DStats, &Init, sizeof(Stats), cudaMemcpyHostToDevice));
  statistics<<<Grid, BLOCK>>>(DData, DValue, DStats, N);
  CHECK_LAUNCH();
  Stats Got;
  CHECK(cudaMemcpy(&Got, DStats, sizeof(Stats), cudaMemcpyDeviceToHost));
  Stats Want = Init;
  for (int I = 0; I < N; ++I) {
    int V = Value[I];
    Want.Min = std::min(Want.Min, V);
    Want.Max = std::max(Want.Max, V);
    Want.WideSum += static_cast<unsigned long long>(V + 1000000) << 20;
    if (V > SEEN_THRESHOLD)
      Want.Seen[Data[I] / 32] |= 1u << (Data[I] % 32);
    Want.FMax = std::max(Want.FMax, V * 0.001f);
    Want.DSum += V * 0.25;
  }
  expectEq("statistics atomicMin", 0, Got.Min, Want.Min);
  expectEq("statistics atomicMax", 0, Got.Max, Want.Max);
  if (Got.WideSum != Want.WideSum) {
    std::fprintf(stderr,
                 "histogram: FAIL statistics unsigned long long atomicAdd: "
                 "got %llu, expected %llu (tolerance 0, exact)\n",
                 Got.WideSum, Want.WideSum);
    return 1;
  }
  for (int W = 0; W < NUM_BINS / 32; ++W)
    expectEq("statistics atomicOr bitmask word", W, Got.Seen[W], Want.Seen[W]);
  if (std::memcmp(&Got.FMax, &Want.FMax, sizeof(float)) != 0 ||
      std::memcmp(&Got.DSum, &Want.DSum, sizeof(double)) != 0) {
    std::fprintf(stderr,
                 "histogram: FAIL statistics atomicCAS loops: float max got "
                 "%.9g, expected %.9g; double sum got %.17g, expected %.17g "
                 "(tolerance 0, exact)\n",
                 Got.FMax, Want.FMax, Got.DSum, Want.DSum);
    return 1;
  }

  // Tickets.
  const int SlotInit = -7;
  CHECK(cudaMemset(DCounter, 0, sizeof(unsigned)));
  CHECK(cudaMemcpy(DSlot, &SlotInit, sizeof(int), cudaMemcpyHostToDevice));
  tickets<<<Grid, BLOCK>>>(DCounter, DSlot, DIncOld, DExchOld, N);
  CHECK_LAUNCH();
  unsigned Counter;
  int Slot;
  std::vector<unsigned> IncOld(N);
  std::vector<int> ExchOld(N);
  CHECK(
      cudaMemcpy(&Counter, DCounter, sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&Slot, DSlot, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(IncOld.data(), DIncOld, N * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ExchOld.data(), DExchOld, N * sizeof(int),
                   cudaMemcpyDeviceToHost));
  const unsigned Period = INC_LIMIT + 1;
  expectEq("tickets atomicInc final counter", 0, Counter, N % Period);
  std::vector<unsigned> IncHist(Period, 0);
  for (int I = 0; I < N; ++I) {
    if (IncOld[I] > INC_LIMIT)
      fail("tickets atomicInc old value out of range, sample", I, IncOld[I],
           INC_LIMIT);
    ++IncHist[IncOld[I]];
  }
  for (unsigned V = 0; V < Period; ++V)
    expectEq("tickets atomicInc count of old value", V, IncHist[V],
             N / Period + (V < N % Period));
  // The exchanged-out values and the last one in are the initial value and
  // 1..N, each once.
  std::vector<int> Values(ExchOld);
  Values.push_back(Slot);
  std::sort(Values.begin(), Values.end());
  expectEq("tickets atomicExch smallest value", 0, Values[0], SlotInit);
  for (int I = 1; I <= N; ++I)
    expectEq("tickets atomicExch sorted value", I, Values[I], I);

  CHECK(cudaFree(DData));
  CHECK(cudaFree(DValue));
  CHECK(cudaFree(DHist));
  CHECK(cudaFree(DStats));
  CHECK(cudaFree(DCounter));
  CHECK(cudaFree(DSlot));
  CHECK(cudaFree(DIncOld));
  CHECK(cudaFree(DExchOld));
  std::printf("histogram: PASS (n=%d, %d bins, largest bin %u, all atomics "
              "exact; histShared %.3f ms)\n",
              N, NUM_BINS, *std::max_element(Ref.begin(), Ref.end()), Ms);
  return 0;
}
