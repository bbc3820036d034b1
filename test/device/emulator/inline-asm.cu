// Inline PTX cannot run on the emulator: the build stops with the
// instruction and the (demangled) function, not a host assembler error.
// Assembly that is only a comment or empty (an optimisation barrier) is
// kept as what it means: its tied input, or a compiler fence.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --emulate -O2 -DLANE_ASM %s -o %t 2>&1 | FileCheck %s
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=OUT
// CHECK: error: gpuad-emulate: inline assembly 'mov.u32 $0, %laneid;' in 'lane_of(int*)' cannot run on the emulator
// OUT: lanes: 42 42

#include <cstdio>

__global__ void lane_of(int *out) {
  int lane = threadIdx.x;
#ifdef LANE_ASM
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
#else
  asm volatile("// keep %0 in a register" : "+r"(lane));
  asm volatile("" ::: "memory");
#endif
  out[threadIdx.x] = lane + 42;
}

int main() {
  int *out, host[2];
  cudaMalloc(&out, sizeof host);
  lane_of<<<1, 2>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("lanes: %d %d\n", host[0], host[1] - 1);
  return 0;
}
