//===- MapKernels.h - gpuad's kernels for Thrust algorithm calls -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The device half of running Thrust algorithm calls as map kernels
/// (Rules/AlgorithmCalls.h): for each call the frontend plugin found in
/// differentiated host code, a kernel
///
///   __gpuad_map_<form>_<hash>(inputs..., output, i64 n, functor leaves...)
///
/// whose thread i < n rebuilds the functor from its leaves in private
/// memory and applies its `operator()` to element i: stores the result
/// (transform), lets it update the element in place (for_each), or adds it
/// to the cell `output` points to (reduce, transform_reduce).  It is made
/// at the start of the pipeline, while `operator()` is still a function of
/// its own, so that the pipeline optimises it as any kernel and its
/// derivative kernels are made as for any launched kernel.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_MAPKERNELS_H
#define GPUAD_REQUESTS_MAPKERNELS_H

#include "llvm/IR/PassManager.h"

namespace gpuad {

class TargetHooks;

/// Makes the map kernels of device module \p M; returns whether it made
/// any.  A record whose `operator()` is not in \p M (or does not take what
/// the record says) gets none: the host's launch of it then stops with a
/// message naming it.
bool makeMapKernels(llvm::Module &M);

/// The sums of \p M's map kernels and their derivative kernels (atomic adds
/// to a cell an argument points to, the same in every thread) summed in
/// the warp first (TargetHooks::emitAccumulate): one atomic per warp.
/// Called once the derivative kernels are whole (inlined).
bool aggregateMapKernelSums(llvm::Module &M, TargetHooks &Target);

class MapKernelsPass : public llvm::PassInfoMixin<MapKernelsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace gpuad

#endif // GPUAD_REQUESTS_MAPKERNELS_H
