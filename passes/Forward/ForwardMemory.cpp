//===- ForwardMemory.cpp - Forward mode through memory --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Shadow memory in forward mode: every store to shadowed memory also stores
/// the value's tangent (zero for inactive values; the primal itself for
/// integers and for pointers without shadow, so shadow structures stay
/// well-formed), every load of an active value also loads its tangent.
/// Allocas and heap blocks in shadowed classes get zeroed shadow twins.
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TypeInfo.h"
#include "Core/DerivativeContext.h"
#include "Rules/DerivativeRules.h"
#include "Rules/KnownFunctions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

void ForwardEmitter::forEachLane(IRBuilder<> &B, Value *ShadowPtr,
                                 function_ref<void(Value *, unsigned)> Emit) {
  Type *PtrTy = ShadowPtr->getType();
  if (L.width() > 1)
    PtrTy = cast<ArrayType>(PtrTy)->getElementType();
  for (unsigned Lane = 0; Lane < L.width(); ++Lane)
    Emit(L.extract(B, ShadowPtr, PtrTy, Lane), Lane);
}

Value *ForwardEmitter::constantShadow(Constant *C, Instruction &At) {
  Type *Ty = C->getType();
  if (isa<ConstantPointerNull>(C))
    return L.zero(Ty);
  if (isa<UndefValue>(C))
    return PoisonValue::get(L.shadowType(Ty));
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->isConstant())
      return L.splat(B, Ctx.zeroShadowOf(*GV));
    fail(At, "global variable '" + GV->getName() +
                 "' would need a shadow to carry derivatives, and globals "
                 "have none; pass its data as an argument instead");
    return PoisonValue::get(L.shadowType(Ty));
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    // Rebuild the expression on the shadow of its pointer operands (the same
    // constant in every lane).
    SmallVector<Constant *, 4> Ops;
    for (Value *Op : CE->operands()) {
      auto *OpC = cast<Constant>(Op);
      if (!OpC->getType()->isPointerTy()) {
        Ops.push_back(OpC);
        continue;
      }
      Value *S = constantShadow(OpC, At);
      if (L.width() > 1)
        S = cast<Constant>(S)->getAggregateElement(0u);
      if (!isa<Constant>(S))
        return PoisonValue::get(L.shadowType(Ty));
      Ops.push_back(cast<Constant>(S));
    }
    return L.splat(B, CE->getWithOperands(Ops));
  }
  fail(At, "no shadow for constant '" + describe(*C) + "'");
  return PoisonValue::get(L.shadowType(Ty));
}

Value *ForwardEmitter::shadowPointer(Value *V, Instruction &At) {
  if (Value *S = tangent(V))
    return S;
  if (auto *C = dyn_cast<Constant>(V))
    return constantShadow(C, At);
  if (auto *A = dyn_cast<Argument>(V))
    fail(At, "argument '" + A->getName() +
                 "' is passed as enzyme_const but may point to memory that "
                 "carries derivatives; pass it with enzyme_dup and a shadow");
  else
    fail(At, "no shadow for pointer '" + describe(*V) + "'");
  return PoisonValue::get(L.shadowType(V->getType()));
}

void ForwardEmitter::visitAllocaInst(AllocaInst &I) {
  if (!hasShadow(&I))
    return;
  const DataLayout &DL = D.getParent()->getDataLayout();
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < L.width(); ++Lane) {
    auto *S = cast<AllocaInst>(I.clone());
    B.Insert(S, I.getName() + ".d");
    Lanes.push_back(S);
  }
  // Zero the shadow: reads of memory the primal never wrote see zero
  // derivatives, and partially written aggregates stay well-defined.
  Value *Size = B.getInt64(DL.getTypeAllocSize(I.getAllocatedType()));
  if (I.isArrayAllocation())
    Size = B.CreateMul(Size, B.CreateZExtOrTrunc(I.getArraySize(),
                                                 B.getInt64Ty()));
  for (Value *S : Lanes)
    B.CreateMemSet(S, B.getInt8(0), Size, I.getAlign());
  setShadow(&I, L.pack(B, I.getType(), Lanes));
}

void ForwardEmitter::visitLoadInst(LoadInst &I) {
  if (!hasShadow(&I))
    return;
  Value *Ptr = I.getPointerOperand();
  if (!needsShadow(Ptr)) {
    // Varied memory without shadow: a const argument the function wrote an
    // active value to (reported at the store).  Its derivative is zero.
    if (isData(&I))
      setShadow(&I, nullptr);
    else
      fail(I, "no shadow for the memory '" + describe(*Ptr) +
                  "' points to, which holds a pointer to differentiated data");
    return;
  }
  Value *SP = shadowPointer(Ptr, I);
  SmallVector<Value *, 4> Lanes;
  forEachLane(B, SP, [&](Value *LanePtr, unsigned) {
    auto *S = cast<LoadInst>(I.clone());
    S->setOperand(0, LanePtr);
    S->setMetadata(LLVMContext::MD_alias_scope, nullptr);
    S->setMetadata(LLVMContext::MD_noalias, nullptr);
    S->setMetadata(LLVMContext::MD_range, nullptr);
    S->setMetadata(LLVMContext::MD_nonnull, nullptr);
    Lanes.push_back(B.Insert(S, I.getName() + ".d"));
  });
  setShadow(&I, L.pack(B, I.getType(), Lanes));
}

void ForwardEmitter::visitStoreInst(StoreInst &I) {
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValueOperand();
  if (!needsShadow(Ptr)) {
    int C = classOf(Ptr);
    bool Varied = isData(Val) && isVaried(Val);
    if (C == -1 || !Varied)
      return;
    unsigned Origins = Act->classes().origins(C);
    if ((Origins & OriginConstArg) && Act->isUsefulMemory(C))
      Ctx.diags().warning(*Key.Fn, I.getDebugLoc(),
                          "the derivative of a value stored through '" +
                              describe(*Ptr) +
                              "' is dropped: that memory belongs to an "
                              "argument passed as enzyme_const");
    // A global has no shadow; if anything may read the value back (a load
    // here, or any call), its derivative would silently vanish.
    if ((Origins & OriginGlobal) && mayReadBack(C))
      fail(I, "an active value is stored to global memory ('" +
                  describe(*Ptr) +
                  "'), which has no shadow, and may be read back; pass the "
                  "data as an argument instead");
    return;
  }
  // Integers are stored as they are, so shadow structures keep their sizes
  // and counts; float data stores its tangent; pointers their shadow.
  Value *ShadowVal = isInteger(Val) ? L.splat(B, Val) : shadowOperand(Val, I);
  if (Val->getType()->isAggregateType())
    ShadowVal = L.map(B, Val->getType(), {ShadowVal}, {Val->getType()},
                      [&](ArrayRef<Value *> Lane, unsigned) {
                        return withPrimalIntegers(Lane[0], Val, {});
                      });
  Value *SP = shadowPointer(Ptr, I);
  Type *ValTy = Val->getType();
  forEachLane(B, SP, [&](Value *LanePtr, unsigned Lane) {
    auto *S = cast<StoreInst>(I.clone());
    S->setOperand(0, L.extract(B, ShadowVal, ValTy, Lane));
    S->setOperand(1, LanePtr);
    S->setMetadata(LLVMContext::MD_alias_scope, nullptr);
    S->setMetadata(LLVMContext::MD_noalias, nullptr);
    B.Insert(S);
  });
}

Value *ForwardEmitter::withPrimalIntegers(Value *Shadow, Value *Primal,
                                          SmallVector<unsigned, 4> Path) {
  Type *Ty = ExtractValueInst::getIndexedType(Primal->getType(), Path);
  unsigned N = 0;
  if (auto *ST = dyn_cast<StructType>(Ty))
    N = ST->getNumElements();
  else if (auto *AT = dyn_cast<ArrayType>(Ty))
    N = AT->getNumElements();
  else if (Ty->isIntegerTy() && !Path.empty())
    return B.CreateInsertValue(Shadow, B.CreateExtractValue(Primal, Path), Path);
  for (unsigned K = 0; K < N; ++K) {
    SmallVector<unsigned, 4> Sub = Path;
    Sub.push_back(K);
    Shadow = withPrimalIntegers(Shadow, Primal, Sub);
  }
  return Shadow;
}

bool ForwardEmitter::mayReadBack(int Class) const {
  if (Act->isUsefulMemory(Class))
    return true;
  for (const BasicBlock &BB : D)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (!Act->isInactiveCall(*Call) && !isa<IntrinsicInst>(Call) &&
            !findRule(*Call) && !classifyHeapCall(*Call))
          return true;
  return false;
}

void ForwardEmitter::visitAtomicRMWInst(AtomicRMWInst &I) {
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValOperand();
  bool Involved = hasShadow(&I) || hasShadow(Val);
  if (!needsShadow(Ptr) || !Involved)
    return;
  switch (I.getOperation()) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
  case AtomicRMWInst::Xchg:
    break;
  default:
    return fail(I, "cannot differentiate atomic '" + describe(I) +
                       "' on differentiated memory (only fadd, fsub and xchg "
                       "have derivatives)");
  }
  Value *ShadowVal = shadowOperand(Val, I);
  Value *SP = shadowPointer(Ptr, I);
  SmallVector<Value *, 4> Lanes;
  forEachLane(B, SP, [&](Value *LanePtr, unsigned Lane) {
    auto *S = cast<AtomicRMWInst>(I.clone());
    S->setOperand(0, LanePtr);
    S->setOperand(1, L.extract(B, ShadowVal, Val->getType(), Lane));
    Lanes.push_back(B.Insert(S));
  });
  setShadow(&I, L.pack(B, I.getType(), Lanes));
}

void ForwardEmitter::visitAtomicCmpXchgInst(AtomicCmpXchgInst &I) {
  if (needsShadow(I.getPointerOperand()) &&
      (hasShadow(I.getNewValOperand()) || hasShadow(I.getCompareOperand())))
    fail(I, "cannot differentiate compare-and-swap on differentiated memory "
            "('" + describe(I) + "')");
}

void ForwardEmitter::emitMemTransfer(CallBase &Call) {
  auto &MT = cast<MemTransferInst>(Call);
  Value *Dst = MT.getRawDest();
  if (!needsShadow(Dst))
    return;
  Value *DstShadow = shadowPointer(Dst, Call);
  bool SrcShadowed = needsShadow(MT.getRawSource());
  Value *SrcShadow =
      SrcShadowed ? shadowPointer(MT.getRawSource(), Call) : nullptr;
  Type *PtrTy = MT.getRawSource()->getType();
  forEachLane(B, DstShadow, [&](Value *LaneDst, unsigned Lane) {
    if (SrcShadowed) {
      auto *S = cast<CallBase>(Call.clone());
      S->setArgOperand(0, LaneDst);
      S->setArgOperand(1, L.extract(B, SrcShadow, PtrTy, Lane));
      B.Insert(S);
    } else {
      // Copying inactive data: its derivative is zero.
      B.CreateMemSet(LaneDst, B.getInt8(0), MT.getLength(), MT.getDestAlign(),
                     MT.isVolatile());
    }
  });
}

void ForwardEmitter::emitMemSet(CallBase &Call) {
  auto &MS = cast<MemSetInst>(Call);
  Value *Dst = MS.getRawDest();
  if (!needsShadow(Dst))
    return;
  forEachLane(B, shadowPointer(Dst, Call), [&](Value *LaneDst, unsigned) {
    B.CreateMemSet(LaneDst, B.getInt8(0), MS.getLength(), MS.getDestAlign(),
                   MS.isVolatile());
  });
}

} // namespace gpuad
