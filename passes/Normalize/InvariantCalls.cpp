//===- InvariantCalls.cpp - Pure calls hoisted out of loops ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/InvariantCalls.h"

#include "Rules/CallTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace gpuad {

namespace {

/// How deep purity is checked through calls.
constexpr unsigned MaxDepth = 4;

/// Memory a pure function may read: its locals, what its pointer
/// arguments reach, constant globals.
bool isReadableByPure(const Value *Ptr) {
  const Value *U = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (isa<AllocaInst>(U) || isa<Argument>(U))
    return true;
  const auto *G = dyn_cast<GlobalVariable>(U);
  return G && G->isConstant();
}

/// Which functions are pure (see InvariantCalls.h), checked in their
/// normalised form and remembered.
class Purity {
public:
  Purity(const CallTable &Calls,
         function_ref<Function &(Function &)> Normalized)
      : Calls(Calls), Normalized(Normalized) {}

  bool isPureCall(const CallBase &CB, unsigned Depth = 0) {
    if (CB.isConvergent() || isa<InvokeInst>(CB))
      return false;
    if (const auto *II = dyn_cast<IntrinsicInst>(&CB)) {
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
          II->getIntrinsicID() == Intrinsic::assume)
        return true;
      if (const auto *MI = dyn_cast<MemIntrinsic>(II))
        return isa<AllocaInst>(getUnderlyingObject(MI->getDest(), 0)) &&
               (!isa<MemTransferInst>(MI) ||
                isReadableByPure(cast<MemTransferInst>(MI)->getSource()));
      return !II->mayWriteToMemory() && pointerArgumentsReadable(CB);
    }
    Function *Callee = CB.getCalledFunction();
    if (!Callee || Callee->isVarArg())
      return false;
    if (Callee->isDeclaration())
      // A math function of the rule table, with no pointer to write through.
      return Calls.classify(CB).Scalar && none_of(CB.args(), [](const Use &A) {
               return A->getType()->isPointerTy();
             });
    return Depth < MaxDepth && pointerArgumentsReadable(CB) &&
           isPureFunction(*Callee, Depth + 1);
  }

private:
  const CallTable &Calls;
  bool pointerArgumentsReadable(const CallBase &CB) {
    return all_of(CB.args(), [](const Use &A) {
      return !A->getType()->isPointerTy() || isReadableByPure(A.get());
    });
  }

  bool isPureFunction(Function &Orig, unsigned Depth) {
    auto [It, New] = Memo.try_emplace(&Orig, false); // false while checking
    if (!New)
      return It->second;
    bool Pure = true;
    for (const Instruction &I : instructions(Normalized(Orig))) {
      if (I.isAtomic() || I.isVolatile() || isa<FenceInst>(I)) {
        Pure = false;
      } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        Pure = isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand(), 0));
      } else if (const auto *LI = dyn_cast<LoadInst>(&I)) {
        Pure = isReadableByPure(LI->getPointerOperand());
      } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
        Pure = isPureCall(*CB, Depth);
      } else {
        Pure = !I.mayWriteToMemory();
      }
      if (!Pure)
        break;
    }
    Memo[&Orig] = Pure;
    return Pure;
  }

  function_ref<Function &(Function &)> Normalized;
  DenseMap<const Function *, bool> Memo;
};

/// Where a hoisted call goes: the preheader, guarded by the header's test
/// when the loop can leave before the call.
struct Placement {
  CallInst *Call = nullptr;
  Loop *L = nullptr;
  bool Guarded = false;
};

/// Whether \p Call, in loop \p L, may move out of it (see InvariantCalls.h).
std::optional<Placement> placementOf(CallInst &Call, LoopInfo &LI,
                                     DominatorTree &DT, AAResults &AA,
                                     Purity &P) {
  Loop *L = LI.getLoopFor(Call.getParent());
  if (!L || !L->getLoopPreheader() || !L->getLoopLatch())
    return std::nullopt;
  if (isa<IntrinsicInst>(Call) || Call.getType()->isVoidTy() ||
      !all_of(Call.args(),
              [&](const Use &A) { return L->isLoopInvariant(A.get()); }) ||
      !P.isPureCall(Call))
    return std::nullopt;
  // Nothing the loop writes may change what the call reads.
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      if (&I == &Call || !I.mayWriteToMemory())
        continue;
      if (const auto *CB = dyn_cast<CallBase>(&I); CB && P.isPureCall(*CB))
        continue;
      for (const Use &A : Call.args())
        if (A->getType()->isPointerTy() &&
            isModSet(AA.getModRefInfo(
                &I, MemoryLocation::getBeforeOrAfter(A.get()))))
          return std::nullopt;
    }
  // The call runs in the first iteration whenever the loop is entered,
  // except where the header's test leaves first.
  BasicBlock *Block = Call.getParent(), *Header = L->getHeader();
  if (!DT.dominates(Block, L->getLoopLatch()))
    return std::nullopt;
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  bool Guarded = false;
  for (BasicBlock *E : Exiting) {
    if (DT.dominates(Block, E))
      continue;
    auto *Br = dyn_cast<BranchInst>(E->getTerminator());
    if (E != Header || !Br || !Br->isConditional())
      return std::nullopt;
    Guarded = true;
  }
  return Placement{&Call, L, Guarded};
}

/// The header's test of \p L as it comes out on entry to the loop, computed
/// before \p Before (PHIs replaced by their preheader values); null if the
/// test reads something that cannot be computed there.
Value *entryTest(Loop &L, Instruction *Before) {
  BasicBlock *Header = L.getHeader(), *Preheader = L.getLoopPreheader();
  auto *Br = cast<BranchInst>(Header->getTerminator());
  // The header's instructions the test depends on, in order.
  SetVector<Instruction *> Chain;
  SmallVector<Instruction *, 8> Work;
  if (auto *I = dyn_cast<Instruction>(Br->getCondition()))
    Work.push_back(I);
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (I->getParent() != Header || isa<PHINode>(I) || !Chain.insert(I))
      continue;
    if (I->mayHaveSideEffects() || isa<CallBase>(I))
      return nullptr;
    for (Value *Op : I->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op))
        Work.push_back(OpI);
  }
  ValueToValueMapTy VMap;
  for (PHINode &Phi : Header->phis())
    VMap[&Phi] = Phi.getIncomingValueForBlock(Preheader);
  Value *Test = Br->getCondition();
  for (Instruction &I : *Header) {
    if (!Chain.count(&I))
      continue;
    Instruction *Copy = I.clone();
    Copy->insertBefore(Before->getIterator());
    RemapInstruction(Copy, VMap,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    VMap[&I] = Copy;
  }
  if (Value *Copy = VMap.lookup(Test))
    Test = Copy;
  IRBuilder<> B(Before);
  // The loop goes on (to the call) on the test's successor inside it.
  return L.contains(Br->getSuccessor(0)) ? Test : B.CreateNot(Test);
}

/// Moves the call of \p Pl to the loop's preheader (under the entry test
/// if guarded).  False if the entry test could not be computed.
bool hoist(const Placement &Pl) {
  CallInst &Call = *Pl.Call;
  Instruction *Term = Pl.L->getLoopPreheader()->getTerminator();
  if (!Pl.Guarded) {
    Call.moveBefore(Term->getIterator());
    return true;
  }
  Value *Test = entryTest(*Pl.L, Term);
  if (!Test)
    return false;
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Test, Term, false);
  BasicBlock *Then = ThenTerm->getParent();
  BasicBlock *Head = Then->getSinglePredecessor();
  Then->setName(Call.getName() + ".once.call");
  Term->getParent()->setName(Call.getName() + ".once.join");
  Call.moveBefore(ThenTerm->getIterator());
  PHINode *Phi = PHINode::Create(Call.getType(), 2, Call.getName() + ".once");
  Phi->insertBefore(Term->getParent()->begin());
  Call.replaceAllUsesWith(Phi);
  Phi->addIncoming(&Call, Then);
  Phi->addIncoming(PoisonValue::get(Call.getType()), Head);
  return true;
}

} // namespace

bool hoistInvariantCalls(Function &F, FunctionAnalysisManager &FAM,
                         const CallTable &Calls,
                         function_ref<Function &(Function &)> Normalized) {
  Purity P(Calls, Normalized);
  SmallPtrSet<const CallInst *, 4> Kept; // whose entry test cannot be built
  bool Changed = false;
  // One call per round: each move changes the loops' preheaders.
  for (unsigned Round = 0; Round < 16; ++Round) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &AA = FAM.getResult<AAManager>(F);
    std::optional<Placement> Pl;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && !Kept.count(Call))
        if ((Pl = placementOf(*Call, LI, DT, AA, P)))
          break;
    if (!Pl)
      break;
    if (!hoist(*Pl)) {
      Kept.insert(Pl->Call);
      continue;
    }
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Changed;
}

} // namespace gpuad
