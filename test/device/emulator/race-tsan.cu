// The concurrent schedule runs a block's threads as OS threads, so a
// missing atomic is a data race ThreadSanitizer reports in device code
// (the retarget pass marks device functions for the sanitizer).  The
// atomic version is clean.  A sanitized gpuad build's emulator runtime is
// built with ASan, which cannot be linked with TSan.
//
// REQUIRES: cuda, tsan
// UNSUPPORTED: asan
// RUN: %gpuad-cc --emulate -O2 -fsanitize=thread %s -o %t
// RUN: env GPUAD_EMU_SCHEDULE=concurrent TSAN_OPTIONS=exitcode=66 not %t racy 2>&1 | FileCheck %s --check-prefix=RACY
// RUN: env GPUAD_EMU_SCHEDULE=concurrent TSAN_OPTIONS=exitcode=66 %t atomic 2>&1 | FileCheck %s --check-prefix=CLEAN
// RACY: WARNING: ThreadSanitizer: data race
// RACY: #0 count_racy(float*)
// CLEAN-NOT: ThreadSanitizer
// CLEAN: count: 64

#include <cstdio>
#include <cstring>

__global__ void count_racy(float *c) { *c += 1.0f; }
__global__ void count_atomic(float *c) { atomicAdd(c, 1.0f); }

int main(int argc, char **argv) {
  float *c;
  cudaMalloc(&c, sizeof(float));
  cudaMemset(c, 0, sizeof(float));
  if (argc > 1 && !strcmp(argv[1], "racy"))
    count_racy<<<1, 64>>>(c);
  else
    count_atomic<<<1, 64>>>(c);
  float h;
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("count: %g\n", h);
  return 0;
}
