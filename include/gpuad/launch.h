/*===- gpuad/launch.h - Launching derivative kernels -------------*- C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * What a kernel that makes a derivative request needs at launch beyond what
 * the primal kernel needs.
 *
 * Dynamic shared memory (`extern __shared__`): when such memory carries
 * derivatives, its shadow lives in the launch's dynamic shared memory too,
 * right after the primal's: launch the gradient (or tangent) kernel with
 *
 *   grad<<<blocks, threads, gpuad::derivativeDynamicSharedBytes(bytes)>>>
 *
 * where `bytes` is what the primal kernel gets.  The derivative finds the
 * shadow of base + o at base + (launch's bytes) / 2 + o (PTX
 * %dynamic_smem_size; on AMDGPU code object v5's hidden_dynamic_lds_size,
 * which HIP fills from ROCm 6.0 on).  `bytes` must be a multiple of 8.
 *
 * The global tape pool, for tapes that fit neither shared nor thread-local
 * memory, is in <gpuad/tape_pool.h>.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_LAUNCH_H
#define GPUAD_LAUNCH_H

#include <stddef.h>

namespace gpuad {

/// Dynamic shared bytes for a derivative kernel whose primal gets
/// \p PrimalBytes: the primal's and the shadow's.
constexpr size_t derivativeDynamicSharedBytes(size_t PrimalBytes) {
  return 2 * PrimalBytes;
}

} // namespace gpuad

#endif /* GPUAD_LAUNCH_H */
