//===- AccumulationOrder.cpp - Adjoint updates ordered for loops ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Reverse/AccumulationOrder.h"

#include "Support/FunctionAttributes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-accumulation-order"

using namespace llvm;

STATISTIC(NumReordered, "Loop blocks whose adjoint updates were reordered");

namespace gpuad {

namespace {

/// `*p = *p + x` (or `x + *p`): a load, the add, the store, in one block.
struct Update {
  LoadInst *Load;
  Instruction *Add;
  StoreInst *Store;
  int64_t Offset; // bytes from the group's first update's address
};

/// The update whose store is \p S, if it is one.
std::optional<Update> matchUpdate(StoreInst &S) {
  auto *Add = dyn_cast<BinaryOperator>(S.getValueOperand());
  if (!S.isSimple() || !Add || Add->getOpcode() != Instruction::FAdd ||
      Add->getParent() != S.getParent() || !Add->hasOneUse())
    return std::nullopt;
  for (Value *Op : Add->operands())
    if (auto *L = dyn_cast<LoadInst>(Op))
      if (L->isSimple() && L->getParent() == S.getParent() && L->hasOneUse() &&
          L->getPointerOperand() == S.getPointerOperand())
        return Update{L, Add, &S, 0};
  return std::nullopt;
}

/// Moves \p Group, updates of one buffer at constant distances, into the
/// order that walks ahead of the loop (ascending addresses where \p Step,
/// the bytes an iteration moves, is negative), before \p At; false (and no
/// change) where something in between may touch what they update.
bool reorder(SmallVectorImpl<Update> &Group, int64_t Step, Instruction *At,
             BatchAAResults &AA) {
  SmallVector<Update, 4> Wanted(Group.begin(), Group.end());
  llvm::stable_sort(Wanted, [&](const Update &A, const Update &B) {
    return Step < 0 ? A.Offset < B.Offset : A.Offset > B.Offset;
  });
  if (llvm::equal(Wanted, Group, [](const Update &A, const Update &B) {
        return A.Store == B.Store;
      }))
    return false;
  SmallPtrSet<const Instruction *, 12> Own;
  for (const Update &U : Group)
    Own.insert({U.Load, U.Add, U.Store});
  // Each update moves down to At: nothing from its load on may touch it.
  for (const Update &U : Group) {
    MemoryLocation Loc = MemoryLocation::get(U.Store);
    for (Instruction *I = U.Load->getNextNode(); I != At;
         I = I->getNextNode()) {
      if (Own.contains(I) || !I->mayReadOrWriteMemory())
        continue;
      if (isa<CallBase>(I) || I->isAtomic() ||
          isModOrRefSet(AA.getModRefInfo(I, Loc)))
        return false;
    }
  }
  for (const Update &U : Wanted) {
    U.Load->moveBefore(At->getIterator());
    U.Add->moveBefore(At->getIterator());
    U.Store->moveBefore(At->getIterator());
  }
  return true;
}

bool reorderBlock(BasicBlock &BB, const Loop &L, ScalarEvolution &SE,
                  BatchAAResults &AA, const DataLayout &DL) {
  // Updates by (buffer, step per iteration), in program order.
  MapVector<std::pair<const SCEV *, const SCEV *>, SmallVector<Update, 4>>
      Groups;
  for (Instruction &I : BB) {
    auto *S = dyn_cast<StoreInst>(&I);
    std::optional<Update> U = S ? matchUpdate(*S) : std::nullopt;
    if (!U)
      continue;
    auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(S->getPointerOperand()));
    if (!Rec || Rec->getLoop() != &L || !Rec->isAffine() ||
        !isa<SCEVConstant>(Rec->getStepRecurrence(SE)))
      continue;
    Groups[{SE.getPointerBase(Rec), Rec->getStepRecurrence(SE)}].push_back(*U);
  }
  bool Changed = false;
  for (auto &[Key, Group] : Groups) {
    if (Group.size() < 2)
      continue;
    // Constant distances from the first, and no two overlapping.
    const SCEV *First = SE.getSCEV(Group.front().Store->getPointerOperand());
    bool Distinct = true;
    for (Update &U : Group) {
      auto *D = dyn_cast<SCEVConstant>(
          SE.getMinusSCEV(SE.getSCEV(U.Store->getPointerOperand()), First));
      if (!D) {
        Distinct = false;
        break;
      }
      U.Offset = D->getAPInt().getSExtValue();
    }
    auto Size = [&](const Update &U) {
      return int64_t(
          DL.getTypeStoreSize(U.Store->getValueOperand()->getType()));
    };
    for (unsigned A = 0; Distinct && A < Group.size(); ++A)
      for (unsigned B = A + 1; Distinct && B < Group.size(); ++B)
        Distinct = std::abs(Group[A].Offset - Group[B].Offset) >=
                   std::max(Size(Group[A]), Size(Group[B]));
    if (!Distinct)
      continue;
    int64_t Step = cast<SCEVConstant>(Key.second)->getAPInt().getSExtValue();
    Instruction *At = Group.back().Store->getNextNode();
    if (reorder(Group, Step, At, AA)) {
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Group.size()
                        << " updates reordered in " << BB.getName() << " of "
                        << BB.getParent()->getName() << "\n");
      ++NumReordered;
      Changed = true;
    }
  }
  return Changed;
}

} // namespace

PreservedAnalyses AccumulationOrderPass::run(Function &F,
                                             FunctionAnalysisManager &AM) {
  if (!F.hasFnAttribute(DerivativeAttr) || F.isDeclaration())
    return PreservedAnalyses::all();
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  BatchAAResults AA(AM.getResult<AAManager>(F));
  const DataLayout &DL = F.getDataLayout();
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      for (BasicBlock *BB : L->blocks())
        Changed |= reorderBlock(*BB, *L, SE, AA, DL);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace gpuad
