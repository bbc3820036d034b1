//===- Adjoints.cpp - Adjoint accumulators of the reverse sweep -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Reverse/Adjoints.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// The empty sum for an accumulator of type \p Ty: -0.0 in floating-point
/// leaves, because -0.0 + x == x exactly, so the first contribution folds
/// into a copy (+0.0 + x does not, for x == -0.0).
static Constant *emptySum(Type *Ty) {
  if (Ty->isFPOrFPVectorTy())
    return ConstantFP::getNegativeZero(Ty);
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    SmallVector<Constant *, 4> Fields;
    for (Type *E : ST->elements())
      Fields.push_back(emptySum(E));
    return ConstantStruct::get(ST, Fields);
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return ConstantArray::get(
        AT, SmallVector<Constant *, 4>(AT->getNumElements(),
                                       emptySum(AT->getElementType())));
  return Constant::getNullValue(Ty);
}

AllocaInst *Adjoints::slot(Value *V) {
  AllocaInst *&S = Slots[V];
  if (!S) {
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
    Type *Ty = L.shadowType(V->getType());
    unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();
    S = EB.CreateAlloca(Ty, AS, nullptr, V->getName() + ".adj");
    EB.CreateStore(emptySum(Ty), S);
  }
  return S;
}

void Adjoints::add(IRBuilderBase &B, Value *V, Value *Delta) {
  if (!Delta)
    return;
  AllocaInst *S = slot(V);
  Value *Old = B.CreateLoad(S->getAllocatedType(), S);
  B.CreateStore(addAdjoints(B, Old, Delta, ViewOf(V)), S);
}

Value *Adjoints::take(IRBuilderBase &B, Value *V) {
  // Reverse blocks are emitted in an order where a value's users may come
  // after it (loops make that unavoidable), so the accumulator always
  // exists; SROA folds those never added to.
  AllocaInst *S = slot(V);
  Value *Sum = B.CreateLoad(S->getAllocatedType(), S, V->getName() + ".d");
  B.CreateStore(emptySum(S->getAllocatedType()), S);
  return Sum;
}

} // namespace gpuad
