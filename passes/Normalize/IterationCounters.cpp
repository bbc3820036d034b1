//===- IterationCounters.cpp - Enzyme's __enzyme_iter ---------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/IterationCounters.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// The counter calls of \p F: `__enzyme_iter(base, step)` with two integer
/// operands of the result's type.
SmallVector<CallBase *, 4> counterCalls(Function &F) {
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction();
          Callee && isIterationCounter(*Callee) && Call->arg_size() == 2 &&
          Call->getType()->isIntegerTy() &&
          Call->getArgOperand(0)->getType() == Call->getType() &&
          Call->getArgOperand(1)->getType() == Call->getType())
        Calls.push_back(Call);
  return Calls;
}

} // namespace

bool isIterationCounter(const Function &F) {
  return F.isDeclaration() && F.getName().contains("__enzyme_iter");
}

void declareIterationCounters(Module &M) {
  for (Function &F : M)
    if (isIterationCounter(F)) {
      F.addFnAttr("enzyme_inactive");
      F.setDoesNotAccessMemory();
      F.setDoesNotThrow();
      F.setWillReturn();
    }
}

bool advanceIterationCounters(Function &Clone) {
  SmallVector<CallBase *, 4> Calls = counterCalls(Clone);
  for (CallBase *Call : Calls) {
    IRBuilder<> B(Call);
    Call->setArgOperand(
        0, B.CreateAdd(Call->getArgOperand(0), Call->getArgOperand(1)));
  }
  return !Calls.empty();
}

bool lowerIterationCounters(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (CallBase *Call : counterCalls(F)) {
      Call->replaceAllUsesWith(Call->getArgOperand(0));
      Call->eraseFromParent();
      Changed = true;
    }
  }
  for (Function &F : make_early_inc_range(M))
    if (isIterationCounter(F) && F.use_empty())
      F.eraseFromParent();
  return Changed;
}

} // namespace gpuad
