//===- SplitForm.cpp - Cutting a reverse derivative in two ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Reverse/SplitForm.h"

#include "Core/DerivativeSignature.h"
#include "Tape/TapePlacement.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace gpuad {

/// Whether \p V is stack memory, or an address computed from stack memory,
/// arguments and constants alone: a cast to a generic pointer (AMDGPU), a
/// GEP into a slot or an argument's memory, a width-N shadow's [N x ptr]
/// and its lanes.
/// The backward half recomputes such values from its own slots and
/// arguments: the tape must not keep addresses of stack memory, which the
/// backward half (and a caller's backward half, for pointer arguments)
/// allocates afresh.  Collects the slots into \p Slots and the
/// instructions, operands first, into \p Chain.
static bool collectStackDerived(Value *V, SetVector<AllocaInst *> &Slots,
                                SetVector<Instruction *> &Chain) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  if (auto *AI = dyn_cast<AllocaInst>(V)) {
    Slots.insert(AI);
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !(isa<AddrSpaceCastInst>(I) || isa<InsertValueInst>(I) ||
              isa<ExtractValueInst>(I) || isa<GetElementPtrInst>(I)))
    return false;
  if (Chain.count(I))
    return true;
  for (Value *Op : I->operands())
    if (!collectStackDerived(Op, Slots, Chain))
      return false;
  Chain.insert(I);
  return true;
}

SplitForm::SplitForm(Function &Combined, BranchInst &ForwardEnd, Value *Primal,
                     Value *Shadow)
    : C(Combined), ForwardEnd(ForwardEnd) {
  // Locals become SSA values, so everything that crosses from the forward
  // into the reverse sweep is a value the cut can see.
  WeakTrackingVH PrimalVH(Primal), ShadowVH(Shadow);
  SmallVector<AllocaInst *, 32> Promotable;
  for (Instruction &I : C.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
      Promotable.push_back(AI);
  if (!Promotable.empty()) {
    DominatorTree DT(C);
    PromoteMemToReg(Promotable, DT);
  }
  this->Primal = PrimalVH;
  this->Shadow = ShadowVH;

  // The forward sweep: what the entry reaches without the branch into the
  // reverse sweep (which never branches back).
  SmallVector<BasicBlock *, 32> Work = {&C.getEntryBlock()};
  ForwardBlocks.insert(&C.getEntryBlock());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == ForwardEnd.getParent())
      continue;
    for (BasicBlock *S : successors(BB))
      if (ForwardBlocks.insert(S).second)
        Work.push_back(S);
  }
  // What the reverse sweep uses of the forward sweep.  (It dominates the
  // branch: the reverse sweep is entered only there.)
  for (BasicBlock &BB : C)
    for (Instruction &I : BB)
      for (User *U : I.users())
        if (ForwardBlocks.count(&BB) &&
            !ForwardBlocks.count(cast<Instruction>(U)->getParent())) {
          SetVector<AllocaInst *> Slots;
          SetVector<Instruction *> Chain;
          if (!collectStackDerived(&I, Slots, Chain)) {
            Fields.insert(&I);
            break;
          }
          for (AllocaInst *AI : Slots) {
            Stack.insert(AI);
            if (!isa<Constant>(AI->getArraySize()) && !DynamicStack)
              DynamicStack = AI;
          }
          StackDerived.insert(Chain.begin(), Chain.end());
          break;
        }
  SmallVector<Type *, 16> Types;
  for (Instruction *I : Fields)
    Types.push_back(I->getType());
  // Tape regions travel by value, after the fields.
  for (AllocaInst *AI : Stack)
    if (isCarriedTapeRegion(*AI))
      Types.push_back(AI->getAllocatedType());
  TapeTy = StructType::get(C.getContext(), Types);
}

/// Clones \p From's body into \p To, parameter I to parameter I (parameters
/// \p To lacks become poison).
static void cloneBody(Function &From, Function &To, ValueToValueMapTy &VMap) {
  for (unsigned I = 0; I < From.arg_size(); ++I)
    VMap[From.getArg(I)] = I < To.arg_size()
                               ? static_cast<Value *>(To.getArg(I))
                               : PoisonValue::get(From.getArg(I)->getType());
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&To, &From, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
}

/// \p V in the clone (constants are themselves).
static Value *mapped(ValueToValueMapTy &VMap, Value *V) {
  return isa<Constant>(V) ? V : static_cast<Value *>(VMap[V]);
}

/// Deletes the blocks of \p F for which \p Drop holds.
static void dropBlocks(Function &F, function_ref<bool(BasicBlock &)> Drop) {
  SmallVector<BasicBlock *, 32> Dead;
  for (BasicBlock &BB : F)
    if (Drop(BB))
      Dead.push_back(&BB);
  for (BasicBlock *BB : Dead) {
    for (BasicBlock *S : successors(BB))
      if (!Drop(*S))
        S->removePredecessor(BB);
    BB->dropAllReferences();
  }
  for (BasicBlock *BB : Dead)
    BB->eraseFromParent();
}

void SplitForm::emitAugmented(Function &Aug, const DerivativeSignature &Sig,
                              bool Boxed, TargetHooks &Target) {
  ValueToValueMapTy VMap;
  cloneBody(C, Aug, VMap);
  auto *End = cast<BranchInst>(VMap[&ForwardEnd]);
  IRBuilder<> B(End);
  Value *Tape = PoisonValue::get(TapeTy);
  for (auto [K, I] : enumerate(Fields))
    Tape = B.CreateInsertValue(Tape, VMap[I], K);
  unsigned K = Fields.size();
  for (AllocaInst *AI : Stack)
    if (isCarriedTapeRegion(*AI))
      Tape = B.CreateInsertValue(
          Tape, B.CreateLoad(AI->getAllocatedType(), VMap[AI], "tape.region"),
          K++);
  if (Boxed) {
    const DataLayout &DL = Aug.getParent()->getDataLayout();
    Value *Box = Target.emitAlloc(B, B.getInt64(DL.getTypeAllocSize(TapeTy)));
    B.CreateStore(Tape, Box);
    Tape = Box;
  }
  if (Sig.SingleResult) {
    B.CreateRet(Tape);
  } else {
    Value *Result = PoisonValue::get(Sig.Type->getReturnType());
    Result = B.CreateInsertValue(Result, Tape, Sig.TapeField);
    if (Sig.PrimalField >= 0)
      Result =
          B.CreateInsertValue(Result, mapped(VMap, Primal), Sig.PrimalField);
    if (Sig.ShadowField >= 0)
      Result =
          B.CreateInsertValue(Result, mapped(VMap, Shadow), Sig.ShadowField);
    B.CreateRet(Result);
  }
  End->eraseFromParent();
  SmallPtrSet<const BasicBlock *, 32> Keep;
  for (const BasicBlock *BB : ForwardBlocks)
    Keep.insert(cast<BasicBlock>(VMap[BB]));
  dropBlocks(Aug, [&](BasicBlock &BB) { return !Keep.count(&BB); });
}

void SplitForm::emitBackward(Function &Bwd, const DerivativeSignature &Sig,
                             bool Boxed, TargetHooks &Target) {
  ValueToValueMapTy VMap;
  cloneBody(C, Bwd, VMap);
  BasicBlock *Entry =
      BasicBlock::Create(C.getContext(), "tape", &Bwd, &Bwd.getEntryBlock());
  IRBuilder<> B(Entry);
  Value *Tape = Bwd.getArg(Sig.TapeParam);
  if (Boxed) {
    Value *Box = Tape;
    Tape = B.CreateLoad(TapeTy, Box);
    Target.emitFree(B, Box);
  }
  for (auto [K, I] : enumerate(Fields))
    VMap[I]->replaceAllUsesWith(B.CreateExtractValue(Tape, K, I->getName()));
  // Stack memory: the reverse sweep only accumulates adjoints in it; or a
  // tape region, filled from the tape.
  const DataLayout &DL = Bwd.getParent()->getDataLayout();
  unsigned K = Fields.size();
  for (AllocaInst *AI : Stack) {
    auto *New = cast<AllocaInst>(AI->clone());
    B.Insert(New, AI->getName());
    if (isCarriedTapeRegion(*AI))
      B.CreateStore(B.CreateExtractValue(Tape, K++, "tape.region"), New);
    else if (std::optional<TypeSize> Size = New->getAllocationSize(DL))
      B.CreateMemSet(New, B.getInt8(0), B.getInt64(Size->getFixedValue()),
                     New->getAlign());
    VMap[AI]->replaceAllUsesWith(New);
  }
  // Values computed from stack memory alone, recomputed from the new slots.
  for (Instruction *I : StackDerived) {
    auto *New = cast<Instruction>(VMap[I]);
    New->removeFromParent();
    B.Insert(New, I->getName());
  }
  B.CreateBr(cast<BasicBlock>(VMap[ForwardEnd.getSuccessor(0)]));
  SmallPtrSet<const BasicBlock *, 32> Forward;
  for (const BasicBlock *BB : ForwardBlocks)
    Forward.insert(cast<BasicBlock>(VMap[BB]));
  dropBlocks(Bwd, [&](BasicBlock &BB) { return Forward.count(&BB); });
}

} // namespace gpuad
