//===- DebugScopes.cpp - Keep debug locations in their function -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/DebugScopes.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace gpuad {

void keepDebugLocationsInFunction(Function &F) {
  DISubprogram *SP = F.getSubprogram();
  for (Instruction &I : instructions(F)) {
    const DebugLoc &DL = I.getDebugLoc();
    if (!DL)
      continue;
    if (!SP) {
      I.setDebugLoc(DebugLoc());
      continue;
    }
    if (DL->getInlinedAtScope()->getSubprogram() == SP)
      continue;
    // The outermost location: where the other function's code stands.
    const DILocation *Outer = DL.get();
    while (const DILocation *At = Outer->getInlinedAt())
      Outer = At;
    I.setDebugLoc(DILocation::get(F.getContext(), Outer->getLine(),
                                  Outer->getColumn(), SP));
  }
}

DebugLoc locationBeside(const Instruction &I) {
  if (DebugLoc DL = I.getDebugLoc())
    return DL;
  if (DISubprogram *SP = I.getFunction()->getSubprogram())
    return DILocation::get(I.getContext(), 0, 0, SP);
  return DebugLoc();
}

} // namespace gpuad
