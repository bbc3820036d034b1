//===- ReturnedArguments.h - Which arguments a function returns -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// C++ accessors return references to what they were given (`const T&
/// conj_if<false>::pconj(const T& x) { return x; }`, `*this` from an
/// assignment, `derived()`), and an augmented half returns the shadow of
/// such a reference.  Where the pointer given is into the caller's stack,
/// the pointer returned is too: a split derivative must know it, or it keeps
/// the address on a tape past the frame's end.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_RETURNEDARGUMENTS_H
#define GPUAD_SUPPORT_RETURNEDARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

struct ReturnedArguments {
  /// Bit k: the pointer returned may be parameter k or point into it.
  llvm::SmallBitVector Params;
  /// It may also be another pointer (loaded from memory, a global, the
  /// result of a call this does not see into).
  bool Other = false;
};

/// What the pointer \p F returns -- at aggregate index \p Idx of a returned
/// struct -- is made of: its parameters, seen through casts, GEPs, choices,
/// -O0's local slots and calls of functions that return their own.
ReturnedArguments returnedArguments(const llvm::Function &F,
                                    llvm::ArrayRef<unsigned> Idx = {});

/// The parameter \p F always returns as it is (no offset): every return's
/// value is that parameter, seen through casts and -O0's local slot; or its
/// `returned` attribute says so.
std::optional<unsigned> alwaysReturnedParameter(const llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_SUPPORT_RETURNEDARGUMENTS_H
