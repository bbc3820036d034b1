//===- Inlining.cpp - Inlining the helpers gpuad must see through ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/Inlining.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace gpuad {

bool inlineCallsTo(Function &F, function_ref<bool(const Function &)> Inline) {
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && Inline(*Callee))
        Calls.push_back(Call);
  bool Inlined = false;
  for (CallBase *Call : Calls) {
    InlineFunctionInfo IFI;
    Inlined |= InlineFunction(*Call, IFI).isSuccess();
  }
  return Inlined;
}

} // namespace gpuad
