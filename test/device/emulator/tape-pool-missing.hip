// HIP: a gradient kernel whose tape is in the global tape pool, launched by
// a program that provides none (tape-pool-missing.cu as HIP): the tape
// comes from the device heap with one warning, the gradient is the analytic
// one; a heap too small stops the kernel naming hipLimitMallocHeapSize.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --emulate -O2 -mllvm -gpuad-tape-placement=pool %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t 2>&1 | FileCheck %s
// RUN: %gpuad-cc -x hip --emulate -O2 -mllvm -gpuad-tape-placement=pool -DEXHAUST %s -o %t.exhaust 2>/dev/null
// RUN: not %t.exhaust 2>&1 | FileCheck %s --check-prefix=EXHAUST
// WARN: warning: gpuad: this derivative keeps its tape (96 bytes per thread) in the global tape pool, which the program does not provide
// CHECK: gpuad: warning: gradient tapes are taken from the device heap, because the program provides no tape pool or one too small
// CHECK-NOT: gpuad: warning
// CHECK: tape-pool-missing: PASS
// EXHAUST: gpuad: the device heap is exhausted (a gradient's tape or shadow memory): raise it with hipDeviceSetLimit(hipLimitMallocHeapSize, bytes) before the launch
// EXHAUST: gpuad-emu: error in kernel 'grad(float const*, float*, float*, float*)', block (0,0,0), thread (0,0,0): trap

#include "tape-pool-missing.cu"
