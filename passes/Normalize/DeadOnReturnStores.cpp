//===- DeadOnReturnStores.cpp - Stores to memory nobody reads -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/DeadOnReturnStores.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace gpuad {

PreservedAnalyses DeadOnReturnStoresPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  SmallVector<Argument *, 4> Dead;
  for (Argument &A : F.args())
    if (A.getType()->isPointerTy() && A.hasNoAliasAttr() &&
        A.hasAttribute(Attribute::DeadOnReturn))
      Dead.push_back(&A);
  if (Dead.empty())
    return PreservedAnalyses::all();
  BatchAAResults AA(AM.getResult<AAManager>(F));
  SmallVector<Instruction *, 16> Erase;
  for (Argument *A : Dead) {
    MemoryLocation Whole = MemoryLocation::getBeforeOrAfter(A);
    SmallVector<Instruction *, 16> Stores;
    bool Read = false;
    for (Instruction &I : instructions(F)) {
      if (!I.mayReadOrWriteMemory())
        continue;
      ModRefInfo MR = AA.getModRefInfo(&I, Whole);
      if (isRefSet(MR)) {
        Read = true;
        break;
      }
      // Simple stores and memsets whose only target is A's memory.
      if (isModSet(MR)) {
        auto *S = dyn_cast<StoreInst>(&I);
        auto *M = dyn_cast<MemSetInst>(&I);
        Value *To = S ? S->getPointerOperand() : M ? M->getDest() : nullptr;
        if (!To || (S && !S->isSimple()) || (M && M->isVolatile()) ||
            getUnderlyingObject(To) != A)
          continue;
        Stores.push_back(&I);
      }
    }
    if (!Read)
      Erase.append(Stores);
  }
  if (Erase.empty())
    return PreservedAnalyses::all();
  for (Instruction *I : Erase)
    I->eraseFromParent();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace gpuad
