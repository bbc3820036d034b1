//===- ResultPacking.cpp - Results in the type a call declares ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/ResultPacking.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

void flattenType(Type *Ty, SmallVectorImpl<Type *> &Out) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (Type *E : ST->elements())
      flattenType(E, Out);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      flattenType(AT->getElementType(), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(VT->getElementType());
  } else {
    Out.push_back(Ty);
  }
}

void flattenValue(IRBuilderBase &B, Value *V, SmallVectorImpl<Value *> &Out) {
  Type *Ty = V->getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      flattenValue(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      flattenValue(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(B.CreateExtractElement(V, B.getInt32(I)));
  } else {
    Out.push_back(V);
  }
}

/// Whether \p Ptr is a local nothing reads: only stored to, or handed to
/// lifetime and debug intrinsics.  (At -O0 clang stores a request's result
/// into the variable it initialises even when the program never reads it;
/// at -O2 that store is gone.)
static bool isWriteOnlyLocal(const Value *Ptr) {
  if (!isa<AllocaInst>(Ptr))
    return false;
  return all_of(Ptr->users(), [&](const User *U) {
    if (const auto *SI = dyn_cast<StoreInst>(U))
      return SI->getPointerOperand() == Ptr && SI->getValueOperand() != Ptr;
    if (const auto *II = dyn_cast<IntrinsicInst>(U))
      return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
    return false;
  });
}

/// Whether the program reads the request's result: a use other than a store
/// into a write-only local, or a return slot someone reads.
bool resultIsRead(const CallBase &Call, const Value *ReturnSlot) {
  if (ReturnSlot)
    return !isWriteOnlyLocal(ReturnSlot);
  return any_of(Call.users(), [&](const User *U) {
    const auto *SI = dyn_cast<StoreInst>(U);
    return !SI || SI->getValueOperand() != &Call ||
           !isWriteOnlyLocal(SI->getPointerOperand());
  });
}

/// Builds a value of type \p Ty from the front of \p Leaves.
Value *buildValue(IRBuilderBase &B, Type *Ty, ArrayRef<Value *> &Leaves) {
  if (isa<StructType>(Ty) || isa<ArrayType>(Ty)) {
    Value *Agg = PoisonValue::get(Ty);
    unsigned N = isa<StructType>(Ty) ? cast<StructType>(Ty)->getNumElements()
                                     : cast<ArrayType>(Ty)->getNumElements();
    for (unsigned I = 0; I < N; ++I) {
      Type *E = isa<StructType>(Ty) ? cast<StructType>(Ty)->getElementType(I)
                                    : cast<ArrayType>(Ty)->getElementType();
      Agg = B.CreateInsertValue(Agg, buildValue(B, E, Leaves), I);
    }
    return Agg;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    Value *Vec = PoisonValue::get(VT);
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Vec = B.CreateInsertElement(
          Vec, buildValue(B, VT->getElementType(), Leaves), B.getInt32(I));
    return Vec;
  }
  Value *Leaf = Leaves.front();
  Leaves = Leaves.drop_front();
  if (Leaf->getType() == Ty)
    return Leaf;
  // A float function's result read as the double C's declaration promises.
  if (Leaf->getType()->isFloatingPointTy() && Ty->isFloatingPointTy())
    return B.CreateFPCast(Leaf, Ty);
  return B.CreateBitCast(Leaf, Ty);
}

/// The request's result type can hold \p Leaves exactly (same number of
/// scalars, each the same type or a same-sized reinterpretation).
bool shapesMatch(Type *Declared, ArrayRef<Value *> Leaves,
                 const DataLayout &DL) {
  SmallVector<Type *, 8> Want;
  flattenType(Declared, Want);
  if (Want.size() != Leaves.size())
    return false;
  for (unsigned I = 0; I < Want.size(); ++I) {
    Type *Have = Leaves[I]->getType();
    if (Have == Want[I] ||
        (Have->isFloatingPointTy() && Want[I]->isFloatingPointTy()))
      continue;
    if (!Have->isSingleValueType() || !Want[I]->isSingleValueType() ||
        Have->isPointerTy() != Want[I]->isPointerTy() ||
        DL.getTypeSizeInBits(Have) != DL.getTypeSizeInBits(Want[I]))
      return false;
  }
  return true;
}

std::string typeName(Type *Ty) {
  std::string S;
  raw_string_ostream(S) << *Ty;
  return S;
}

} // namespace gpuad
