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

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

/// Moves every location of \p F that belongs to another subprogram to the
/// same line and column in \p F's (without the other's inlining chain).
void keepDebugLocationsInFunction(llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_SUPPORT_DEBUGSCOPES_H
