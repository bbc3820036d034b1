//===- RuntimeDisjointness.cpp - The restrict derivative at run time ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Planner/RuntimeDisjointness.h"

#include "Analysis/ArgumentRangeExpansion.h"
#include "Analysis/ArgumentRanges.h"
#include "Planner/DerivativeContext.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// At most this many pointers are compared pairwise.
constexpr unsigned MaxPointers = 16;

/// The clone the derivative as proven is made from (the same ranges hold
/// for every version).
Function &primalOf(DerivativeContext &Ctx, const DerivativeKey &Key) {
  DerivativeKey AsProven = Key;
  AsProven.Alias = AliasVersion::AsProven;
  return Ctx.preprocessor().normalizedForReverse(
      *Key.Fn, Ctx.restrictParameters(AsProven));
}

DisjointnessPlan makePlan(DerivativeContext &Ctx, const DerivativeKey &Key,
                          const ArgumentRanges &R) {
  DisjointnessPlan P;
  if (!R.Unknown.empty()) {
    P.WhyNot = R.Unknown;
    return P;
  }
  if (none_of(R.Params, [](const std::optional<ArgumentRange> &A) {
        return A && A->InLoop;
      })) {
    P.WhyNot = "no loop reaches memory through its pointer arguments";
    return P;
  }
  DerivativeSignature Sig = DerivativeSignature::reverse(Key);
  SmallVector<bool, 8> Written;
  for (unsigned I = 0; I < R.Params.size(); ++I) {
    if (!R.Params[I])
      continue;
    P.Pointers.push_back({I, false});
    Written.push_back(R.Params[I]->Written);
    // The reverse sweep adds adjoints to shadows and zeroes them.
    if (Sig.ShadowParam[I] >= 0) {
      P.Pointers.push_back({I, true});
      Written.push_back(true);
    }
  }
  if (P.Pointers.size() > MaxPointers) {
    P.WhyNot = "it reaches memory through more than " +
               std::to_string(MaxPointers) + " pointers";
    return P;
  }
  // An argument the call site proved disjoint is apart from all others.
  auto Proven = [&](unsigned Arg) {
    return Arg < Key.Disjoint.size() && Key.Disjoint[Arg];
  };
  for (unsigned I = 0; I < P.Pointers.size(); ++I)
    for (unsigned J = I + 1; J < P.Pointers.size(); ++J)
      if ((Written[I] || Written[J]) && !Proven(P.Pointers[I].Arg) &&
          !Proven(P.Pointers[J].Arg))
        P.Pairs.push_back({I, J});
  return P;
}

/// Calls \p Callee with \p D's arguments and returns what it returns.
void forwardTo(Function &D, Function &Callee, BasicBlock *BB) {
  IRBuilder<> B(BB);
  SmallVector<Value *, 8> Args;
  for (Argument &A : D.args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Callee, Args);
  Call->setCallingConv(Callee.getCallingConv());
  if (D.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

} // namespace

DisjointnessPlan planRuntimeDisjointness(DerivativeContext &Ctx,
                                         const DerivativeKey &Key) {
  DisjointnessPlan P;
  if (Key.Mode != DiffMode::ReverseCombined || Key.Width != 1 ||
      Ctx.target().isGPU() || Ctx.customRuleFor(*Key.Fn)) {
    P.WhyNot = "only combined reverse derivatives of host code at width 1";
    return P;
  }
  PrimalRanges R(primalOf(Ctx, Key), Ctx.calls());
  return makePlan(Ctx, Key, R.Ranges);
}

void emitDisjointnessDispatcher(DerivativeContext &Ctx,
                                const DerivativeKey &Key, Function &D,
                                Function &Restrict, Function &AsProven) {
  PrimalRanges R(primalOf(Ctx, Key), Ctx.calls());
  DisjointnessPlan P = makePlan(Ctx, Key, R.Ranges);
  const DerivativeSignature &Sig = Ctx.signatureOf(D);
  LLVMContext &C = D.getContext();
  BasicBlock *Check = BasicBlock::Create(C, "check", &D);
  BasicBlock *Apart = BasicBlock::Create(C, "apart", &D);
  BasicBlock *Overlap = BasicBlock::Create(C, "may.overlap", &D);
  forwardTo(D, Restrict, Apart);
  forwardTo(D, AsProven, Overlap);
  IRBuilder<> B(Check);
  if (!P.possible()) { // cannot happen: the plan was made the same way
    B.CreateBr(Overlap);
    return;
  }
  auto Param = [&](unsigned Arg) -> Value * {
    return D.getArg(Sig.PrimalParam[Arg]);
  };
  RangeExpander X(B, Param);
  // [Lo, Hi) of each pointer; pairs compare as unsigned addresses.
  SmallVector<std::pair<Value *, Value *>, 8> Ends;
  for (const DisjointnessPlan::Pointer &Ptr : P.Pointers) {
    Value *Base = D.getArg(Ptr.Shadow ? Sig.ShadowParam[Ptr.Arg]
                                      : Sig.PrimalParam[Ptr.Arg]);
    const ArgumentRange &Range = *R.Ranges.Params[Ptr.Arg];
    Ends.push_back({B.CreatePtrAdd(Base, X.expand(Range.Lo)),
                    B.CreatePtrAdd(Base, X.expand(Range.Hi))});
  }
  Value *AllApart = B.getTrue();
  for (auto [I, J] : P.Pairs)
    AllApart = B.CreateAnd(
        AllApart, B.CreateOr(B.CreateICmpULE(Ends[I].second, Ends[J].first),
                             B.CreateICmpULE(Ends[J].second, Ends[I].first)));
  B.CreateCondBr(AllApart, Apart, Overlap);
}

} // namespace gpuad
