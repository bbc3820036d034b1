//===- Lanes.cpp - How width-N shadows are represented --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/Lanes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace gpuad {

bool Lanes::isSimd(Type *Ty) const {
  return Width > 1 && (Ty->isIntegerTy() || Ty->isFloatingPointTy());
}

Type *Lanes::shadowType(Type *Ty) const {
  if (Width == 1)
    return Ty;
  if (isSimd(Ty))
    return FixedVectorType::get(Ty, Width);
  return ArrayType::get(Ty, Width);
}

Value *Lanes::extract(IRBuilderBase &B, Value *Shadow, Type *PrimalTy,
                      unsigned L) const {
  if (Width == 1)
    return Shadow;
  if (isSimd(PrimalTy))
    return B.CreateExtractElement(Shadow, B.getInt32(L));
  return B.CreateExtractValue(Shadow, L);
}

Value *Lanes::pack(IRBuilderBase &B, Type *PrimalTy,
                   ArrayRef<Value *> PerLane) const {
  assert(PerLane.size() == Width && "one value per lane");
  if (Width == 1)
    return PerLane[0];
  Value *Agg = PoisonValue::get(shadowType(PrimalTy));
  for (unsigned L = 0; L < Width; ++L)
    Agg = isSimd(PrimalTy)
              ? B.CreateInsertElement(Agg, PerLane[L], B.getInt32(L))
              : B.CreateInsertValue(Agg, PerLane[L], L);
  return Agg;
}

Value *Lanes::splat(IRBuilderBase &B, Value *V) const {
  if (Width == 1)
    return V;
  if (isSimd(V->getType()))
    return B.CreateVectorSplat(Width, V);
  SmallVector<Value *, 8> Copies(Width, V);
  return pack(B, V->getType(), Copies);
}

Constant *Lanes::zero(Type *Ty) const {
  return Constant::getNullValue(shadowType(Ty));
}

Value *Lanes::map(IRBuilderBase &B, Type *ResultTy, ArrayRef<Value *> Shadows,
                  ArrayRef<Type *> ShadowTys,
                  function_ref<Value *(ArrayRef<Value *>, unsigned)> Fn) const {
  SmallVector<Value *, 8> Results;
  SmallVector<Value *, 4> Args(Shadows.size());
  for (unsigned L = 0; L < Width; ++L) {
    for (unsigned I = 0; I < Shadows.size(); ++I)
      Args[I] = extract(B, Shadows[I], ShadowTys[I], L);
    Results.push_back(Fn(Args, L));
  }
  return pack(B, ResultTy, Results);
}

static bool isConstantFP(Value *V, double X) {
  using namespace PatternMatch;
  const APFloat *C;
  if (!match(V, m_APFloat(C)))
    return false;
  bool LosesInfo = false;
  APFloat Want(X);
  Want.convert(C->getSemantics(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return C->compare(Want) == APFloat::cmpEqual;
}

Value *Lanes::scale(IRBuilderBase &B, Value *Partial, Value *Shadow,
                    Type *PrimalTy) const {
  if (isConstantFP(Partial, 1.0))
    return Shadow;
  if (isConstantFP(Partial, -1.0)) {
    if (Width == 1 || isSimd(PrimalTy))
      return B.CreateFNeg(Shadow);
    return map(
        B, PrimalTy, {Shadow}, {PrimalTy},
        [&](ArrayRef<Value *> S, unsigned) { return B.CreateFNeg(S[0]); });
  }
  if (Width == 1 || isSimd(PrimalTy))
    return B.CreateFMul(splat(B, Partial), Shadow);
  return map(B, PrimalTy, {Shadow}, {PrimalTy},
             [&](ArrayRef<Value *> S, unsigned) {
               return B.CreateFMul(Partial, S[0]);
             });
}

Value *Lanes::add(IRBuilderBase &B, Value *A, Value *Bv, Type *PrimalTy) const {
  if (!A)
    return Bv;
  if (!Bv)
    return A;
  // a + (-b) reads better as a - b and saves the negation.  Integers are
  // float bits, added as floats of their width.
  if (Width == 1 || isSimd(PrimalTy)) {
    Value *Neg;
    if (PatternMatch::match(Bv,
                            PatternMatch::m_FNeg(PatternMatch::m_Value(Neg))))
      return B.CreateFSub(A, Neg);
    return addAdjoints(B, A, Bv);
  }
  return map(B, PrimalTy, {A, Bv}, {PrimalTy, PrimalTy},
             [&](ArrayRef<Value *> S, unsigned) {
               return addAdjoints(B, S[0], S[1]);
             });
}

Value *addAdjoints(IRBuilderBase &B, Value *A, Value *Bv, Type *View) {
  Type *Ty = A->getType();
  if (Ty->isFPOrFPVectorTy())
    return B.CreateFAdd(A, Bv);
  if (Ty->isIntOrIntVectorTy()) {
    // Float bits carried in an integer: add as floats of the same width,
    // or of the view's type.
    Type *FTy = View;
    if (!FTy) {
      unsigned Bits = Ty->getScalarSizeInBits();
      FTy = Bits == 64   ? B.getDoubleTy()
            : Bits == 32 ? B.getFloatTy()
            : Bits == 16 ? B.getHalfTy()
                         : nullptr;
      if (!FTy)
        return A;
      if (auto *VT = dyn_cast<FixedVectorType>(Ty))
        FTy = FixedVectorType::get(FTy, VT->getNumElements());
    }
    return B.CreateBitCast(
        B.CreateFAdd(B.CreateBitCast(A, FTy), B.CreateBitCast(Bv, FTy)), Ty);
  }
  if (isa<StructType>(Ty) || isa<ArrayType>(Ty)) {
    unsigned N = isa<StructType>(Ty) ? cast<StructType>(Ty)->getNumElements()
                                     : cast<ArrayType>(Ty)->getNumElements();
    Value *R = A;
    for (unsigned I = 0; I < N; ++I)
      R = B.CreateInsertValue(R,
                              addAdjoints(B, B.CreateExtractValue(A, I),
                                          B.CreateExtractValue(Bv, I), View),
                              I);
    return R;
  }
  // Pointers carry no adjoint.
  return A;
}

} // namespace gpuad
