/*===- gpuad/tape_pool.h - The global tape pool, for the host ---*- C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * A gradient kernel keeps its tape in a fixed-size region per thread: shared
 * memory or the thread's local memory when it fits (nothing to do), else the
 * global tape pool -- one buffer the host allocates once and the kernel
 * indexes by global thread id.  gpuad warns at compile time when a kernel
 * of this file needs the pool; then:
 *
 *   #include <gpuad/tape_pool.h>
 *   size_t perThread = 0;
 *   gpuad::tapePoolBytesPerThread(&perThread);
 *   void *pool;
 *   cudaMalloc(&pool, perThread * blocks * threadsPerBlock);
 *   gpuad::setTapePool(pool, perThread);
 *   gradKernel<<<blocks, threadsPerBlock>>>(...);
 *
 * The pool serves every launch of every kernel of this file whose grid is no
 * larger.  A kernel that finds no pool, or one too small, takes its tape
 * from the device heap instead on NVPTX (with a one-time warning from the
 * device's printf; raise cudaLimitMallocHeapSize if the heap runs out); on
 * AMDGPU, where device malloc is slow, it stops with a trap.
 *
 * Loops whose trip count has no compile-time bound keep their tapes in an
 * arena after the fixed part (gpuad warns at such a loop): give each thread
 * what those loops record beyond tapePoolBytesPerThread() -- their frames,
 * 32 bytes of bookkeeping per array, and up to twice an array that grows.
 * Call setTapePool again after a kernel trapped: the arenas start over.
 * Include this header in the file with the gradient kernels: the variables
 * below are that file's.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_TAPE_POOL_H
#define GPUAD_TAPE_POOL_H

#include <stddef.h>

#if defined(__HIP__)
#include <hip/hip_runtime.h>
#define GPUAD_POOL_API(name) hip##name
#define GPUAD_POOL_SYMBOL(s) HIP_SYMBOL(s)
typedef hipError_t gpuad_pool_error_t;
#else
#include <cuda_runtime.h>
#define GPUAD_POOL_API(name) cuda##name
#define GPUAD_POOL_SYMBOL(s) s
typedef cudaError_t gpuad_pool_error_t;
#endif

/* Read by the gradient kernels; the names are the pass's
 * (Tape/TapePlacement.h).  The pass sets the second one's value to what the
 * file's pooled tapes need. */
struct gpuad_tape_pool {
  void *base;
  unsigned long long bytes_per_thread;
  /* A new value per setTapePool: each thread's part starts over. */
  unsigned long long generation;
};
extern "C" __device__ gpuad_tape_pool __gpuad_tape_pool;
extern "C" __device__ unsigned long long __gpuad_tape_pool_need;
__device__ gpuad_tape_pool __gpuad_tape_pool;
__device__ unsigned long long __gpuad_tape_pool_need;

namespace gpuad {

/// The bytes each thread needs in the pool (0: no kernel of this file uses
/// it).
inline gpuad_pool_error_t tapePoolBytesPerThread(size_t *Bytes) {
  unsigned long long Need = 0;
  gpuad_pool_error_t E = GPUAD_POOL_API(MemcpyFromSymbol)(
      &Need, GPUAD_POOL_SYMBOL(__gpuad_tape_pool_need), sizeof(Need));
  *Bytes = static_cast<size_t>(Need);
  return E;
}

/// Makes \p Base (device memory of BytesPerThread times the threads of the
/// largest grid) the pool of the following launches.
inline gpuad_pool_error_t setTapePool(void *Base, size_t BytesPerThread) {
  static unsigned long long Calls = 0;
  gpuad_tape_pool Pool = {Base, BytesPerThread,
                          ++Calls * 0x9e3779b97f4a7c15ull | 1};
  return GPUAD_POOL_API(MemcpyToSymbol)(GPUAD_POOL_SYMBOL(__gpuad_tape_pool),
                                        &Pool, sizeof(Pool));
}

} // namespace gpuad

#endif /* GPUAD_TAPE_POOL_H */
