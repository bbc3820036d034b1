// Inline PTX runs on the emulator, translated to host IR; what the
// translator does not know stops the build with the statement, the
// instruction (or modifier) and the (demangled) function, not a host
// assembler error.  Assembly that is only a comment or empty (an
// optimisation barrier) is kept as what it means: its tied input, or a
// compiler fence.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --emulate -O2 -DUNKNOWN %s -o %t 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %gpuad-cc --emulate -O2 -DCARRY %s -o %t 2>&1 | FileCheck %s --check-prefix=CARRY
// RUN: not %gpuad-cc --emulate -O2 -DUNDECLARED %s -o %t 2>&1 | FileCheck %s --check-prefix=UNDECLARED
// RUN: %gpuad-cc --emulate -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=OUT
// UNKNOWN: error: gpuad-emulate: inline PTX in 'lane_of(int*)' cannot run on the emulator: 'dp4a.u32.u32 $0, $1, $2, $3': the emulator does not know the instruction 'dp4a.u32.u32'
// CARRY: error: gpuad-emulate: inline PTX in 'lane_of(int*)' cannot run on the emulator: 'add.cc.u32 $0, $1, $2': the modifier '.cc' is not supported
// UNDECLARED: error: gpuad-emulate: inline PTX in 'lane_of(int*)' cannot run on the emulator: 'mov.u32 $0, r9': the register 'r9' is not declared
// OUT: lanes: 42 43 73 42
// OUT: doubled: 10 12

#include <cstdio>

__global__ void lane_of(int *out) {
  int lane, twice = threadIdx.x + 5;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
#if defined(UNKNOWN)
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(lane) : "r"(lane), "r"(1), "r"(2));
#elif defined(CARRY)
  asm("add.cc.u32 %0, %1, %2;" : "=r"(lane) : "r"(lane), "r"(1));
#elif defined(UNDECLARED)
  asm("mov.u32 %0, r9;" : "=r"(lane));
#endif
  asm volatile("// keep %0 in a register" : "+r"(lane));
  asm volatile("" ::: "memory");
  asm("add.u32 %0, %0, %0;" : "+r"(twice));
  out[threadIdx.x] = lane + 42;
  out[33 + threadIdx.x] = twice;
}

int main() {
  int *out, host[66];
  cudaMalloc(&out, sizeof host);
  lane_of<<<1, 33>>>(out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  // Thread 32 is lane 0 of the second warp.
  printf("lanes: %d %d %d %d\n", host[0], host[1], host[31], host[32]);
  printf("doubled: %d %d\n", host[33], host[34]);
  return 0;
}
