//===- SplitForm.cpp - Cutting a reverse derivative in two ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Reverse/SplitForm.h"

#include "Support/DerivativeSignature.h"
#include "Support/ReturnedArguments.h"
#include "Tape/Tape.h"
#include "Tape/TapePlacement.h"
#include "Target/TargetHooks.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <functional>

using namespace llvm;

namespace gpuad {

namespace {
/// The stack allocations a value (a pointer, or an aggregate of them) may
/// point into, and whether it may point elsewhere too.
struct StackRoots {
  SmallSetVector<AllocaInst *, 2> Allocas;
  bool Other = false;
};

void findRoots(const Value *V, StackRoots &R,
               SmallPtrSetImpl<const Value *> &Seen);

/// The pointer a call returns (at \p Idx of a returned struct: an augmented
/// half's primal or shadow result) may be one it was given, or point into
/// one (a C++ accessor returning a reference to its argument).
void callRoots(const CallBase &Call, ArrayRef<unsigned> Idx, StackRoots &R,
               SmallPtrSetImpl<const Value *> &Seen) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee) {
    R.Other = true;
    return;
  }
  ReturnedArguments Returned = returnedArguments(*Callee, Idx);
  R.Other |= Returned.Other;
  for (unsigned K : Returned.Params.set_bits())
    if (K < Call.arg_size())
      findRoots(Call.getArgOperand(K), R, Seen);
}

void findRoots(const Value *V, StackRoots &R,
               SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return;
  if (auto *AI = dyn_cast<AllocaInst>(V)) {
    R.Allocas.insert(const_cast<AllocaInst *>(AI));
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(V)) {
    findRoots(GEP->getPointerOperand(), R, Seen);
  } else if (isa<BitCastInst>(V) || isa<AddrSpaceCastInst>(V) ||
             isa<IntToPtrInst>(V) || isa<PtrToIntInst>(V)) {
    findRoots(cast<Instruction>(V)->getOperand(0), R, Seen);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(V);
             BO && BO->getType()->isIntegerTy()) {
    // An address aligned by hand: `(p + 15) & ~15` on a pointer's bits
    // (Eigen's stack buffers from alloca).
    findRoots(BO->getOperand(0), R, Seen);
    findRoots(BO->getOperand(1), R, Seen);
  } else if (auto *PN = dyn_cast<PHINode>(V)) {
    for (const Value *In : PN->incoming_values())
      findRoots(In, R, Seen);
  } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
    findRoots(Sel->getTrueValue(), R, Seen);
    findRoots(Sel->getFalseValue(), R, Seen);
  } else if (auto *EV = dyn_cast<ExtractValueInst>(V)) {
    Value *Agg = const_cast<Value *>(EV->getAggregateOperand());
    if (Value *Leaf = FindInsertedValue(Agg, EV->getIndices()))
      return findRoots(Leaf, R, Seen);
    if (const auto *Call = dyn_cast<CallBase>(Agg);
        Call && V->getType()->isPointerTy())
      return callRoots(*Call, EV->getIndices(), R, Seen);
    R.Other = true; // some element of the aggregate: any of them
    findRoots(Agg, R, Seen);
  } else if (const auto *Call = dyn_cast<CallBase>(V);
             Call && V->getType()->isPointerTy()) {
    callRoots(*Call, {}, R, Seen);
  } else if (auto *IV = dyn_cast<InsertValueInst>(V)) {
    findRoots(IV->getAggregateOperand(), R, Seen);
    findRoots(IV->getInsertedValueOperand(), R, Seen);
  } else if (!isa<Constant>(V)) {
    R.Other = true;
  }
}
} // namespace

/// `{i64 which, i64 offset}`: a pointer into one of a few allocations.
static StructType *rebasedType(LLVMContext &C) {
  Type *I64 = Type::getInt64Ty(C);
  return StructType::get(C, {I64, I64});
}

static StackRoots stackRoots(const Value *V) {
  StackRoots R;
  SmallPtrSet<const Value *, 16> Seen;
  findRoots(V, R, Seen);
  return R;
}

SplitForm::SplitForm(Function &Combined, BranchInst &ForwardEnd, Value *Primal,
                     Value *Shadow, bool EscapedOnHeap)
    : C(Combined), ForwardEnd(ForwardEnd), HostHeap(EscapedOnHeap) {
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
  {
    // Blocks in loops: a variable-size allocation there is made again each
    // iteration, and cannot become one heap block.
    DominatorTree DT(C);
    LoopInfo LI(DT);
    for (BasicBlock &BB : C)
      if (LI.getLoopFor(&BB))
        InLoop.insert(&BB);
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
    if (ForwardBlocks.count(&BB))
      for (Instruction &I : BB)
        if (any_of(I.users(), [&](const User *U) {
              return !ForwardBlocks.count(cast<Instruction>(U)->getParent());
            }))
          addCrossing(I);
  // Values cached in loop frames travel as they are: what they point to
  // in the stack lives on the heap instead, until the backward half is done.
  for (const BasicBlock *BB : ForwardBlocks)
    for (const Instruction &I : *BB)
      if (auto *SI = dyn_cast<StoreInst>(&I);
          SI && SI->getMetadata(CachedStoreMD))
        keepOnHeap(stackRoots(SI->getValueOperand()).Allocas.getArrayRef(), I);
  // So does memory a pointer into the stack is stored in and handed to a
  // callee (whose tape may keep what it loads there), and what it points to.
  findStackPointersHandedToCallees();
  if (HostHeap)
    for (Instruction &I : C.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isHandedToCallee(*AI))
        keepOnHeap(AI, *AI);
  // Variable-size stack memory the reverse sweep addresses cannot be made
  // again in the backward half (its size is the augmented half's): on the
  // host it is the same heap block in both.
  if (HostHeap)
    for (AllocaInst *AI : Stack)
      if (!isa<Constant>(AI->getArraySize()))
        keepOnHeap(AI, *AI);
  for (AllocaInst *AI : Stack)
    if (!isa<Constant>(AI->getArraySize()) && !DynamicStack &&
        !OnHeap.count(AI))
      DynamicStack = AI;
  // A pointer into memory kept on the heap is the same in both halves.
  for (auto It = Rebased.begin(); It != Rebased.end();) {
    auto Cur = It++;
    if (all_of(Cur->second, [&](AllocaInst *AI) { return OnHeap.count(AI); }))
      Rebased.erase(Cur);
  }
  SmallVector<Type *, 16> Types;
  for (Instruction *I : Fields)
    Types.push_back(Rebased.count(I) ? rebasedType(C.getContext())
                                     : I->getType());
  // Tape regions travel by value, after the fields; then the frame kept
  // on the heap.
  for (AllocaInst *AI : Stack)
    if (isCarriedTapeRegion(*AI) && !OnHeap.count(AI))
      Types.push_back(AI->getAllocatedType());
  for (unsigned K = 0; K < OnHeap.size(); ++K)
    Types.push_back(PointerType::get(C.getContext(), 0));
  TapeTy = StructType::get(C.getContext(), Types);
}

/// Whether \p I computes an address from its operands alone (cheaply, and
/// the same in both halves given the same operands).
static bool buildsAddress(const Instruction &I) {
  if (!(isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
        isa<AddrSpaceCastInst>(I) || isa<InsertValueInst>(I) ||
        isa<ExtractValueInst>(I) || isa<SelectInst>(I)))
    return false;
  std::function<bool(Type *)> HoldsPointer = [&](Type *Ty) {
    return Ty->isPointerTy() || any_of(Ty->subtypes(), HoldsPointer);
  };
  return HoldsPointer(I.getType());
}

void SplitForm::addCrossing(Instruction &I) {
  // Stack memory: allocated again.
  if (auto *AI = dyn_cast<AllocaInst>(&I)) {
    Stack.insert(AI);
    return;
  }
  // An address built from stack memory, arguments and constants (with
  // indices and conditions taped) is built again from the backward half's
  // own: a pointer argument may point into the caller's stack, which the
  // caller's backward half allocates again too.
  if (buildsAddress(I)) {
    for (Value *Op : I.operands())
      if (auto *OpI = dyn_cast<Instruction>(Op);
          OpI && ForwardBlocks.count(OpI->getParent()) && !Rebuilt.count(OpI) &&
          !Fields.count(OpI) && !Stack.count(dyn_cast<AllocaInst>(OpI)))
        addCrossing(*OpI);
    Rebuilt.insert(&I); // after its operands
    return;
  }
  StackRoots R = stackRoots(&I);
  Fields.insert(&I);
  if (R.Allocas.empty())
    return;
  // Any other pointer that may point into the stack (a PHI of locals)
  // travels as (which allocation, offset), or as its address where it
  // points elsewhere.
  if (I.getType()->isPointerTy()) {
    Rebased[&I].assign(R.Allocas.begin(), R.Allocas.end());
    Stack.insert_range(R.Allocas);
  } else {
    keepOnHeap(R.Allocas.getArrayRef(), I);
  }
}

void SplitForm::keepOnHeap(ArrayRef<AllocaInst *> Allocas,
                           const Instruction &Why) {
  for (AllocaInst *AI : Allocas) {
    // Generic memory can move to the heap (not AMDGPU's private address
    // space); a variable-length array on the host, outside loops.
    bool Variable = !isa<Constant>(AI->getArraySize());
    if (AI->getAddressSpace() != 0 ||
        (Variable && (!HostHeap || InLoop.count(AI->getParent())))) {
      if (!LostStackPointer)
        LostStackPointer = &Why;
      continue;
    }
    OnHeap.insert(AI);
  }
}

bool SplitForm::isHandedToCallee(const AllocaInst &AI) const {
  SmallVector<const Value *, 8> Work = {&AI};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !ForwardBlocks.count(I->getParent()))
        continue;
      // (A width-N shadow travels as an [N x ptr] of its lanes.)
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode,
              SelectInst, InsertValueInst>(I))
        Work.push_back(I);
      else if (const auto *Call = dyn_cast<CallBase>(I);
               Call && !isa<IntrinsicInst>(Call) && Call->hasArgument(V))
        return true;
    }
  }
  return false;
}

void SplitForm::findStackPointersHandedToCallees() {
  // Stack memory that holds a pointer into this stack, and what it points
  // to ...
  DenseMap<const AllocaInst *, SmallSetVector<AllocaInst *, 2>> Held;
  for (const BasicBlock *BB : ForwardBlocks)
    for (const Instruction &I : *BB)
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        StackRoots Targets = stackRoots(SI->getValueOperand());
        if (Targets.Allocas.empty())
          continue;
        for (AllocaInst *AI : stackRoots(SI->getPointerOperand()).Allocas)
          Held[AI].insert_range(Targets.Allocas);
      }
  if (Held.empty())
    return;
  // ... whose address a callee receives: the callee may keep the pointer it
  // loads there on its own tape, for its backward half.  (So may a function
  // a runtime calls back with what it is given: an OpenMP fork's.)
  auto CallsBack = [](const CallBase &Call) {
    return any_of(Call.args(), [](const Use &A) {
      const auto *F = dyn_cast<Function>(A->stripPointerCasts());
      return F && !F->isDeclaration();
    });
  };
  for (const BasicBlock *BB : ForwardBlocks)
    for (const Instruction &I : *BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || (Callee->isDeclaration() && !CallsBack(*Call)))
        continue;
      for (const Value *A : Call->args())
        if (A->getType()->isPointerTy())
          for (AllocaInst *Holder : stackRoots(A).Allocas)
            if (auto It = Held.find(Holder); It != Held.end()) {
              SmallSetVector<AllocaInst *, 2> Both = It->second;
              Both.insert(Holder);
              keepOnHeap(Both.getArrayRef(), I);
            }
    }
}

/// \p V (an allocation, or an address of one) as a pointer of \p Ty.
static Value *castTo(IRBuilderBase &B, Value *V, Type *Ty) {
  return V->getType() == Ty ? V : B.CreateAddrSpaceCast(V, Ty);
}

/// \p Ptr as (which of \p Bases it points into, offset from it), or (-1,
/// address) where it points into none.  A pointer just past the end of one
/// allocation may be the start of the next: one inside an allocation takes
/// precedence.
static Value *rebase(IRBuilderBase &B, Value *Ptr, ArrayRef<Value *> Bases,
                     ArrayRef<uint64_t> Sizes) {
  Type *I64 = B.getInt64Ty();
  Value *Which = B.getInt64(-1);
  Value *Off = B.CreatePtrToInt(Ptr, I64);
  for (bool Inside : {false, true})
    for (unsigned K = 0; K < Bases.size(); ++K) {
      uint64_t Size = Sizes[K];
      Value *Rel = B.CreatePtrDiff(B.getInt8Ty(), Ptr,
                                   castTo(B, Bases[K], Ptr->getType()));
      Value *In = Inside ? B.CreateICmpULT(Rel, B.getInt64(Size))
                         : B.CreateICmpEQ(Rel, B.getInt64(Size));
      Which = B.CreateSelect(In, ConstantInt::get(I64, K), Which);
      Off = B.CreateSelect(In, Rel, Off);
    }
  Value *Pair = PoisonValue::get(rebasedType(B.getContext()));
  Pair = B.CreateInsertValue(Pair, Which, 0);
  return B.CreateInsertValue(Pair, Off, 1, "stack.offset");
}

/// The pointer \p Pair (from rebase) names among \p Bases, of type \p Ty.
static Value *unrebase(IRBuilderBase &B, Value *Pair, ArrayRef<Value *> Bases,
                       Type *Ty, const Twine &Name) {
  Value *Which = B.CreateExtractValue(Pair, 0);
  Value *Off = B.CreateExtractValue(Pair, 1);
  Value *Base = ConstantPointerNull::get(cast<PointerType>(Ty));
  for (unsigned K = 0; K < Bases.size(); ++K)
    Base = B.CreateSelect(B.CreateICmpEQ(Which, B.getInt64(K)),
                          castTo(B, Bases[K], Ty), Base);
  Value *InStack = B.CreateGEP(B.getInt8Ty(), Base, Off);
  return B.CreateSelect(B.CreateICmpSLT(Which, B.getInt64(0)),
                        B.CreateIntToPtr(Off, Ty), InStack, Name);
}

/// Clones \p From's body into \p To, parameter I to parameter I (parameters
/// \p To lacks become poison).
static void cloneBody(Function &From, Function &To, ValueToValueMapTy &VMap) {
  for (unsigned I = 0; I < From.arg_size(); ++I)
    VMap[From.getArg(I)] = I < To.arg_size()
                               ? static_cast<Value *>(To.getArg(I))
                               : PoisonValue::get(From.getArg(I)->getType());
  SmallVector<ReturnInst *, 4> Returns;
  CallingConv::ID Conv = To.getCallingConv();
  CloneFunctionInto(&To, &From, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  // The half keeps the convention it was declared with, which its callers
  // (itself, when recursive) were built with.
  To.setCallingConv(Conv);
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
  const DataLayout &DL = Aug.getParent()->getDataLayout();
  // The frame kept for the backward half: heap blocks for those allocas.
  DenseMap<AllocaInst *, Value *> Frame;
  {
    IRBuilder<> EB(Aug.getContext());
    for (AllocaInst *AI : OnHeap) {
      auto *Clone = cast<AllocaInst>(VMap[AI]);
      EB.SetInsertPoint(Clone);
      Value *Bytes =
          isa<Constant>(AI->getArraySize())
              ? EB.getInt64(AI->getAllocationSize(DL)->getFixedValue())
              : EB.CreateMul(
                    EB.CreateZExtOrTrunc(Clone->getArraySize(),
                                         EB.getInt64Ty()),
                    EB.getInt64(DL.getTypeAllocSize(AI->getAllocatedType())));
      Value *Block = Target.emitCheckedAlloc(EB, Bytes);
      Block->setName(AI->getName() + ".frame");
      Frame[AI] = Block;
      if (EB.GetInsertBlock() != &Aug.getEntryBlock()) {
        // Allocated on some paths only (Eigen's stack buffer, taken when
        // no buffer is given): the tape carries it through a slot, null
        // where it was not made.
        IRBuilder<> Entry(&*Aug.getEntryBlock().getFirstInsertionPt());
        AllocaInst *Slot = Entry.CreateAlloca(Block->getType(), nullptr,
                                              AI->getName() + ".frame.slot");
        Entry.CreateStore(Constant::getNullValue(Block->getType()), Slot);
        EB.CreateStore(Block, Slot);
        Frame[AI] = Slot;
      }
      Clone->replaceAllUsesWith(Block);
      Clone->eraseFromParent();
      VMap[AI] = Block;
    }
  }
  auto *End = cast<BranchInst>(VMap[&ForwardEnd]);
  IRBuilder<> B(End);
  for (auto &[AI, F] : Frame)
    if (auto *Slot = dyn_cast<AllocaInst>(F))
      F = B.CreateLoad(Slot->getAllocatedType(), Slot,
                       AI->getName() + ".frame");
  Value *Tape = PoisonValue::get(TapeTy);
  for (auto [K, I] : enumerate(Fields)) {
    Value *Field = VMap[I];
    if (auto It = Rebased.find(I); It != Rebased.end()) {
      SmallVector<Value *, 2> Bases;
      SmallVector<uint64_t, 2> Sizes;
      for (AllocaInst *AI : It->second) {
        Bases.push_back(VMap[AI]);
        Sizes.push_back(AI->getAllocationSize(DL)->getFixedValue());
      }
      Field = rebase(B, Field, Bases, Sizes);
    }
    Tape = B.CreateInsertValue(Tape, Field, K);
  }
  unsigned K = Fields.size();
  for (AllocaInst *AI : Stack)
    if (isCarriedTapeRegion(*AI) && !OnHeap.count(AI))
      Tape = B.CreateInsertValue(
          Tape, B.CreateLoad(AI->getAllocatedType(), VMap[AI], "tape.region"),
          K++);
  for (AllocaInst *AI : OnHeap)
    Tape = B.CreateInsertValue(Tape, Frame[AI], K++, "frame");
  if (Boxed) {
    Value *Box =
        Target.emitCheckedAlloc(B, B.getInt64(DL.getTypeAllocSize(TapeTy)));
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
  // Stack memory: the reverse sweep only accumulates adjoints in it; or a
  // tape region, filled from the tape.
  const DataLayout &DL = Bwd.getParent()->getDataLayout();
  unsigned K = Fields.size();
  DenseMap<AllocaInst *, Value *> NewStack;
  for (AllocaInst *AI : Stack) {
    if (OnHeap.count(AI))
      continue;
    auto *New = cast<AllocaInst>(AI->clone());
    B.Insert(New, AI->getName());
    if (isCarriedTapeRegion(*AI))
      B.CreateStore(B.CreateExtractValue(Tape, K++, "tape.region"), New);
    else if (std::optional<TypeSize> Size = New->getAllocationSize(DL))
      B.CreateMemSet(New, B.getInt8(0), B.getInt64(Size->getFixedValue()),
                     New->getAlign());
    VMap[AI]->replaceAllUsesWith(New);
    NewStack[AI] = New;
  }
  // The frame kept on the heap: the same memory, freed when done.
  SmallVector<Value *, 2> Frame;
  for (AllocaInst *AI : OnHeap) {
    Value *Block = B.CreateExtractValue(Tape, K++, "frame");
    VMap[AI]->replaceAllUsesWith(Block);
    NewStack[AI] = Block;
    Frame.push_back(Block);
  }
  // What the rebuilt addresses are made of, in the backward half.
  DenseMap<Value *, Value *> Now;
  for (auto [K, I] : enumerate(Fields)) {
    Value *Field = B.CreateExtractValue(Tape, K, I->getName());
    if (auto It = Rebased.find(I); It != Rebased.end()) {
      SmallVector<Value *, 2> Bases;
      for (AllocaInst *AI : It->second)
        Bases.push_back(NewStack[AI]);
      Field = unrebase(B, Field, Bases, I->getType(), I->getName());
    }
    VMap[I]->replaceAllUsesWith(Field);
    Now[I] = Field;
  }
  for (Instruction *Old : Rebuilt) {
    Instruction *New = Old->clone();
    for (Use &Op : New->operands()) {
      Value *V = Op.get();
      if (isa<Argument>(V))
        Op.set(VMap[V]);
      else if (auto *AI = dyn_cast<AllocaInst>(V))
        Op.set(NewStack[AI]);
      else if (Value *Known = Now.lookup(V))
        Op.set(Known);
    }
    B.Insert(New, Old->getName());
    VMap[Old]->replaceAllUsesWith(New);
    Now[Old] = New;
  }
  B.CreateBr(cast<BasicBlock>(VMap[ForwardEnd.getSuccessor(0)]));
  SmallPtrSet<const BasicBlock *, 32> Forward;
  for (const BasicBlock *BB : ForwardBlocks)
    Forward.insert(cast<BasicBlock>(VMap[BB]));
  dropBlocks(Bwd, [&](BasicBlock &BB) { return Forward.count(&BB); });
  if (!Frame.empty())
    for (BasicBlock &BB : Bwd)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        IRBuilder<> RB(Ret);
        for (Value *Block : Frame)
          Target.emitFree(RB, Block);
      }
}

} // namespace gpuad
