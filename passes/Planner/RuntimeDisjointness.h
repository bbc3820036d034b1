//===- RuntimeDisjointness.h - Restrict derivative at run time --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Where a call site cannot prove its pointer arguments disjoint, the
/// derivative can still check at run time.  A combined reverse derivative
/// of host code is then a dispatcher: at its entry it computes the bytes
/// each pointer argument, and each shadow, will reach (ArgumentRanges.h)
/// and tests every pair of which one is written for overlap.  If none
/// overlaps it calls the derivative built with every pointer parameter
/// restrict (`noalias`: the reverse sweep loads arguments again instead of
/// taping them, and loops vectorise without checks of their own); otherwise
/// the derivative built with what the call site proved, which is right for
/// any aliasing.
///
/// Only where it pays: the function touches argument memory in a loop, and
/// reaches memory in no way the ranges miss (ArgumentRanges gives up on
/// calls, pointers stored or loaded, non-affine addresses).  Not on GPU
/// targets, where two copies of a kernel's derivative cost code and
/// registers.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_RUNTIMEDISJOINTNESS_H
#define GPUAD_PLANNER_RUNTIMEDISJOINTNESS_H

#include "Support/DerivativeKey.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

class DerivativeContext;

/// What the run-time check of one derivative compares.
struct DisjointnessPlan {
  /// One pointer the derivative reaches memory through: primal argument
  /// Arg itself, or its shadow.
  struct Pointer {
    unsigned Arg;
    bool Shadow;
  };
  llvm::SmallVector<Pointer, 8> Pointers;
  /// Pairs of Pointers that must not overlap (one of them is written, and
  /// the call site did not prove them apart).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Pairs;
  /// Empty when a check (or none, when Pairs is empty) makes every pointer
  /// parameter restrict; otherwise why not.
  std::string WhyNot;

  bool possible() const { return WhyNot.empty(); }
};

/// Whether \p Key's derivative (combined reverse, AliasVersion::AsProven)
/// can be specialised on disjointness checked at run time, and what is
/// compared.
DisjointnessPlan planRuntimeDisjointness(DerivativeContext &Ctx,
                                         const DerivativeKey &Key);

/// Emits the body of \p Dispatcher (\p Key has AliasVersion::Checked): the
/// check, then a call of \p Restrict or of \p AsProven.
void emitDisjointnessDispatcher(DerivativeContext &Ctx,
                                const DerivativeKey &Key,
                                llvm::Function &Dispatcher,
                                llvm::Function &Restrict,
                                llvm::Function &AsProven);

} // namespace gpuad

#endif // GPUAD_PLANNER_RUNTIMEDISJOINTNESS_H
