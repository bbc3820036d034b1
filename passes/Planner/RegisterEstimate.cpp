//===- RegisterEstimate.cpp - How many registers a function needs ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Lane batching's `auto` choice compares the vector form's register need
/// with the target's budget before any register allocator has run.  The
/// estimate is the largest number of 32-bit words live at one point of the
/// IR: SSA liveness over the CFG, then a backward walk of each block.
//===----------------------------------------------------------------------===//

#include "Planner/LaneMapping.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

using LiveSet = DenseSet<const Value *>;

/// Values that occupy registers: instructions and arguments, not constants.
bool occupies(const Value *V) {
  return (isa<Instruction>(V) || isa<Argument>(V)) &&
         !V->getType()->isVoidTy() && !V->getType()->isIntegerTy(1);
}

unsigned words(const Value *V, const DataLayout &DL) {
  Type *Ty = V->getType();
  if (!Ty->isSized())
    return 0;
  return unsigned((DL.getTypeSizeInBits(Ty).getKnownMinValue() + 31) / 32);
}

unsigned weight(const LiveSet &Live, const DataLayout &DL) {
  unsigned W = 0;
  for (const Value *V : Live)
    W += words(V, DL);
  return W;
}

} // namespace

unsigned estimateRegisters(const Function &F) {
  if (F.isDeclaration())
    return 0;
  const DataLayout &DL = F.getParent()->getDataLayout();
  // Live-in sets to a fixed point; a PHI's operand is live out of its
  // incoming block only.
  DenseMap<const BasicBlock *, LiveSet> LiveIn;
  auto LiveOut = [&](const BasicBlock &BB) {
    LiveSet Out;
    for (const BasicBlock *S : successors(&BB)) {
      for (const Value *V : LiveIn[S])
        if (!isa<PHINode>(V) || cast<PHINode>(V)->getParent() != S)
          Out.insert(V);
      for (const PHINode &Phi : S->phis())
        if (const Value *In = Phi.getIncomingValueForBlock(&BB);
            In && occupies(In))
          Out.insert(In);
    }
    return Out;
  };
  auto Step = [&](LiveSet &Live, const Instruction &I) {
    Live.erase(&I);
    if (isa<PHINode>(I))
      return;
    for (const Value *Op : I.operands())
      if (occupies(Op))
        Live.insert(Op);
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const BasicBlock &BB : reverse(F)) {
      LiveSet Live = LiveOut(BB);
      for (const Instruction &I : reverse(BB))
        Step(Live, I);
      for (const PHINode &Phi : BB.phis())
        Live.insert(&Phi);
      if (Live.size() != LiveIn[&BB].size()) {
        LiveIn[&BB] = std::move(Live);
        Changed = true;
      }
    }
  }
  unsigned Most = 0;
  for (const BasicBlock &BB : F) {
    LiveSet Live = LiveOut(BB);
    Most = std::max(Most, weight(Live, DL));
    for (const Instruction &I : reverse(BB)) {
      Step(Live, I);
      Most =
          std::max(Most, weight(Live, DL) + (occupies(&I) ? words(&I, DL) : 0));
    }
  }
  return Most;
}

} // namespace gpuad
