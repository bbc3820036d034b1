// Where each gradient kernel's tape lives (Tape/TapePlacement.h), one kernel
// per decision, with the remark or warning that explains it:
//   bounded     a fixed-size tape (12 float steps: 48 B per thread) under
//               __launch_bounds__(64): shared-memory slots, 64 x 56 B (56 B
//               a thread keeps full occupancy on NVIDIA GPUs);
//   tiny        6 steps (24 B) under __launch_bounds__(64): shared slots on
//               both targets;
//   unbounded   bounded's derivative in a kernel without launch bounds:
//               thread-local memory;
//   wide        under __launch_bounds__(1024) the slots would take 56 KB,
//               more than a block's 48 KB: thread-local memory;
//   big         8192 steps (32 KiB per thread, over the 16 KiB local
//               budget): the global tape pool;
//   data        a trip count from the data: frames that grow, in the tape
//               pool's arena;
//   split       a __noinline__ callee with a fixed loop (split halves): its
//               32 B region travels by value in the split tape, no malloc;
//   splitbig    the same with 200 steps (800 B): one arena block per call.
// This file does not include <gpuad/tape_pool.h>, so each of the last three
// warns that its tape comes from the device heap (tape-arena.cu has the
// warnings of a program that provides the pool); their malloc is that
// fallback's, and the others have none.
// Forcing -gpuad-tape-placement=heap gives back device malloc everywhere.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.ll -Rpass=gpuad -Rpass-analysis=gpuad 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o - -mllvm -gpuad-tape-placement=heap 2>/dev/null | FileCheck %s --check-prefix=HEAP
//
// REMARK-DAG: tape-placement.cu:[[#STEPS:@LINE+49]]:{{.*}}remark: tape region of 'bounded(float const*, float*, float*, float*)', 48 B per thread, in shared-memory slots (64 threads x 56 B)
// REMARK-DAG: tape-placement.cu:[[#STEPS]]:{{.*}}remark: tape region of 'tiny(float const*, float*, float*, float*)', 24 B per thread, in shared-memory slots (64 threads x 24 B)
// REMARK-DAG: tape-placement.cu:[[#STEPS]]:{{.*}}remark: tape region of 'unbounded(float const*, float*, float*, float*)', 48 B per thread, stays in thread-local memory: a kernel that reaches it has no launch bounds
// REMARK-DAG: tape-placement.cu:[[#STEPS]]:{{.*}}remark: tape region of 'wide(float const*, float*, float*, float*)', 48 B per thread, stays in thread-local memory: 57344 B of slots beside 0 B of shared variables exceed 49152 B
// REMARK-DAG: tape-placement.cu:[[#STEPS+8]]:{{.*}}remark: tape: 1 values cached (0 B outside loops, 1 loop frames; 32768 B per thread in the global tape pool)
// REMARK-DAG: warning: gpuad: this derivative keeps its tape (32768 bytes per thread) in the global tape pool, which the program does not provide (<gpuad/tape_pool.h>), so each thread takes it from the device heap, which is slower (when the heap runs out, the kernel stops and says so: raise it with cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) before the launch); gpuad::setTapePool before the launch is the fast path
// REMARK-DAG: warning: gpuad: this derivative keeps its tape (arrays that grow at run time) in the global tape pool, which the program does not provide
// REMARK-DAG: tape-placement.cu:{{[0-9]+}}:{{.*}}remark: tape: 1 values cached (0 B outside loops, 1 loop frames; 32 B per thread in the split tape, by value)
// REMARK-DAG: warning: gpuad: this derivative keeps its tape (800 bytes per call) in the global tape pool, which the program does not provide
//
// The shared slots are bounded's alone; the pool is found by thread id.
// IR-DAG: @_Z7boundedPKfPfS1_S1_.gpuad.tape = internal addrspace(3) global [3584 x i8] poison, align 16
// IR-DAG: @_Z4tinyPKfPfS1_S1_.gpuad.tape = internal addrspace(3) global [1536 x i8] poison, align 16
// IR-LABEL: define {{.*}} @_Z9unboundedPKfPfS1_S1_(
// IR: alloca [6 x i64], align 16, !gpuad.tape.region
// IR-LABEL: define {{.*}} @_Z3bigPKfPfS1_S1_(
// IR: call ptr @gpuad.tape.pool.region(i64 16, i64 32768)
// The small split callee carries its region in its tape: no malloc (the
// halves are inlined into the kernel); the large one takes an arena block
// once per call.  Nothing calls malloc.
// IR-LABEL: define {{.*}} @_Z5splitPKfPfS1_S1_(
// IR-NOT: malloc
// IR-LABEL: define {{.*}} @_Z8splitbigPKfPfS1_S1_(
// IR: call ptr @gpuad.tape.arena.alloc(i64 800)
// IR-LABEL: define {{.*}} @_Z4dataPKfPfS1_S1_i(
// IR: call ptr @gpuad.tape.arena.alloc(
// IR-NOT: @malloc(
// Without a pool (or with one too small), the region comes from the heap.
// IR-LABEL: define internal ptr @gpuad.tape.pool.region(
// IR-DAG: nctaid.x
// IR-DAG: call ptr @gpuad.tape.heap.fallback(
//
// The shared slots in the PTX; no malloc in that kernel.
// PTX-LABEL: .entry _Z7boundedPKfPfS1_S1_(
// PTX-NOT: malloc
// PTX: .shared .align 16 .b8 {{.*}}gpuad{{.*}}tape[3584];
// PTX-NOT: malloc
// PTX: st.shared.b32
// PTX-NOT: malloc
// PTX: ld.shared.b32
// PTX-NOT: malloc
// PTX: ret;
// HEAP-LABEL: define {{.*}} @_Z7boundedPKfPfS1_S1_(
// HEAP: call ptr @malloc(

#include <gpuad/gpuad.h>

// A fixed loop of N steps: 4N B of tape per thread (float).
template <int N> __device__ void steps(const float *x, float *y) {
  float v = x[threadIdx.x];
#pragma unroll 1
  for (int k = 0; k < N; ++k)
    v = v + 0.1f * sinf(v);
  y[threadIdx.x] = v;
}
// 8192 steps: 32 KiB per thread, over the local budget.
__device__ void long_steps(const float *x, float *y) {
  float v = x[threadIdx.x];
#pragma unroll 1
  for (int k = 0; k < 8192; ++k)
    v = v + 0.1f * sinf(v);
  y[threadIdx.x] = v;
}
// A trip count from the data.
__device__ void n_steps(const float *x, float *y, int n) {
  float v = x[threadIdx.x];
  for (int k = 0; k < n; ++k)
    v = v + 0.1f * sinf(v);
  y[threadIdx.x] = v;
}
template <int N> __device__ __noinline__ float callee(float v) {
#pragma unroll 1
  for (int k = 0; k < N; ++k)
    v = v + 0.1f * sinf(v);
  return v;
}
template <int N> __device__ void calls(const float *x, float *y) {
  y[threadIdx.x] = callee<N>(x[threadIdx.x]) * x[threadIdx.x];
}

#define GRAD(name, fn)                                                         \
  __global__ void name(const float *x, float *xb, float *y, float *yb) {       \
    __enzyme_autodiff<void>((void *)fn, enzyme_dup, x, xb, enzyme_dup, y, yb); \
  }
__launch_bounds__(64) GRAD(bounded, steps<12>)
__launch_bounds__(64) GRAD(tiny, steps<6>)
GRAD(unbounded, steps<12>)
__launch_bounds__(1024) GRAD(wide, steps<12>)
GRAD(big, long_steps)
GRAD(split, calls<8>)
GRAD(splitbig, calls<200>)
__global__ void data(const float *x, float *xb, float *y, float *yb, int n) {
  __enzyme_autodiff<void>((void *)n_steps, enzyme_dup, x, xb, enzyme_dup, y,
                          yb, enzyme_const, n);
}
