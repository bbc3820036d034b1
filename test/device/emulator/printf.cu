// Device printf on the emulator: CUDA's vprintf with the usual conversions,
// widths, precisions and 64-bit arguments, one line per thread.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// CHECK: thread 0 of 3: i=-7 u=4000000000 x=ff ll=-1234567890123 c=A s=gpuad
// CHECK-NEXT: [   2.500] [2.500000e-01] [0.125] [%] [ 0x2a]
// CHECK-NEXT: thread 1 of 3: i=-6
// CHECK: thread 2 of 3: i=-5
// CHECK: host: done

#include <cstdio>

__global__ void say(double x) {
  int t = threadIdx.x;
  printf("thread %d of %d: i=%d u=%u x=%x ll=%lld c=%c s=%s\n", t, (int)blockDim.x,
         t - 7, 4000000000u, 255, -1234567890123ll, 'A', "gpuad");
  if (t == 0)
    printf("[%8.3f] [%e] [%g] [%%] [%#5x]\n", x, x / 10, x / 20, 42);
}

int main() {
  say<<<1, 3>>>(2.5);
  cudaDeviceSynchronize();
  printf("host: done\n");
  return 0;
}
