//===- Inlining.h - Inlining the helpers gpuad must see through -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// At -O0 the headers' small helpers (shuffle and atomic wrappers, HIP's
/// thread-id accessors) are calls; gpuad inlines them into the clones it
/// differentiates, so that it sees what they do as at -O2.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_INLINING_H
#define GPUAD_SUPPORT_INLINING_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

/// Inlines the direct calls in \p F to defined functions for which
/// \p Inline holds.  Returns whether it inlined any.
bool inlineCallsTo(llvm::Function &F,
                   llvm::function_ref<bool(const llvm::Function &)> Inline);

} // namespace gpuad

#endif // GPUAD_SUPPORT_INLINING_H
