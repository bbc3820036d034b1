// HIP on the emulator: 64-lane wavefronts (ballots, any/all, shuffles,
// lane ids, and the same in diverged code, where only the lanes that reach
// an operation are active), thread and block ids through ockl, static and dynamic shared
// memory with barriers, __constant__ memory, float/int atomics, ocml math,
// and the hip* API; every result checked against a host computation.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    hipError_t e_ = (call);                                                    \
    if (e_ != hipSuccess) {                                                    \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
             hipGetErrorString(e_));                                           \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__constant__ float scale;

struct WaveResult {
  unsigned long long ballot;
  int any, all, lane, sum, broadcast;
};

// One result per thread: a ballot of (lane % 3 == 0), any/all, the lane
// id, a butterfly sum of the lane ids over the wave, and lane 5's value.
__global__ void wave(WaveResult *out) {
  int t = threadIdx.x;
  int lane = __lane_id();
  int v = lane;
  for (int offset = 32; offset > 0; offset /= 2)
    v += __shfl_xor(v, offset);
  WaveResult r;
  r.ballot = __ballot(lane % 3 == 0);
  r.any = __any(lane == 63);
  r.all = __all(lane < 64);
  r.lane = lane;
  r.sum = v;
  r.broadcast = __shfl(t * 10, 5);
  out[blockIdx.x * blockDim.x + t] = r;
}

// Diverged wavefronts: lanes below 10 ballot alone (the others are
// inactive there, so the ballot is 0x3ff); lanes 0-31 reduce among
// themselves by shuffles while lanes 32-63 wait at the barrier, the pattern
// of a last-warp reduction written for 32 lanes; odd and even lanes ballot
// separately in the two sides of an if/else.
__global__ void diverged(unsigned long long *ballots, int *sums,
                         unsigned long long *parity) {
  int lane = __lane_id();
  unsigned long long b = 0;
  if (lane < 10)
    b = __ballot(1);
  if (lane & 1)
    parity[threadIdx.x] = __ballot(lane < 20);
  else
    parity[threadIdx.x] = __ballot(lane < 40);
  int v = lane;
  if (lane < 32)
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor(v, offset);
  __syncthreads();
  ballots[threadIdx.x] = b;
  sums[threadIdx.x] = v;
}

// A block sum in dynamic shared memory, then sin() of it scaled, added into
// one float with atomicAdd; an int histogram of thread parity.
__global__ void reduce(const float *x, float *total, int *parity, int n) {
  extern __shared__ float partial[];
  __shared__ int counts[2];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t < 2)
    counts[t] = 0;
  partial[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  atomicAdd(&counts[i & 1], 1);
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(total, scale * sinf(partial[0]));
  if (t < 2)
    atomicAdd(&parity[t], counts[t]);
}

int main() {
  const int blocks = 3, threads = 128;
  WaveResult *dw;
  CHECK(hipMalloc(&dw, blocks * threads * sizeof(WaveResult)));
  hipLaunchKernelGGL(wave, dim3(blocks), dim3(threads), 0, 0, dw);
  CHECK(hipGetLastError());
  static WaveResult hw[blocks * threads];
  CHECK(hipMemcpy(hw, dw, sizeof hw, hipMemcpyDeviceToHost));
  unsigned long long ballot = 0;
  for (int l = 0; l < 64; l += 3)
    ballot |= 1ull << l;
  for (int i = 0; i < blocks * threads; ++i) {
    const WaveResult &r = hw[i];
    int t = i % threads, lane = t % 64, waveBase = t - lane;
    if (r.ballot != ballot || !r.any || !r.all || r.lane != lane ||
        r.sum != 64 * 63 / 2 || r.broadcast != (waveBase + 5) * 10) {
      printf("wave: thread %d: ballot %llx any %d all %d lane %d sum %d "
             "broadcast %d\n",
             i, r.ballot, r.any, r.all, r.lane, r.sum, r.broadcast);
      return 1;
    }
  }

  unsigned long long *db, *dp;
  int *ds;
  CHECK(hipMalloc(&db, 64 * sizeof(unsigned long long)));
  CHECK(hipMalloc(&dp, 64 * sizeof(unsigned long long)));
  CHECK(hipMalloc(&ds, 64 * sizeof(int)));
  hipLaunchKernelGGL(diverged, dim3(1), dim3(64), 0, 0, db, ds, dp);
  CHECK(hipGetLastError());
  unsigned long long hb[64], hpar[64], odd = 0, even = 0;
  int hs[64];
  CHECK(hipMemcpy(hb, db, sizeof hb, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hpar, dp, sizeof hpar, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hs, ds, sizeof hs, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; ++l)
    if (l & 1 ? l < 20 : l < 40)
      (l & 1 ? odd : even) |= 1ull << l;
  for (int l = 0; l < 64; ++l) {
    unsigned long long wantBallot = l < 10 ? 0x3ffull : 0;
    unsigned long long wantParity = l & 1 ? odd : even;
    int wantSum = l < 32 ? 31 * 32 / 2 : l;
    if (hb[l] != wantBallot || hs[l] != wantSum || hpar[l] != wantParity) {
      printf("diverged: lane %d: ballot %llx (want %llx), sum %d (want %d), "
             "parity ballot %llx (want %llx)\n",
             l, hb[l], wantBallot, hs[l], wantSum, hpar[l], wantParity);
      return 1;
    }
  }
  CHECK(hipFree(db));
  CHECK(hipFree(dp));
  CHECK(hipFree(ds));

  const int n = 1000, rblocks = (n + threads - 1) / threads;
  float hx[n];
  for (int i = 0; i < n; ++i)
    hx[i] = 0.001f * float((i * 37) % 101);
  float *x, *total;
  int *parity;
  CHECK(hipMalloc(&x, sizeof hx));
  CHECK(hipMalloc(&total, sizeof(float)));
  CHECK(hipMalloc(&parity, 2 * sizeof(int)));
  CHECK(hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice));
  CHECK(hipMemset(total, 0, sizeof(float)));
  CHECK(hipMemset(parity, 0, 2 * sizeof(int)));
  float s = 1.5f;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(scale), &s, sizeof s));
  hipLaunchKernelGGL(reduce, dim3(rblocks), dim3(threads),
                     threads * sizeof(float), 0, x, total, parity, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  float got;
  int hp[2];
  CHECK(hipMemcpy(&got, total, sizeof got, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hp, parity, sizeof hp, hipMemcpyDeviceToHost));
  double expected = 0;
  for (int b = 0; b < rblocks; ++b) {
    double sum = 0;
    for (int i = b * threads; i < (b + 1) * threads && i < n; ++i)
      sum += hx[i];
    expected += 1.5 * std::sin(sum);
  }
  // Float partial sums in a different order than the host's double sum.
  const double tolerance = 1e-4;
  if (std::fabs(got - expected) > tolerance * std::fabs(expected) ||
      hp[0] + hp[1] != rblocks * threads || hp[0] != hp[1]) {
    printf("reduce: total %.7g, expected %.7g; parity %d %d\n", got, expected,
           hp[0], hp[1]);
    return 1;
  }
  CHECK(hipFree(dw));
  CHECK(hipFree(x));
  CHECK(hipFree(total));
  CHECK(hipFree(parity));
  printf("wave64: PASS (%d wave results, diverged ballot and shuffles, block "
         "sums within %g)\n",
         blocks * threads, tolerance);
  return 0;
}
