//===- KernelLaunches.h - Kernel launches as calls with values --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The normalised clone carries each kernel launch whose kernel and
/// arguments gpuad can follow as `gpuad.launch` (Rules/KernelLaunch.h), its
/// arguments read from the runtime call's array at the launch (SROA and
/// EarlyCSE then forward the stores); every generated function turns the
/// form back into the runtime call before anything else optimises it.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_KERNELLAUNCHES_H
#define GPUAD_NORMALIZE_KERNELLAUNCHES_H

#include "Rules/KernelLaunch.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace gpuad {

class CallTable;

/// Rewrites \p F's runtime launches (CallTable's Launch rows) whose kernel
/// and arguments gpuad can follow into the normalised form.
bool normalizeKernelLaunches(llvm::Function &F, const CallTable &Calls);
/// Gives \p F's launches the fields the host ABI carried inside integers
/// (a struct of an int and a float passed as one i64): each such leaf, as
/// SROA reads it out of the integer, is the float the integer was
/// assembled from.  Returns whether it changed anything.
bool reassembleLaunchLeaves(llvm::Function &F);
/// Why the runtime launch \p Call was not normalised.
std::string whyLaunchNotNormalized(const llvm::CallBase &Call);
/// Turns \p F's normalised launches back into runtime calls.
bool lowerKernelLaunches(llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_KERNELLAUNCHES_H
