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
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "gpuad-accumulation-order"

using namespace llvm;

STATISTIC(NumReordered, "Loop blocks whose adjoint updates were reordered");
STATISTIC(NumForwarded,
          "Groups of adjoint updates carried in registers across iterations");

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

/// The positions of \p Group's updates, in iterations: the update at
/// position q reaches, in the next iteration, the address position q + 1
/// reached in this one.  Empty unless they are whole elements at whole
/// steps from each other, one update per position, with no position left
/// out.
SmallVector<Update *, 4> positions(SmallVectorImpl<Update> &Group, int64_t Step,
                                   const DataLayout &DL) {
  Type *Ty = Group.front().Store->getValueOperand()->getType();
  if (std::abs(Step) < int64_t(DL.getTypeStoreSize(Ty)))
    return {};
  int64_t Lowest = INT64_MAX;
  for (const Update &U : Group) {
    if (U.Store->getValueOperand()->getType() != Ty || U.Offset % Step)
      return {};
    Lowest = std::min(Lowest, U.Offset / Step);
  }
  SmallVector<Update *, 4> At(Group.size(), nullptr);
  for (Update &U : Group) {
    uint64_t Q = U.Offset / Step - Lowest;
    if (Q >= At.size() || At[Q])
      return {};
    At[Q] = &U;
  }
  return At;
}

/// Carries \p Group, updates of one buffer at constant distances in a loop
/// of one block, in registers from one iteration to the next (scalar
/// replacement): an address's first update loads it, its last stores it,
/// the ones between take the value the previous iteration computed.  The
/// addresses the loop starts with are loaded before it, the ones it leaves
/// unfinished stored after it.  Only where nothing else in the loop may
/// touch the buffer; each address gets the same additions in the same order.
bool forward(SmallVectorImpl<Update> &Group, int64_t Step, Loop &L,
             ScalarEvolution &SE, BatchAAResults &AA, const DataLayout &DL) {
  BasicBlock *Body = L.getHeader();
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  if (L.getNumBlocks() != 1 || !Preheader || !Exit ||
      Exit->getSinglePredecessor() != Body)
    return false;
  SmallVector<Update *, 4> At = positions(Group, Step, DL);
  if (At.empty())
    return false;
  SmallPtrSet<const Instruction *, 12> Own;
  for (const Update &U : Group)
    Own.insert({U.Load, U.Add, U.Store});
  auto Buffer = MemoryLocation::getBeforeOrAfter(
      Group.front().Store->getPointerOperand());
  for (Instruction &I : *Body)
    if (!Own.contains(&I) && I.mayReadOrWriteMemory() &&
        (I.isAtomic() || isModOrRefSet(AA.getModRefInfo(&I, Buffer))))
      return false;
  // Where each position but the last starts: loaded before the loop.
  SCEVExpander Expand(SE, "gpuad.acc");
  SmallVector<const SCEV *, 4> Starts;
  for (unsigned Q = 0; Q + 1 < At.size(); ++Q) {
    Starts.push_back(
        cast<SCEVAddRecExpr>(SE.getSCEV(At[Q]->Load->getPointerOperand()))
            ->getStart());
    if (!Expand.isSafeToExpand(Starts.back()))
      return false;
  }

  // Position q's old value: before the first iteration, what memory holds;
  // after, what position q + 1 computed.  The last position loads it.
  for (unsigned Q = 0; Q + 1 < At.size(); ++Q) {
    LoadInst *Old = At[Q]->Load;
    IRBuilder<> B(Preheader->getTerminator());
    Value *Address = Expand.expandCodeFor(
        Starts[Q], Old->getPointerOperandType(), &*B.GetInsertPoint());
    LoadInst *Initial = B.CreateAlignedLoad(Old->getType(), Address,
                                            Old->getAlign(), "gpuad.acc.first");
    Initial->setAAMetadata(Old->getAAMetadata());
    PHINode *Carried =
        PHINode::Create(Old->getType(), 2, "gpuad.acc", Body->begin());
    Carried->addIncoming(Initial, Preheader);
    Carried->addIncoming(At[Q + 1]->Add, Body);
    At[Q]->Add->replaceUsesOfWith(Old, Carried);
    Old->eraseFromParent();
  }
  // The first position finished its address; the others finish theirs
  // after the last iteration.
  IRBuilder<> B(&*Exit->getFirstInsertionPt());
  auto Leaving = [&](Value *V) -> Value * {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return V;
    PHINode *Out = PHINode::Create(V->getType(), 1, V->getName() + ".lcssa",
                                   Exit->begin());
    Out->addIncoming(V, Body);
    return Out;
  };
  for (unsigned Q = 1; Q < At.size(); ++Q) {
    StoreInst *Last = At[Q]->Store;
    StoreInst *Final = B.CreateAlignedStore(Leaving(At[Q]->Add),
                                            Leaving(Last->getPointerOperand()),
                                            Last->getAlign());
    Final->setAAMetadata(Last->getAAMetadata());
    Last->eraseFromParent();
  }
  SE.forgetLoop(&L);
  return true;
}

bool reorderBlock(BasicBlock &BB, Loop &L, ScalarEvolution &SE,
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
    if (forward(Group, Step, L, SE, AA, DL)) {
      LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": " << Group.size()
                        << " updates carried in registers in " << BB.getName()
                        << " of " << BB.getParent()->getName() << "\n");
      ++NumForwarded;
      Changed = true;
      continue;
    }
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
  // gpuad's loops are made after the simplification pipeline rotated the
  // user's: rotate them now (the pipeline does after this point anyway), so
  // that a loop's body is the one block that runs every iteration.
  FunctionPassManager Rotate;
  Rotate.addPass(createFunctionToLoopPassAdaptor(LoopRotatePass()));
  PreservedAnalyses Rotated = Rotate.run(F, AM);
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
    return Rotated;
  // Rotation already told the analysis manager what it changed.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  PA.intersect(Rotated);
  return PA;
}

} // namespace gpuad
