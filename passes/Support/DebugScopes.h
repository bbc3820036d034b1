//===- DebugScopes.h - Keep debug locations in their function ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every debug location in a function must belong to that function's own
/// DISubprogram (or be inlined into it).  Cloning gives each clone a
/// subprogram of its own; code built afterwards from another clone's
/// instructions (a split form's halves rebuild addresses from the combined
/// derivative) can carry that clone's locations, which the verifier rejects
/// and the DWARF writer crashes on.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_DEBUGSCOPES_H
#define GPUAD_SUPPORT_DEBUGSCOPES_H

#include "llvm/IR/DebugLoc.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace gpuad {

/// Moves every location of \p F that belongs to another subprogram to the
/// same line and column in \p F's (without the other's inlining chain).
void keepDebugLocationsInFunction(llvm::Function &F);

/// A location for a call inserted beside \p I (an inlined helper needs one
/// in a function with debug information): \p I's own, or line 0 of its
/// function.
llvm::DebugLoc locationBeside(const llvm::Instruction &I);

} // namespace gpuad

#endif // GPUAD_SUPPORT_DEBUGSCOPES_H
