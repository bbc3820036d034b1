//===- LaneVariant.h - The width-1 derivative made for a lane ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The lane variant of a width-1 derivative: a copy with everything it
/// calls inlined, two more parameters (the mask of the lanes that run it
/// together, the lane that acts once for the calling thread), and the
/// calling thread's side effects made once (Batch/LaneMapping.h).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_LANEVARIANT_H
#define GPUAD_PLANNER_LANEVARIANT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

class CallTable;
struct DerivativeSignature;
class TargetHooks;

struct LaneVariant {
  /// Null when the derivative cannot be made once-only; Refusal says why.
  llvm::Function *F = nullptr;
  std::string Refusal;
  /// Computing the directions one after another gives what computing them
  /// together does: no once-only operation, and no write that a read may
  /// see.
  bool Replayable = false;
};

/// Makes the lane variant of \p One, the width-1 derivative (signature
/// \p Sig) of \p Primal.  \p AssumeNoAlias: the primal's pointer arguments
/// do not overlap (gpuad's assume-noalias-args).  \p Simplify cleans up
/// the copy after inlining (SROA and the like).
LaneVariant
makeLaneVariant(llvm::Function &One, const DerivativeSignature &Sig,
                const llvm::Function *Primal, bool AssumeNoAlias,
                TargetHooks &Target, const CallTable &Calls,
                llvm::function_ref<void(llvm::Function &)> Simplify);

} // namespace gpuad

#endif // GPUAD_PLANNER_LANEVARIANT_H
