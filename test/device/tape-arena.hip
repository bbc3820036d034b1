// HIP: growing tapes in the tape pool's arena (tape-arena.cu compiled as
// HIP): no ockl allocator anywhere (this file provides the pool, and on
// AMDGPU a program that does gets no device-heap fallback, whose allocator
// would raise the kernel's registers); on the emulator, three launches on
// one pool vs FD and the dot product, at -O2 and -O0.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o %t.s 2>/dev/null
// RUN: FileCheck %s --input-file=%t.s
// CHECK-NOT: __ockl_dm_alloc
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t
// RUN: %gpuad-cc --emulate -O0 %s -o %t0 && %t0

#include <hip/hip_runtime.h>

#include "tape-arena.cu"
