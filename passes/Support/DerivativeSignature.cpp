//===- DerivativeSignature.cpp - Parameters and results of a derivative ---===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/DerivativeSignature.h"

#include "Support/EntryPoints.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace gpuad {

/// Parameters shared by every mode: each primal argument, then its shadow.
static void addArgumentParams(const DerivativeKey &Key, DerivativeSignature &S,
                              SmallVectorImpl<llvm::Type *> &Params) {
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    llvm::Type *Ty = F.getArg(I)->getType();
    S.PrimalParam.push_back(Params.size());
    Params.push_back(Ty);
    ArgActivity A = Key.Args[I];
    if (A == ArgActivity::Dup || A == ArgActivity::DupNoNeed) {
      S.ShadowParam.push_back(Params.size());
      Params.push_back(L.shadowType(Ty));
    } else {
      S.ShadowParam.push_back(-1);
    }
  }
}

DerivativeSignature DerivativeSignature::forward(const DerivativeKey &Key) {
  DerivativeSignature S;
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  SmallVector<llvm::Type *, 16> Params;
  addArgumentParams(Key, S, Params);
  llvm::Type *RetTy = F.getReturnType();
  S.ReturnsPrimal = Key.ReturnPrimal && !RetTy->isVoidTy();
  S.ReturnsShadow = Key.Ret == ReturnShadow::Shadow && !RetTy->isVoidTy();
  llvm::Type *Result = llvm::Type::getVoidTy(F.getContext());
  if (S.ReturnsPrimal && S.ReturnsShadow)
    Result = StructType::get(RetTy, L.shadowType(RetTy));
  else if (S.ReturnsPrimal)
    Result = RetTy;
  else if (S.ReturnsShadow)
    Result = L.shadowType(RetTy);
  S.Type = FunctionType::get(Result, Params, /*isVarArg=*/false);
  return S;
}

/// One value, a struct of several, or void.
static llvm::Type *resultType(LLVMContext &C, ArrayRef<llvm::Type *> Results) {
  if (Results.empty())
    return llvm::Type::getVoidTy(C);
  if (Results.size() == 1)
    return Results[0];
  return StructType::get(C, Results);
}

/// The adjoints of the enzyme_out arguments, as results.
static void addAdjointResults(const DerivativeKey &Key, DerivativeSignature &S,
                              SmallVectorImpl<llvm::Type *> &Results) {
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (Key.Args[I] == ArgActivity::Active) {
      S.AdjointArgs.push_back(I);
      Results.push_back(L.shadowType(F.getArg(I)->getType()));
    }
}

DerivativeSignature DerivativeSignature::reverse(const DerivativeKey &Key) {
  DerivativeSignature S;
  Function &F = *Key.Fn;
  SmallVector<llvm::Type *, 16> Params;
  addArgumentParams(Key, S, Params);
  SmallVector<llvm::Type *, 4> Results;
  llvm::Type *RetTy = F.getReturnType();
  S.ReturnsPrimal = Key.ReturnPrimal && !RetTy->isVoidTy();
  if (S.ReturnsPrimal)
    Results.push_back(RetTy);
  addAdjointResults(Key, S, Results);
  S.Type = FunctionType::get(resultType(F.getContext(), Results), Params,
                             /*isVarArg=*/false);
  return S;
}

bool typeHoldsPointer(llvm::Type *Ty) {
  return Ty->isPtrOrPtrVectorTy() || any_of(Ty->subtypes(), typeHoldsPointer);
}

bool DerivativeSignature::seedsReturn(const DerivativeKey &Key) {
  // A struct of pointers and floats has both: a shadow for its pointers,
  // a seed for its floats (the seed's pointer fields are unused).
  llvm::Type *RetTy = Key.Fn->getReturnType();
  return Key.Ret == ReturnShadow::Shadow && !RetTy->isVoidTy() &&
         (!typeHoldsPointer(RetTy) || carriesFloat(RetTy));
}

DerivativeSignature DerivativeSignature::augmented(const DerivativeKey &Key,
                                                   llvm::Type *TapeTy) {
  DerivativeSignature S;
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  SmallVector<llvm::Type *, 16> Params;
  addArgumentParams(Key, S, Params);
  SmallVector<llvm::Type *, 4> Results;
  llvm::Type *RetTy = F.getReturnType();
  S.TapeField = Results.size();
  Results.push_back(TapeTy);
  if (Key.ReturnPrimal && !RetTy->isVoidTy()) {
    S.ReturnsPrimal = true;
    S.PrimalField = Results.size();
    Results.push_back(RetTy);
  }
  if (Key.Ret == ReturnShadow::Shadow && typeHoldsPointer(RetTy)) {
    S.ReturnsShadow = true;
    S.ShadowField = Results.size();
    Results.push_back(L.shadowType(RetTy));
  }
  S.SingleResult = Results.size() == 1;
  S.Type = FunctionType::get(resultType(F.getContext(), Results), Params,
                             /*isVarArg=*/false);
  return S;
}

DerivativeSignature DerivativeSignature::backward(const DerivativeKey &Key,
                                                  llvm::Type *TapeTy) {
  DerivativeSignature S;
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  SmallVector<llvm::Type *, 16> Params;
  addArgumentParams(Key, S, Params);
  if (seedsReturn(Key)) {
    S.SeedParam = Params.size();
    Params.push_back(L.shadowType(F.getReturnType()));
  }
  if (TapeTy) {
    S.TapeParam = Params.size();
    Params.push_back(TapeTy);
  }
  SmallVector<llvm::Type *, 4> Results;
  addAdjointResults(Key, S, Results);
  S.Type = FunctionType::get(resultType(F.getContext(), Results), Params,
                             /*isVarArg=*/false);
  return S;
}

Type *DerivativeSignature::tapeType() const {
  if (TapeField >= 0)
    return SingleResult ? Type->getReturnType()
                        : cast<StructType>(Type->getReturnType())
                              ->getElementType(TapeField);
  return TapeParam >= 0 ? Type->getParamType(TapeParam) : nullptr;
}

Value *DerivativeSignature::field(IRBuilderBase &B, Value *Result,
                                  int Index) const {
  if (Index < 0)
    return nullptr;
  return SingleResult ? Result : B.CreateExtractValue(Result, Index);
}

Value *DerivativeSignature::packAugmented(IRBuilderBase &B, Value *Tape,
                                          Value *Primal, Value *Shadow) const {
  if (SingleResult)
    return Tape;
  Value *Agg = PoisonValue::get(Type->getReturnType());
  Agg = B.CreateInsertValue(Agg, Tape, TapeField);
  if (PrimalField >= 0)
    Agg = B.CreateInsertValue(Agg, Primal, PrimalField);
  if (ShadowField >= 0)
    Agg = B.CreateInsertValue(Agg, Shadow, ShadowField);
  return Agg;
}

Value *DerivativeSignature::packAdjoints(IRBuilderBase &B, Value *Primal,
                                         ArrayRef<Value *> Adjoints) const {
  SmallVector<Value *, 4> Fields;
  if (ReturnsPrimal)
    Fields.push_back(Primal);
  Fields.append(Adjoints.begin(), Adjoints.end());
  if (Fields.empty())
    return nullptr;
  if (Fields.size() == 1)
    return Fields[0];
  Value *Agg = PoisonValue::get(Type->getReturnType());
  for (unsigned I = 0; I < Fields.size(); ++I)
    Agg = B.CreateInsertValue(Agg, Fields[I], I);
  return Agg;
}

Value *DerivativeSignature::adjointOf(IRBuilderBase &B, Value *Result,
                                      unsigned K) const {
  unsigned Fields = ReturnsPrimal + AdjointArgs.size();
  unsigned Index = ReturnsPrimal + K;
  return Fields == 1 ? Result : B.CreateExtractValue(Result, Index);
}

Value *DerivativeSignature::packReturn(IRBuilderBase &B, Value *Primal,
                                       Value *Shadow) const {
  if (ReturnsPrimal && ReturnsShadow) {
    Value *Agg = PoisonValue::get(Type->getReturnType());
    Agg = B.CreateInsertValue(Agg, Primal, 0);
    return B.CreateInsertValue(Agg, Shadow, 1);
  }
  return ReturnsPrimal ? Primal : Shadow;
}

Value *DerivativeSignature::primalOf(IRBuilderBase &B, Value *Result) const {
  if (!ReturnsPrimal)
    return nullptr;
  return ReturnsShadow ? B.CreateExtractValue(Result, 0) : Result;
}

Value *DerivativeSignature::shadowOf(IRBuilderBase &B, Value *Result) const {
  if (!ReturnsShadow)
    return nullptr;
  return ReturnsPrimal ? B.CreateExtractValue(Result, 1) : Result;
}

SmallVector<Value *, 4> DerivativeSignature::resultsOf(IRBuilderBase &B,
                                                       Value *Result,
                                                       bool Forward) const {
  SmallVector<Value *, 4> Out;
  if (Forward) {
    if (Value *P = primalOf(B, Result))
      Out.push_back(P);
    if (Value *S = shadowOf(B, Result))
      Out.push_back(S);
    return Out;
  }
  if (ReturnsPrimal)
    Out.push_back(AdjointArgs.empty() ? Result
                                      : B.CreateExtractValue(Result, 0));
  for (unsigned K = 0; K < AdjointArgs.size(); ++K)
    Out.push_back(adjointOf(B, Result, K));
  return Out;
}

} // namespace gpuad
