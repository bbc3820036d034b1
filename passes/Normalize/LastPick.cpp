//===- LastPick.cpp - Select recurrences keep one index, not a flag each --===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/LastPick.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <map>

using namespace llvm;

namespace gpuad {

/// On a select with a companion and on the companion, the same node: which
/// operand is the new value.
static constexpr const char *LastPickMD = "gpuad.last.pick";

static MDNode *pickNode(LLVMContext &Ctx, bool NewIsTrue) {
  return MDNode::get(
      Ctx, {MDString::get(Ctx, NewIsTrue ? "new-is-true" : "new-is-false")});
}

/// The loop-carried operand of \p Sel: a header PHI of \p L that takes
/// \p Sel from the latch.
static PHINode *carriedOperand(SelectInst &Sel, const Loop &L) {
  for (Value *Op : {Sel.getTrueValue(), Sel.getFalseValue()}) {
    auto *P = dyn_cast<PHINode>(Op);
    if (P && P->getParent() == L.getHeader() &&
        P->getIncomingValueForBlock(L.getLoopLatch()) == &Sel)
      return P;
  }
  return nullptr;
}

/// Whether \p V's only uses in \p L are \p Allowed and comparisons (which
/// carry no adjoint); uses after the loop see its final value.
static bool onlyComparedIn(const Value &V, const Loop &L,
                           const Instruction &Allowed) {
  return all_of(V.users(), [&](const User *U) {
    auto *I = cast<Instruction>(U);
    return I == &Allowed || isa<CmpInst>(I) || !L.contains(I);
  });
}

bool recordLastPicks(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<std::pair<SelectInst *, bool>, 4> Recurrences;
  for (Instruction &I : instructions(F)) {
    // Marks copied from an earlier derivative (this function may be one)
    // name companions that optimisation may have changed since.
    I.setMetadata(LastPickMD, nullptr);
    auto *Sel = dyn_cast<SelectInst>(&I);
    Loop *L = Sel ? LI.getLoopFor(Sel->getParent()) : nullptr;
    if (!L || !Sel->getType()->isFPOrFPVectorTy() ||
        Sel->getCondition()->getType()->isVectorTy() ||
        Sel->getTrueValue() == Sel->getFalseValue() || !L->getLoopPreheader() ||
        !L->getLoopLatch() || !L->getUniqueExitBlock() ||
        !L->hasDedicatedExits())
      continue;
    PHINode *Carried = carriedOperand(*Sel, *L);
    if (!Carried || !onlyComparedIn(*Sel, *L, *Carried) ||
        !onlyComparedIn(*Carried, *L, *Sel))
      continue;
    Recurrences.push_back({Sel, Sel->getFalseValue() == Carried});
  }
  if (Recurrences.empty())
    return false;

  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  DenseMap<Loop *, PHINode *> Counters;
  auto CounterOf = [&](Loop *L) {
    PHINode *&K = Counters[L];
    if (K)
      return K;
    IRBuilder<> B(&*L->getHeader()->getFirstInsertionPt());
    K = B.CreatePHI(I64, 2, "pick.iter");
    B.SetInsertPoint(L->getLoopLatch()->getTerminator());
    K->addIncoming(ConstantInt::get(I64, 0), L->getLoopPreheader());
    K->addIncoming(B.CreateAdd(K, ConstantInt::get(I64, 1), "", true, true),
                   L->getLoopLatch());
    return K;
  };
  // One companion per condition and polarity.
  std::map<std::pair<Value *, bool>, SelectInst *> Companions;
  for (auto [Sel, NewIsTrue] : Recurrences) {
    MDNode *Node = pickNode(Ctx, NewIsTrue);
    Sel->setMetadata(LastPickMD, Node);
    SelectInst *&Next = Companions[{Sel->getCondition(), NewIsTrue}];
    if (Next)
      continue;
    Loop *L = LI.getLoopFor(Sel->getParent());
    PHINode *K = CounterOf(L);
    IRBuilder<> B(&*L->getHeader()->getFirstInsertionPt());
    PHINode *Last = B.CreatePHI(I64, 2, Sel->getName() + ".last.pick");
    B.SetInsertPoint(Sel->getNextNode());
    Value *Cond = Sel->getCondition();
    Next = cast<SelectInst>(NewIsTrue ? B.CreateSelect(Cond, K, Last)
                                      : B.CreateSelect(Cond, Last, K));
    Next->setMetadata(LastPickMD, Node);
    Last->addIncoming(ConstantInt::getSigned(I64, -1), L->getLoopPreheader());
    Last->addIncoming(Next, L->getLoopLatch());
    // After the loop: the pick as of the exiting block (Next once the
    // select's block has run in the exiting iteration).
    BasicBlock *Exit = L->getUniqueExitBlock();
    PHINode *AtExit = PHINode::Create(I64, 2, Last->getName() + ".exit");
    AtExit->insertBefore(Exit->begin());
    for (BasicBlock *Pred : predecessors(Exit))
      AtExit->addIncoming(
          DT.dominates(Sel->getParent(), Pred) ? cast<Value>(Next) : Last,
          Pred);
  }
  return true;
}

std::optional<LastPick> findLastPick(SelectInst &Sel) {
  MDNode *Node = Sel.getMetadata(LastPickMD);
  if (!Node)
    return std::nullopt;
  bool NewIsTrue =
      cast<MDString>(Node->getOperand(0))->getString() == "new-is-true";
  for (User *U : Sel.getCondition()->users()) {
    auto *Next = dyn_cast<SelectInst>(U);
    if (!Next || Next == &Sel || Next->getMetadata(LastPickMD) != Node)
      continue;
    auto *K = dyn_cast<PHINode>(NewIsTrue ? Next->getTrueValue()
                                          : Next->getFalseValue());
    auto *Last = dyn_cast<PHINode>(NewIsTrue ? Next->getFalseValue()
                                             : Next->getTrueValue());
    if (!K || !Last)
      continue;
    for (Value *V : {cast<Value>(Last), cast<Value>(Next)})
      for (User *W : V->users())
        if (auto *AtExit = dyn_cast<PHINode>(W); AtExit && AtExit != Last)
          return LastPick{K, AtExit, NewIsTrue};
  }
  return std::nullopt;
}

} // namespace gpuad
