//===- FunctionShadowPairs.cpp - Enzyme's {augmented, reverse} shadows ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Enzyme gives a function pointer a custom derivative through its shadow:
/// the shadow points to a pair of functions, {augmented, reverse}, in
/// Enzyme's calling convention for calls through pointers.  gpuad
/// dispatches on the primal pointer (IndirectCalls), so a shadow that is
/// null or the function itself says nothing; any other shadow is such a
/// pair.  On the host, at width 1, the split halves of a dispatcher are
/// wrapped: where the shadow is a pair, the augmented half calls its first
/// function and keeps the tape it returns, and the backward half calls the
/// second with that tape; otherwise they call the dispatcher's own halves.
///
/// Enzyme's convention, by the call's parameter types (every float is
/// active, every other parameter has a shadow: a pointer's, or an
/// integer's value again):
///  - augmented: each parameter, then its shadow unless it is a float;
///    returns {tape (i8*), result (if any), shadow of a returned pointer};
///  - reverse: the same parameters, the adjoint of a float result, the
///    tape; returns the adjoints of the float parameters, as a struct.
//===----------------------------------------------------------------------===//

#include "Planner/DerivativeContext.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

using namespace llvm;

namespace gpuad {

namespace {

struct PairTypes {
  FunctionType *Augmented, *Reverse;
};

/// Enzyme's types of the pair for dispatcher \p F's call (its parameters
/// after the function pointer), or none for parameters or a result it has
/// no convention for here (aggregates, vectors, byval).
std::optional<PairTypes> pairTypes(const Function &F) {
  LLVMContext &C = F.getContext();
  Type *Ptr = PointerType::get(C, 0);
  auto Scalar = [](Type *T) {
    return T->isFloatingPointTy() || T->isPointerTy() || T->isIntegerTy();
  };
  SmallVector<Type *, 8> Params, Floats;
  for (const Argument &A : drop_begin(F.args())) {
    Type *T = A.getType();
    if (!Scalar(T) || A.hasByValAttr() || A.hasStructRetAttr() ||
        A.hasInAllocaAttr() || A.hasPreallocatedAttr())
      return std::nullopt;
    Params.push_back(T);
    if (T->isFloatingPointTy())
      Floats.push_back(T);
    else
      Params.push_back(T);
  }
  Type *Ret = F.getReturnType();
  if (!Ret->isVoidTy() && !Scalar(Ret))
    return std::nullopt;
  SmallVector<Type *, 3> Outs = {Ptr};
  if (!Ret->isVoidTy())
    Outs.push_back(Ret);
  if (Ret->isPointerTy())
    Outs.push_back(Ret);
  SmallVector<Type *, 8> RevParams(Params);
  if (Ret->isFloatingPointTy())
    RevParams.push_back(Ret);
  RevParams.push_back(Ptr);
  return PairTypes{
      FunctionType::get(StructType::get(C, Outs), Params, false),
      FunctionType::get(StructType::get(C, Floats), RevParams, false)};
}

/// The pair's parameters from derivative \p D's arguments.  A pointer
/// without a shadow (constant at the call) gets null, so a pair that writes
/// adjoints through it faults rather than overwrite the primal.
SmallVector<Value *, 16> pairArgs(const Function &F, Function &D,
                                  const DerivativeSignature &Sig) {
  SmallVector<Value *, 16> Args;
  for (unsigned I = 1; I < F.arg_size(); ++I) {
    Value *P = D.getArg(Sig.PrimalParam[I]);
    Args.push_back(P);
    if (P->getType()->isFloatingPointTy())
      continue;
    if (Sig.ShadowParam[I] >= 0)
      Args.push_back(D.getArg(Sig.ShadowParam[I]));
    else if (P->getType()->isPointerTy())
      Args.push_back(ConstantPointerNull::get(cast<PointerType>(P->getType())));
    else
      Args.push_back(P); // an integer's "shadow" is its value
  }
  return Args;
}

/// The blocks of a wrapper half: where the function pointer's shadow is a
/// pair (neither null nor the function) and where it is not.
struct Branches {
  BasicBlock *Pair, *Dispatch;
  Value *Shadow;
};

Branches branchOnPair(Function &D, const DerivativeSignature &Sig) {
  LLVMContext &C = D.getContext();
  IRBuilder<> B(BasicBlock::Create(C, "entry", &D));
  Branches Br{BasicBlock::Create(C, "pair", &D),
              BasicBlock::Create(C, "dispatch", &D),
              D.getArg(Sig.ShadowParam[0])};
  Value *Fn = D.getArg(Sig.PrimalParam[0]);
  B.CreateCondBr(B.CreateAnd(B.CreateIsNotNull(Br.Shadow),
                             B.CreateICmpNE(Br.Shadow, Fn), "shadow.is.pair"),
                 Br.Pair, Br.Dispatch);
  return Br;
}

/// The function at entry \p Index of the pair \p Shadow points to.
Value *pairEntry(IRBuilder<> &B, Value *Shadow, unsigned Index) {
  Type *Ptr = B.getPtrTy();
  return B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, Shadow, Index),
                      Index ? "reverse" : "augmented");
}

/// The augmented half \p D: the pair's augmented function, its tape kept in
/// the first field of the tape; else the dispatcher's own half \p Own.
void emitAugmentedWrapper(const Function &F, FunctionType *PairTy, Function &D,
                          const DerivativeSignature &Sig, Function &Own,
                          const DerivativeSignature &OwnSig) {
  Type *Ret = F.getReturnType();
  auto *TapeTy = cast<StructType>(Sig.tapeType());
  Branches Br = branchOnPair(D, Sig);
  IRBuilder<> B(Br.Pair);
  CallInst *R =
      B.CreateCall(PairTy, pairEntry(B, Br.Shadow, 0), pairArgs(F, D, Sig));
  Value *Tape = B.CreateInsertValue(PoisonValue::get(TapeTy),
                                    B.CreateExtractValue(R, 0), 0);
  Value *Primal = Ret->isVoidTy() ? nullptr : B.CreateExtractValue(R, 1);
  Value *RetShadow = Ret->isPointerTy() ? B.CreateExtractValue(R, 2) : nullptr;
  B.CreateRet(Sig.packAugmented(B, Tape, Primal, RetShadow));

  B.SetInsertPoint(Br.Dispatch);
  SmallVector<Value *, 16> Args;
  for (Argument &A : D.args())
    Args.push_back(&A);
  CallInst *O = B.CreateCall(&Own, Args);
  Tape = B.CreateInsertValue(
      ConstantStruct::get(TapeTy,
                          {ConstantPointerNull::get(B.getPtrTy()),
                           PoisonValue::get(TapeTy->getElementType(1))}),
      OwnSig.field(B, O, OwnSig.TapeField), 1);
  B.CreateRet(Sig.packAugmented(B, Tape, OwnSig.field(B, O, OwnSig.PrimalField),
                                OwnSig.field(B, O, OwnSig.ShadowField)));
}

/// The backward half \p D: the pair's reverse function with its tape; else
/// the dispatcher's own half \p Own with its.
void emitBackwardWrapper(const Function &F, FunctionType *PairTy, Function &D,
                         const DerivativeSignature &Sig, Function &Own) {
  Type *Ret = F.getReturnType();
  Branches Br = branchOnPair(D, Sig);
  Value *Tape = D.getArg(Sig.TapeParam);
  IRBuilder<> B(Br.Pair);
  SmallVector<Value *, 16> Args = pairArgs(F, D, Sig);
  if (Ret->isFloatingPointTy())
    Args.push_back(Sig.SeedParam >= 0
                       ? static_cast<Value *>(D.getArg(Sig.SeedParam))
                       : ConstantFP::get(Ret, 0.0));
  Args.push_back(B.CreateExtractValue(Tape, 0));
  CallInst *R = B.CreateCall(PairTy, pairEntry(B, Br.Shadow, 1), Args);
  // The adjoints come back for every float parameter, in order.
  SmallVector<Value *, 4> Adjoints;
  for (unsigned I : Sig.AdjointArgs) {
    unsigned Index = 0;
    for (unsigned K = 1; K < I; ++K)
      Index += F.getArg(K)->getType()->isFloatingPointTy();
    Adjoints.push_back(B.CreateExtractValue(R, Index));
  }
  Value *Packed = Sig.packAdjoints(B, nullptr, Adjoints);
  Packed ? B.CreateRet(Packed) : B.CreateRetVoid();

  B.SetInsertPoint(Br.Dispatch);
  SmallVector<Value *, 16> OwnArgs;
  for (Argument &A : D.args())
    OwnArgs.push_back(int(A.getArgNo()) == Sig.TapeParam
                          ? B.CreateExtractValue(&A, 1)
                          : static_cast<Value *>(&A));
  CallInst *O = B.CreateCall(&Own, OwnArgs);
  O->getType()->isVoidTy() ? B.CreateRetVoid() : B.CreateRet(O);
}

} // namespace

bool DerivativeContext::callsShadowPairs(const Function &Dispatcher,
                                         unsigned Width) {
  return isDispatcher(Dispatcher) && !Target->isGPU() && Width == 1 &&
         !isRecursive(Dispatcher) && pairTypes(Dispatcher).has_value();
}

SplitHalves DerivativeContext::withShadowPairs(const DerivativeKey &Key,
                                               SplitHalves Own) {
  const Function &F = *Key.Fn;
  PairTypes Types = *pairTypes(F);
  const DerivativeSignature &OwnAug = Signatures[Own.Augmented];
  Own.Augmented->setName(Own.Augmented->getName() + ".own");
  Own.Backward->setName(Own.Backward->getName() + ".own");
  // The tape: the pair's, or the dispatcher's own halves'.
  Type *TapeTy = StructType::get(
      M.getContext(), {PointerType::get(M.getContext(), 0), OwnAug.tapeType()});
  DerivativeKey BwdKey = Key;
  BwdKey.Mode = DiffMode::ReverseBackward;
  SplitHalves H;
  H.Augmented = declare(Key, DerivativeSignature::augmented(Key, TapeTy));
  H.Backward = declare(BwdKey, DerivativeSignature::backward(Key, TapeTy));
  emitAugmentedWrapper(F, Types.Augmented, *H.Augmented,
                       Signatures[H.Augmented], *Own.Augmented, OwnAug);
  emitBackwardWrapper(F, Types.Reverse, *H.Backward, Signatures[H.Backward],
                      *Own.Backward);
  return H;
}

} // namespace gpuad
