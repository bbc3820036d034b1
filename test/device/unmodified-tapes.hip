// HIP: a program written for Enzyme, unchanged (unmodified-tapes.cu as
// HIP, the CUDA names mapped as a hipified program does): its growing and
// 40 KB tapes come from the device heap, checked against FD and the dot
// product on the emulator at -O2 and -O0.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o %t.s 2>&1 | FileCheck %s --check-prefix=WARN
// WARN-DAG: warning: gpuad: this derivative keeps its tape (arrays that grow at run time) in the global tape pool, which the program does not provide {{.*}}hipDeviceSetLimit(hipLimitMallocHeapSize, bytes)
// WARN-DAG: warning: gpuad: this derivative keeps its tape (40000 bytes per thread) in the global tape pool

#include "unmodified-tapes.cu"
