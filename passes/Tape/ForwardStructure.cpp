//===- ForwardStructure.cpp - The forward CFG as the reverse sweep sees it ===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Tape/ForwardStructure.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

ForwardStructure::ForwardStructure(Function &F) : F(F), DT(F), LI(DT) {
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator()))
      Return = &BB;
  // Blocks that reach the return, by a backward walk from it.
  if (Return) {
    SmallVector<BasicBlock *, 32> Work = {Return};
    ReachesReturn.insert(Return);
    while (!Work.empty())
      for (BasicBlock *P : llvm::predecessors(Work.pop_back_val()))
        if (ReachesReturn.insert(P).second)
          Work.push_back(P);
  }
  for (BasicBlock &BB : F)
    if (ReachesReturn.count(&BB))
      Blocks.push_back(&BB);
  addInductionVariables();
  addExitIterations();
  addPredecessorIndices();
}

void ForwardStructure::addInductionVariables() {
  IRBuilder<> B(F.getContext());
  for (Loop *L : LI.getLoopsInPreorder()) {
    BasicBlock *Header = L->getHeader();
    BasicBlock *Pre = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Pre || !Latch)
      continue; // not in simplified form; the emitter reports it
    B.SetInsertPoint(Header, Header->begin());
    PHINode *IV = B.CreatePHI(B.getInt64Ty(), 2, "iv");
    B.SetInsertPoint(Latch->getTerminator());
    Value *Next = B.CreateAdd(IV, B.getInt64(1), "iv.next", /*HasNUW=*/true,
                              /*HasNSW=*/true);
    IV->addIncoming(B.getInt64(0), Pre);
    IV->addIncoming(Next, Latch);
    IVs[L] = IV;
    IVLoop[IV] = L;
    Bookkeeping.insert(IV);
    Bookkeeping.insert(cast<Instruction>(Next));
  }
}

void ForwardStructure::addExitIterations() {
  // An exit block of L is entered from inside L (dedicated exits); when it
  // is also outside enclosing loops, it leaves those too.
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!IVs.count(L))
      continue;
    SmallVector<BasicBlock *, 4> Exits;
    L->getUniqueExitBlocks(Exits);
    for (BasicBlock *Exit : Exits) {
      PHINode *P =
          PHINode::Create(Type::getInt64Ty(F.getContext()), 2, "iv.exit");
      P->insertBefore(Exit->getFirstNonPHIIt());
      for (BasicBlock *Pred : llvm::predecessors(Exit))
        P->addIncoming(IVs[L], Pred);
      ExitIterations[{L, Exit}] = P;
      ExitIterationLoop[P] = L;
      Bookkeeping.insert(P);
    }
  }
}

void ForwardStructure::addPredecessorIndices() {
  for (BasicBlock *BB : Blocks) {
    SmallVector<BasicBlock *, 4> &Ps = Preds[BB];
    for (BasicBlock *P : llvm::predecessors(BB))
      if (ReachesReturn.count(P) && !is_contained(Ps, P))
        Ps.push_back(P);
    Loop *L = LI.getLoopFor(BB);
    bool IsHeader = L && L->getHeader() == BB && IVs.count(L);
    if (Ps.size() < 2 || IsHeader)
      continue;
    PHINode *P =
        PHINode::Create(Type::getInt8Ty(F.getContext()), Ps.size(), "from");
    P->insertBefore(BB->getFirstNonPHIIt());
    for (BasicBlock *Pred : llvm::predecessors(BB)) {
      auto It = find(Ps, Pred);
      unsigned Index = It == Ps.end() ? 0 : It - Ps.begin();
      P->addIncoming(ConstantInt::get(P->getType(), Index), Pred);
    }
    PredIndex[BB] = P;
    Bookkeeping.insert(P);
  }
}

PHINode *ForwardStructure::exitIteration(const Loop *L,
                                         const BasicBlock *Exit) const {
  auto It = ExitIterations.find({L, Exit});
  return It == ExitIterations.end() ? nullptr : It->second;
}

ArrayRef<BasicBlock *>
ForwardStructure::predecessors(const BasicBlock *BB) const {
  auto It = Preds.find(BB);
  return It == Preds.end() ? ArrayRef<BasicBlock *>() : ArrayRef(It->second);
}

} // namespace gpuad
