//===- AlgorithmLaunches.h - Thrust calls as launches of map kernels -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The host half of running Thrust algorithm calls as map kernels
/// (Rules/AlgorithmCalls.h).  In the normalised clone, a call the frontend
/// plugin described becomes runtime calls the host/device machinery
/// differentiates:
///
///   transform, for_each:  launch the map kernel; synchronise (Thrust's
///                         algorithms are synchronous); the result
///                         iterator is first + n
///   reduce, transform_reduce:  cudaMalloc a cell, zero it, launch the map
///                         kernel, copy the cell back, free it; the result
///                         is init plus the cell
///
/// on the default stream, in blocks of 256 threads.  The map kernel gets a
/// host stub of its own (a handle and its registration beside the module's
/// kernels), so its launch is a launch like any other.  The functor's bytes
/// come from the call's arguments as the x86-64 ABI passes them: nothing
/// for an empty class, an IR argument per eightbyte up to 16 bytes, a
/// byval copy above.  (A sum's order of additions differs from Thrust's: a
/// rounding difference in the primal result.)
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_ALGORITHMLAUNCHES_H
#define GPUAD_NORMALIZE_ALGORITHMLAUNCHES_H

#include "Rules/AlgorithmCalls.h"

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

/// Rewrites \p F's calls to the algorithms \p Calls describes (with status
/// ok) into map-kernel launches.  Returns whether it changed \p F.
bool launchAlgorithmsAsMapKernels(llvm::Function &F,
                                  const llvm::StringMap<AlgorithmCall> &Calls);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_ALGORITHMLAUNCHES_H
