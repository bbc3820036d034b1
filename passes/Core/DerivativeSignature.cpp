//===- DerivativeSignature.cpp - Parameters and results of a derivative ---===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Core/DerivativeSignature.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace gpuad {

DerivativeSignature DerivativeSignature::forward(const DerivativeKey &Key) {
  DerivativeSignature S;
  Lanes L(Key.Width);
  Function &F = *Key.Fn;
  SmallVector<llvm::Type *, 16> Params;
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

} // namespace gpuad
