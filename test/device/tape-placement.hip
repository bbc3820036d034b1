// HIP: where each gradient kernel's tape lives (tape-placement.cu's kernels
// compiled for AMDGPU).  HIP gives every kernel a maximum work-group size
// (1024 without launch bounds); a lane may take 32 B of LDS without
// lowering occupancy, so only 'tiny' gets shared slots; scratch (private
// memory) is the thread-local place; growing tapes use the pool's arena,
// and ockl's allocator only when the program provides no pool.
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
// REMARK-DAG: remark: tape region of 'tiny(float const*, float*, float*, float*)', 24 B per thread, in shared-memory slots (64 threads x 24 B)
// REMARK-DAG: remark: tape region of 'bounded(float const*, float*, float*, float*)', 48 B per thread, stays in thread-local memory: 56 B slots exceed the 32 B a thread may take in shared memory without lowering occupancy
// REMARK-DAG: remark: tape region of 'unbounded(float const*, float*, float*, float*)', 48 B per thread, stays in thread-local memory: 56 B slots exceed the 32 B
// REMARK-DAG: remark: tape: 1 values cached (0 B outside loops, 1 loop frames; 32768 B per thread in the global tape pool)
// REMARK-DAG: warning: gpuad: this derivative keeps its tape (32768 bytes per thread) in the global tape pool, which the program does not provide (<gpuad/tape_pool.h>), so each thread takes it from the device heap, which is slower (when the heap runs out, the kernel stops and says so: raise it with hipDeviceSetLimit(hipLimitMallocHeapSize, bytes) before the launch)
// REMARK-DAG: warning: gpuad: this derivative keeps its tape (arrays that grow at run time) in the global tape pool
//
// IR: @_Z4tinyPKfPfS1_S1_.gpuad.tape = internal addrspace(3) global [1536 x i8] poison, align 16
// IR-LABEL: define {{.*}} @_Z7boundedPKfPfS1_S1_(
// IR: alloca [6 x i64], align 16, addrspace(5), !gpuad.tape.region
// IR-LABEL: define {{.*}} @_Z3bigPKfPfS1_S1_(
// IR: call {{.*}}ptr @gpuad.tape.pool.region(i64 16, i64 32768)
// IR-LABEL: define {{.*}} @_Z5splitPKfPfS1_S1_(
// IR-NOT: __ockl_dm_alloc
// IR-LABEL: define {{.*}} @_Z8splitbigPKfPfS1_S1_(
// IR-NOT: __ockl_dm_alloc
// IR-LABEL: define {{.*}} @_Z4dataPKfPfS1_S1_i(
// IR: call {{.*}} @gpuad.tape.arena.alloc(
// IR-NOT: __ockl_dm_alloc
// IR: ret void
// The device heap only where the pool is missing (this file provides none).
// IR-LABEL: define internal ptr @gpuad.tape.heap.fallback(
// IR: @__ockl_dm_alloc(
//
// The slots are LDS: ds_write/ds_read in the tiny kernel, no allocator.
// ASM-LABEL: _Z4tinyPKfPfS1_S1_:
// ASM-NOT: __ockl_dm_alloc
// ASM: ds_write_b32
// ASM-NOT: __ockl_dm_alloc
// ASM: ds_read
// ASM-NOT: __ockl_dm_alloc
// ASM: s_endpgm

#include <hip/hip_runtime.h>

#include "tape-placement.cu"
