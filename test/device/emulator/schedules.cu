// The schedules: a missing __syncthreads that the ordered schedule hides
// (each thread reads what an earlier thread wrote, and earlier threads run
// first) shows up as a wrong answer in the shuffled schedule, for every
// seed tried; the correct kernel passes in all three schedules.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: %t fixed | FileCheck %s --check-prefix=PASS
// RUN: env GPUAD_EMU_SCHEDULE=shuffled GPUAD_EMU_SEED=1 %t fixed | FileCheck %s --check-prefix=PASS
// RUN: env GPUAD_EMU_SCHEDULE=concurrent %t fixed | FileCheck %s --check-prefix=PASS
// RUN: env GPUAD_EMU_SCHEDULE=ordered %t racy | FileCheck %s --check-prefix=PASS
// RUN: env GPUAD_EMU_SCHEDULE=shuffled GPUAD_EMU_SEED=1 not %t racy | FileCheck %s --check-prefix=FAIL
// RUN: env GPUAD_EMU_SCHEDULE=shuffled GPUAD_EMU_SEED=2 not %t racy | FileCheck %s --check-prefix=FAIL
// RUN: env GPUAD_EMU_SCHEDULE=shuffled GPUAD_EMU_SEED=3 not %t racy | FileCheck %s --check-prefix=FAIL
// PASS: shift: ok
// FAIL: shift: {{[0-9]+}} wrong

#include <cstdio>
#include <cstring>

constexpr int Block = 128;

// y[i] = x[i-1] through a shared tile: the barrier between the write and
// the neighbour's read is what makes it right.
template <bool Barrier> __global__ void shift(const float *x, float *y) {
  __shared__ float tile[Block];
  int t = threadIdx.x, i = blockIdx.x * Block + t;
  tile[t] = x[i];
  if (Barrier)
    __syncthreads();
  y[i] = t > 0 ? tile[t - 1] : 0.0f;
}

int main(int argc, char **argv) {
  bool racy = argc > 1 && !strcmp(argv[1], "racy");
  const int blocks = 8, n = blocks * Block;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i)
    hx[i] = float(i % 97) + 0.5f;
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  if (racy)
    shift<false><<<blocks, Block>>>(x, y);
  else
    shift<true><<<blocks, Block>>>(x, y);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += hy[i] != (i % Block ? hx[i - 1] : 0.0f);
  if (wrong) {
    printf("shift: %d wrong\n", wrong);
    return 1;
  }
  printf("shift: ok\n");
  return 0;
}
