// HIP: where each gradient kernel's tape lives (tape-placement.cu's kernels
// compiled for AMDGPU).  HIP gives every kernel a maximum work-group size
// (1024 without launch bounds), so 'unbounded' is decided by the shared tape
// budget; scratch (private memory) is the thread-local place; device malloc
// is ockl's allocator.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S -emit-llvm %s -o %t.ll -Rpass=gpuad -Rpass-analysis=gpuad 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.ll
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o %t.s
// RUN: FileCheck %s --check-prefix=ASM --input-file=%t.s
// At -O2 the callee is inlined before gpuad runs; at -O0 it is a split
// callee whose fixed region travels in its tape (a private-memory alloca
// and its cast to a generic pointer, redone in the backward half).
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O0 -S %s -o /dev/null -Rpass=gpuad 2>&1 | FileCheck %s --check-prefix=O0
// O0: remark: tape: 1 values cached (0 B outside loops, 1 loop frames; {{[0-9]+}} B per thread in the split tape, by value)
//
// REMARK-DAG: remark: tape region of 'bounded(float const*, float*, float*, float*)', 96 B per thread, in shared-memory slots (64 threads x 104 B)
// REMARK-DAG: remark: tape region of 'unbounded(float const*, float*, float*, float*)', 96 B per thread, stays in thread-local memory: 1024 threads x 104 B exceed the shared tape budget of 16384 B
// REMARK-DAG: remark: tape: 1 values cached (0 B outside loops, 1 loop frames; 32768 B per thread in the global tape pool)
// REMARK-DAG: warning: gpuad: the tape (32768 bytes per thread) is in the global tape pool, which the program does not declare
// REMARK-DAG: warning: gpuad: the tape of this loop is allocated with device malloc
// REMARK-DAG: remark: tape region of 'split(float const*, float*, float*, float*)', 32 B per thread, stays in thread-local memory: 1024 threads x 40 B exceed the shared tape budget of 16384 B
//
// IR: @_Z7boundedPKfPfS1_S1_.gpuad.tape = internal addrspace(3) global [6656 x i8] poison, align 16
// IR-LABEL: define {{.*}} @_Z9unboundedPKfPfS1_S1_(
// IR: alloca [12 x i64], align 16, addrspace(5), !gpuad.tape.region
// IR-LABEL: define {{.*}} @_Z3bigPKfPfS1_S1_(
// IR: call {{.*}}ptr @gpuad.tape.pool.region(i64 0, i64 32768)
// IR-LABEL: define {{.*}} @_Z5splitPKfPfS1_S1_(
// IR-NOT: __ockl_dm_alloc
// IR-LABEL: define {{.*}} @_Z8splitbigPKfPfS1_S1_(
// IR-NOT: __ockl_dm_alloc
// IR-LABEL: define {{.*}} @_Z4dataPKfPfS1_S1_i(
// IR: call {{.*}} @__ockl_dm_alloc(
//
// The slots are LDS: ds_write/ds_read in the bounded kernel, no allocator.
// ASM-LABEL: _Z7boundedPKfPfS1_S1_:
// ASM-NOT: __ockl_dm_alloc
// ASM: ds_write_b32
// ASM-NOT: __ockl_dm_alloc
// ASM: ds_read
// ASM-NOT: __ockl_dm_alloc
// ASM: s_endpgm

#include <hip/hip_runtime.h>

#include "tape-placement.cu"
