//===- TargetHooks.cpp - Target hooks factory -----------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Target/TargetHooks.h"
#include "Support/FunctionAttributes.h"

#include "Target/Targets.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <functional>

using namespace llvm;

namespace gpuad {

MathProvider::~MathProvider() = default;
TargetHooks::~TargetHooks() = default;

Value *TargetHooks::emitAlloc(IRBuilderBase &B, Value *Bytes) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Malloc = M.getOrInsertFunction(
      "malloc", PointerType::get(M.getContext(), 0), B.getInt64Ty());
  return B.CreateCall(Malloc, {Bytes}, "tape");
}

void TargetHooks::emitFree(IRBuilderBase &B, Value *Ptr) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Free =
      M.getOrInsertFunction("free", Type::getVoidTy(M.getContext()),
                            PointerType::get(M.getContext(), 0));
  B.CreateCall(Free, {Ptr});
}

Value *TargetHooks::emitReadLane(IRBuilderBase &B, Value *V, Value *Lane,
                                 Value *Mask) {
  // The target reads 32- and 64-bit words; others travel as integers.
  Type *Ty = V->getType();
  if (Ty->isFloatTy() || Ty->isDoubleTy() || Ty->isIntegerTy(32) ||
      Ty->isIntegerTy(64))
    return emitReadLaneWord(B, V, Lane, Mask);
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  unsigned Bits = DL.getTypeSizeInBits(Ty);
  Type *Word = Bits > 32 ? B.getInt64Ty() : B.getInt32Ty();
  Type *Same = B.getIntNTy(Bits);
  Value *AsInt =
      Ty->isPointerTy() ? B.CreatePtrToInt(V, Same) : B.CreateBitCast(V, Same);
  Value *Read = emitReadLaneWord(B, B.CreateZExt(AsInt, Word), Lane, Mask);
  Value *Back = B.CreateTrunc(Read, Same);
  return Ty->isPointerTy() ? B.CreateIntToPtr(Back, Ty)
                           : B.CreateBitCast(Back, Ty);
}

Value *TargetHooks::emitGlobalThreadId(IRBuilderBase &B) {
  Value *Threads = B.CreateZExt(emitBlockThreadCount(B), B.getInt64Ty());
  Value *Local = B.CreateZExt(emitLinearThreadId(B), B.getInt64Ty());
  return B.CreateAdd(B.CreateMul(emitLinearBlockId(B), Threads), Local, "gtid");
}

void TargetHooks::emitTrap(IRBuilderBase &B, StringRef Message) {
  if (printIsCheap())
    emitPrint(B, Message);
  B.CreateIntrinsic(Intrinsic::trap, {});
}

Value *TargetHooks::emitCheckedAlloc(IRBuilderBase &B, Value *Bytes) {
  if (!isGPU())
    return emitAlloc(B, Bytes);
  Function &User = *B.GetInsertBlock()->getParent();
  Module &M = *User.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  StringRef Name = "gpuad.heap.alloc";
  Function *F = M.getFunction(Name);
  if (!F) {
    F = Function::Create(FunctionType::get(Ptr, {I64}, false),
                         GlobalValue::InternalLinkage, Name, M);
    copyFunctionAttributes(User, *F);
    auto *Entry = BasicBlock::Create(C, "entry", F);
    auto *Full = BasicBlock::Create(C, "exhausted", F);
    auto *Done = BasicBlock::Create(C, "done", F);
    IRBuilder<> HB(Entry);
    Value *P = emitAlloc(HB, F->getArg(0));
    HB.CreateCondBr(HB.CreateIsNull(P), Full, Done);
    HB.SetInsertPoint(Full);
    // The heap's callers pay for a printf anyway.
    emitPrint(HB, ("gpuad: the device heap is exhausted (a gradient's tape or "
                   "shadow memory): " +
                   heapLimitAdvice() +
                   ", or give the tapes a pool (gpuad::setTapePool, "
                   "<gpuad/tape_pool.h>)")
                      .str());
    HB.CreateIntrinsic(Intrinsic::trap, {});
    HB.CreateUnreachable();
    HB.SetInsertPoint(Done);
    HB.CreateRet(P);
  }
  return B.CreateCall(F, {Bytes}, "heap");
}

Value *TargetHooks::emitUsableSize(IRBuilderBase &B, Value *Ptr) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Usable =
      M.getOrInsertFunction("malloc_usable_size", B.getInt64Ty(),
                            PointerType::get(M.getContext(), 0));
  return B.CreateCall(Usable, {Ptr}, "usable");
}

/// Whether \p V may be the same in every lane: no value it is computed
/// from -- through operands, loads' addresses and PHIs, however deep -- is
/// a thread id.  Calls other than the id reads end the search, and so does
/// a budget of values (then it may be).  Aggregation checks at run time
/// that it is; an address gathered through a thread's own index (a lookup
/// table, a material, a node list) does not pay for that check.
static bool mayBeWarpUniform(const Value *V, const TargetHooks &T) {
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<const Value *, 32> Work{V};
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (Seen.size() > 512)
      return true;
    if (const auto *Call = dyn_cast<CallBase>(X)) {
      if (T.classifyGridValue(*Call) == TargetHooks::GridValue::ThreadIdX)
        return false;
      continue;
    }
    if (const auto *I = dyn_cast<Instruction>(X))
      append_range(Work, I->operands());
  }
  return true;
}

void TargetHooks::emitWarpAggregatedAdd(IRBuilderBase &B, Value *P, Value *V,
                                        SyncScope::ID Scope) {
  Value *Whole = emitWholeWarpActive(B);
  if (!Whole) {
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, P, V, MaybeAlign(),
                      AtomicOrdering::Monotonic, Scope);
    return;
  }
  // if (whole warp && same address in all lanes) { s = warp sum;
  //   if (lane 0) atomic(s) } else atomic(v)
  LLVMContext &C = B.getContext();
  BasicBlock *Cur = B.GetInsertBlock();
  Function *F = Cur->getParent();
  BasicBlock *Done;
  if (B.GetInsertPoint() == Cur->end()) {
    Done = BasicBlock::Create(C, "gpuad.acc.done", F);
  } else {
    Done = Cur->splitBasicBlock(B.GetInsertPoint(), "gpuad.acc.done");
    Cur->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Cur);
  }
  BasicBlock *Check = BasicBlock::Create(C, "gpuad.acc.check", F, Done);
  BasicBlock *Warp = BasicBlock::Create(C, "gpuad.acc.warp", F, Done);
  BasicBlock *Leader = BasicBlock::Create(C, "gpuad.acc.leader", F, Done);
  BasicBlock *Each = BasicBlock::Create(C, "gpuad.acc.each", F, Done);
  B.CreateCondBr(Whole, Check, Each);
  B.SetInsertPoint(Check);
  B.CreateCondBr(emitWarpAllSame(B, B.CreatePtrToInt(P, B.getInt64Ty())), Warp,
                 Each);
  B.SetInsertPoint(Warp);
  Value *Sum = emitWarpSum(B, V);
  B.CreateCondBr(emitIsWarpLeader(B), Leader, Done);
  for (auto [BB, X] :
       {std::pair<BasicBlock *, Value *>{Leader, Sum}, {Each, V}}) {
    B.SetInsertPoint(BB);
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, P, X, MaybeAlign(),
                      AtomicOrdering::Monotonic, Scope);
    B.CreateBr(Done);
  }
  B.SetInsertPoint(Done, Done->begin());
}

void TargetHooks::emitAccumulate(IRBuilderBase &B, Value *Ptr, Value *Delta,
                                 MaybeAlign Alignment, bool ThreadPrivate,
                                 const Value *Origin) {
  Type *Ty = Delta->getType();
  if (ThreadPrivate) {
    Value *Old = B.CreateAlignedLoad(Ty, Ptr, Alignment);
    B.CreateAlignedStore(addAdjoints(B, Old, Delta), Ptr, Alignment);
    return;
  }
  // One atomic add per scalar, at the narrowest scope that sees the memory.
  const auto *Object = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  SyncScope::ID Scope = B.getContext().getOrInsertSyncScopeID(
      Object && isBlockShared(*Object) ? blockScope() : deviceScope());
  // (Host threads of an OpenMP team have no warps.)
  bool Aggregate = isGPU() && mayBeWarpUniform(Origin ? Origin : Ptr, *this);
  std::function<void(Value *, Value *)> Add = [&](Value *P, Value *V) {
    Type *VT = V->getType();
    if (VT->isFloatingPointTy()) {
      if (Aggregate)
        return emitWarpAggregatedAdd(B, P, V, Scope);
      B.CreateAtomicRMW(AtomicRMWInst::FAdd, P, V, MaybeAlign(),
                        AtomicOrdering::Monotonic, Scope);
      return;
    }
    const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
    if (auto *VecTy = dyn_cast<FixedVectorType>(VT)) {
      uint64_t Size = DL.getTypeAllocSize(VecTy->getElementType());
      for (unsigned I = 0; I < VecTy->getNumElements(); ++I)
        Add(B.CreateConstGEP1_64(B.getInt8Ty(), P, I * Size),
            B.CreateExtractElement(V, B.getInt32(I)));
      return;
    }
    if (auto *ST = dyn_cast<StructType>(VT)) {
      const StructLayout *SL = DL.getStructLayout(ST);
      for (unsigned I = 0; I < ST->getNumElements(); ++I)
        Add(B.CreateConstGEP1_64(B.getInt8Ty(), P, SL->getElementOffset(I)),
            B.CreateExtractValue(V, I));
      return;
    }
    if (auto *AT = dyn_cast<ArrayType>(VT)) {
      uint64_t Size = DL.getTypeAllocSize(AT->getElementType());
      for (unsigned I = 0; I < AT->getNumElements(); ++I)
        Add(B.CreateConstGEP1_64(B.getInt8Ty(), P, I * Size),
            B.CreateExtractValue(V, I));
      return;
    }
    // Integers holding float bits: reinterpret.
    if (VT->isIntegerTy(64) || VT->isIntegerTy(32))
      return Add(P, B.CreateBitCast(V, VT->isIntegerTy(64) ? B.getDoubleTy()
                                                           : B.getFloatTy()));
  };
  Add(Ptr, Delta);
}

void TargetHooks::emitBlockBarrier(IRBuilderBase &B, const CallBase &Like) {
  B.Insert(Like.clone());
}

std::unique_ptr<TargetHooks>
makeTargetHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags) {
  const Triple &T = M.getTargetTriple();
  if (T.isNVPTX())
    return makeNVPTXHooks(M, Options, Diags);
  if (T.isAMDGPU())
    return makeAMDGPUHooks(M, Options, Diags);
  return makeHostHooks(M);
}

Value *emitScalarized(IRBuilderBase &B, ArrayRef<Value *> Args,
                      function_ref<Value *(ArrayRef<Value *>)> EmitScalar) {
  auto *VecTy = dyn_cast<FixedVectorType>(Args[0]->getType());
  if (!VecTy)
    return EmitScalar(Args);
  Value *Result = PoisonValue::get(VecTy);
  SmallVector<Value *, 3> Lane(Args.size());
  for (unsigned I = 0, E = VecTy->getNumElements(); I < E; ++I) {
    for (unsigned A = 0; A < Args.size(); ++A)
      Lane[A] = Args[A]->getType()->isVectorTy()
                    ? B.CreateExtractElement(Args[A], B.getInt32(I))
                    : Args[A];
    Result = B.CreateInsertElement(Result, EmitScalar(Lane), B.getInt32(I));
  }
  return Result;
}

bool calleeHasPrefix(const CallBase &Call, ArrayRef<StringRef> Prefixes) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  return any_of(Prefixes, [&](StringRef P) { return Name.starts_with(P); });
}

Value *
callLibraryMath(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args,
                StringRef Name,
                function_ref<Function *(StringRef, FunctionType *)> Get) {
  Type *Ty = Args[0]->getType();
  SmallVector<Type *, 2> Params = {Ty};
  SmallVector<Value *, 2> CallArgs = {Args[0]};
  if (Fn == MathFn::Pow || Fn == MathFn::Atan2) {
    Params.push_back(Ty);
    CallArgs.push_back(Args[1]);
  } else if (Fn == MathFn::Powi) {
    Params.push_back(B.getInt32Ty());
    CallArgs.push_back(B.CreateSExtOrTrunc(Args[1], B.getInt32Ty()));
  }
  Function *F = Get(Name, FunctionType::get(Ty, Params, false));
  CallInst *Call = B.CreateCall(F, CallArgs);
  Call->setCallingConv(F->getCallingConv());
  return Call;
}

} // namespace gpuad
