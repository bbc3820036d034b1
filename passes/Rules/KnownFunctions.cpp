//===- KnownFunctions.cpp - Library calls with known behaviour ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/KnownFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace gpuad {

unsigned releasedArgument(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  unsigned Arg = 0;
  if (Callee && Callee->hasFnAttribute("gpuad-user-free"))
    Callee->getFnAttribute("gpuad-user-free")
        .getValueAsString()
        .getAsInteger(10, Arg);
  return Arg;
}

unsigned userAllocationSize(const Function &Alloc) {
  unsigned Arg = 0;
  Alloc.getFnAttribute("enzyme_allocator")
      .getValueAsString()
      .getAsInteger(10, Arg);
  return Arg;
}

Function *userDeallocator(const Function &Alloc) {
  MDNode *MD = Alloc.getMetadata("enzyme_deallocator_fn");
  if (!MD || MD->getNumOperands() != 1)
    return nullptr;
  auto *VAM = dyn_cast<ValueAsMetadata>(MD->getOperand(0));
  return VAM ? dyn_cast<Function>(VAM->getValue()) : nullptr;
}

SmallVector<int, 4> userDeallocatorArguments(const Function &Alloc) {
  SmallVector<StringRef, 4> Parts;
  Alloc.getFnAttribute("enzyme_deallocator")
      .getValueAsString()
      .split(Parts, ',');
  SmallVector<int, 4> Args;
  for (StringRef P : Parts) {
    int V = -1;
    P.trim().getAsInteger(10, V);
    Args.push_back(V);
  }
  return Args;
}

} // namespace gpuad
