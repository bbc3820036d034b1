//===- RequestLowering.cpp - Replace a request by a derivative call -------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/RequestLowering.h"

#include "Planner/DiffRequest.h"
#include "Planner/LaneMapping.h"
#include "Requests/RequestParser.h"
#include "Requests/ResultPacking.h"
#include "Requests/TapeTransport.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Lanes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

/// Whether an augmented call declares its result `{primal, tape}` (Enzyme's
/// layout is `{tape, primal}`): a struct whose first field has the primal's
/// type and whose last is a pointer, where the primal is no pointer.  The
/// fields' types say which is which (Enzyme's virtualshadow test declares
/// `struct { double x; void *tape; }`).
static bool declaresTapeLast(const DiffRequest &Req, bool ReturnsPrimal) {
  auto *ST = dyn_cast<StructType>(Req.ResultType);
  Type *RetTy = Req.Key.Fn->getReturnType();
  if (!ReturnsPrimal || Req.Tape != TapeTransport::Heap || !ST ||
      ST->getNumElements() < 2 || RetTy->isPointerTy())
    return false;
  Type *First = ST->getElementType(0);
  bool PrimalFirst = First == RetTy ||
                     (First->isFloatingPointTy() && RetTy->isFloatingPointTy());
  return PrimalFirst && ST->elements().back()->isPointerTy();
}

bool lowerRequest(const DiffRequest &Req, Function &Derivative,
                  const DerivativeSignature &Sig, TargetHooks &Target,
                  Diagnostics &Diags, const LanePlan *Plan) {
  CallBase &Call = *Req.Call;
  Function &Caller = *Call.getFunction();
  const DataLayout &DL = Caller.getParent()->getDataLayout();
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  Lanes L(Req.Key.Width);
  DiffMode Mode = Req.Key.Mode;

  // Split mode: the tape's type, the part of the declared result that holds
  // it, and whether it fits there.
  Type *TapeTy = Sig.tapeType(), *UserTapeTy = nullptr;
  bool TapeLast = false;
  if (Mode == DiffMode::ReverseAugmented) {
    TapeLast = declaresTapeLast(Req, Sig.ReturnsPrimal);
    UserTapeTy = TapeLast
                     ? cast<StructType>(Req.ResultType)->elements().back()
                     : declaredTapeType(Req, Req.ResultType,
                                        Sig.ReturnsPrimal || Sig.ReturnsShadow);
  }
  if (TapeTy && !checkTapeFits(Req, TapeTy, UserTapeTy, Diags))
    return false;
  if (Mode == DiffMode::ReverseAugmented &&
      Req.Tape == TapeTransport::Allocated && !UserTapeTy) {
    Diags.error(Caller, Call,
                "with enzyme_allocated " + Twine(Req.AllocatedBytes) +
                    ", __enzyme_augmentfwd must return the tape first: a "
                    "result of " +
                    Twine(Req.AllocatedBytes) +
                    " bytes, or a struct whose first member has that size");
    return false;
  }

  SmallVector<Value *, 16> Args(Sig.Type->getNumParams());
  for (unsigned I = 0; I < Req.Args.size(); ++I) {
    const ArgRequest &AR = Req.Args[I];
    Type *Ty = Req.Key.Fn->getArg(I)->getType();
    Args[Sig.PrimalParam[I]] = coerceArgument(B, AR.Primal, Ty);
    if (Sig.ShadowParam[I] < 0)
      continue;
    SmallVector<Value *, 4> PerLane;
    if (AR.DupVBase) {
      Value *Base = coerceArgument(B, AR.DupVBase, Ty);
      Value *Stride = B.CreateSExtOrTrunc(AR.DupVStride, B.getInt64Ty());
      for (unsigned Lane = 0; Lane < L.width(); ++Lane)
        PerLane.push_back(B.CreateGEP(B.getInt8Ty(), Base,
                                      B.CreateMul(Stride, B.getInt64(Lane)),
                                      "dupv.lane"));
    } else {
      for (Value *S : AR.Shadows)
        PerLane.push_back(coerceArgument(B, S, Ty));
    }
    Args[Sig.ShadowParam[I]] = L.pack(B, Ty, PerLane);
  }
  Type *RetTy = Req.Key.Fn->getReturnType();
  if (Sig.SeedParam >= 0) {
    SmallVector<Value *, 4> Seeds;
    for (Value *S : Req.Seeds)
      Seeds.push_back(coerceArgument(B, S, RetTy));
    Args[Sig.SeedParam] = L.pack(B, RetTy, Seeds);
  }
  if (Sig.TapeParam >= 0)
    Args[Sig.TapeParam] = receiveTape(B, Req, TapeTy, Target);

  // What the derivative returns, as (type, lanes) parts in order: the
  // primal, then the tangent of the return (forward), or the shadow of a
  // returned pointer (augmented half), or each enzyme_out argument's adjoint
  // (reverse), each of them lane by lane.  The augmented half's tape comes
  // first.
  SmallVector<Type *, 8> TapeLeafTypes;
  if (UserTapeTy)
    flattenType(UserTapeTy, TapeLeafTypes);
  else if (Mode == DiffMode::ReverseAugmented &&
           Req.Tape == TapeTransport::Heap)
    TapeLeafTypes.push_back(PointerType::get(Call.getContext(), 0));
  SmallVector<std::pair<Type *, unsigned>, 4> Parts;
  if (Sig.ReturnsPrimal)
    Parts.push_back({RetTy, 1});
  if (Sig.ReturnsShadow)
    Parts.push_back({RetTy, L.width()});
  for (unsigned ArgNo : Sig.AdjointArgs)
    Parts.push_back({Req.Key.Fn->getArg(ArgNo)->getType(), L.width()});
  // The parts of the derivative's \p Result (Parts' order); the augmented
  // half sends its tape first, into \p Out.
  auto PartValues = [&](IRBuilderBase &RB, Value *Result,
                        SmallVectorImpl<Value *> &Out) {
    SmallVector<Value *, 4> Values;
    if (Mode == DiffMode::ReverseAugmented) {
      if (UserTapeTy)
        Out = sendTape(RB, Req, Sig.field(RB, Result, Sig.TapeField),
                       UserTapeTy, Target);
      if (Value *P = Sig.field(RB, Result, Sig.PrimalField))
        Values.push_back(P);
      if (Value *S = Sig.field(RB, Result, Sig.ShadowField))
        Values.push_back(S);
    } else {
      Values = Sig.resultsOf(RB, Result, Mode == DiffMode::Forward);
    }
    return Values;
  };
  // Every part's scalars, direction by direction, after \p Out's.
  auto Flatten = [&](IRBuilderBase &RB, ArrayRef<Value *> Values,
                     SmallVectorImpl<Value *> &Out) {
    for (unsigned I = 0; I < Parts.size(); ++I)
      for (unsigned Lane = 0; Lane < Parts[I].second; ++Lane)
        flattenValue(RB,
                     Parts[I].second == 1
                         ? Values[I]
                         : L.extract(RB, Values[I], Parts[I].first, Lane),
                     Out);
  };

  // Check the result shape before changing anything.
  Type *Declared = Req.ResultType;
  bool WantsResult = Req.ReturnSlot || !Declared->isVoidTy();
  if (WantsResult) {
    SmallVector<Type *, 8> HaveTypes;
    for (auto [Ty, N] : Parts)
      for (unsigned Lane = 0; Lane < N; ++Lane)
        flattenType(Ty, HaveTypes);
    HaveTypes.insert(TapeLast ? HaveTypes.end() : HaveTypes.begin(),
                     TapeLeafTypes.begin(), TapeLeafTypes.end());
    SmallVector<Value *, 8> Fake;
    for (Type *T : HaveTypes)
      Fake.push_back(PoisonValue::get(T));
    if (resultIsRead(Call, Req.ReturnSlot) &&
        !shapesMatch(Declared, Fake, DL)) {
      std::string Have = "nothing";
      if (!HaveTypes.empty()) {
        // Each value's type, in order: {double, ptr} against (ptr, double)
        // says what to swap.
        Have = std::to_string(HaveTypes.size()) + " value(s): (";
        for (auto [I, T] : enumerate(HaveTypes))
          Have += (I ? ", " : "") + typeName(T);
        Have += ")";
      }
      const char *Order =
          Mode == DiffMode::Forward
              ? (Sig.ReturnsPrimal
                     ? " (primal first, then each direction's tangent)"
                     : " (one tangent per direction)")
          : Mode == DiffMode::ReverseAugmented
              ? " (the tape first, then the primal and the shadow of a "
                "returned pointer)"
              : (Sig.ReturnsPrimal
                     ? " (primal first, then each enzyme_out argument's "
                       "adjoint)"
                     : " (each enzyme_out argument's adjoint, in order)");
      Diags.error(Caller, Call,
                  "the request declares its result as " + typeName(Declared) +
                      ", but the derivative of '" + Req.Key.Fn->getName() +
                      "' returns " + Have + Order);
      return false;
    }
  }

  auto CallDerivative = [&](IRBuilderBase &CB) {
    CallInst *New = CB.CreateCall(&Derivative, Args);
    New->setCallingConv(Derivative.getCallingConv());
    New->setDebugLoc(Call.getDebugLoc());
    return New;
  };
  bool ReadsResult = WantsResult && resultIsRead(Call, Req.ReturnSlot);
  SmallVector<Value *, 8> Out;
  if (Plan) {
    // A lane group computes the directions (the vector form as fallback).
    SmallVector<Value *, 4> Values = emitLaneMapped(
        B, Req, *Plan, Parts,
        [&](IRBuilderBase &VB) {
          SmallVector<Value *, 8> NoTape;
          return PartValues(VB, CallDerivative(VB), NoTape);
        },
        Target);
    if (ReadsResult && !Parts.empty())
      Flatten(B, Values, Out);
  } else {
    CallBase *New;
    if (auto *Inv = dyn_cast<InvokeInst>(&Call)) {
      BasicBlock *Normal = Inv->getNormalDest();
      BasicBlock *ResultBlock = BasicBlock::Create(
          Call.getContext(), "request.cont", &Caller, Normal);
      BranchInst::Create(Normal, ResultBlock);
      Normal->replacePhiUsesWith(Inv->getParent(), ResultBlock);
      New =
          B.CreateInvoke(&Derivative, ResultBlock, Inv->getUnwindDest(), Args);
      New->setCallingConv(Derivative.getCallingConv());
      New->setDebugLoc(Call.getDebugLoc());
      B.SetInsertPoint(ResultBlock->getTerminator());
    } else {
      New = CallDerivative(B);
    }
    if (Mode == DiffMode::ReverseAugmented && Req.Tape == TapeTransport::Memory)
      sendTape(B, Req, Sig.field(B, New, Sig.TapeField), nullptr,
               Target); // stores it; the result holds no tape
    if (ReadsResult && !New->getType()->isVoidTy()) {
      SmallVector<Value *, 4> Values = PartValues(B, New, Out);
      Flatten(B, Values, Out);
    }
  }

  // {primal, tape}: the tape's leaves, sent first, go last.
  if (TapeLast && Out.size() >= TapeLeafTypes.size())
    std::rotate(Out.begin(), Out.begin() + TapeLeafTypes.size(), Out.end());
  Value *Replacement = nullptr;
  if (ReadsResult && !Out.empty()) {
    ArrayRef<Value *> Rest = Out;
    Replacement = buildValue(B, Declared, Rest);
    if (Req.ReturnSlot)
      B.CreateStore(Replacement, Req.ReturnSlot);
  }
  if (!Call.use_empty())
    Call.replaceAllUsesWith(Replacement && !Req.ReturnSlot
                                ? Replacement
                                : PoisonValue::get(Call.getType()));
  Call.eraseFromParent();
  return true;
}

void lowerTapeSize(const DiffRequest &Req, const DerivativeSignature &AugSig) {
  CallBase &Call = *Req.Call;
  Type *TapeTy = AugSig.tapeType();
  Type *Ty = Call.getType();
  Value *Size = ConstantInt::get(
      Ty->isIntegerTy() ? Ty : Type::getInt64Ty(Call.getContext()),
      tapeBytes(Req, TapeTy));
  if (!Call.use_empty())
    Call.replaceAllUsesWith(Ty->isIntegerTy() ? Size : PoisonValue::get(Ty));
  eraseRequestCall(Call);
}

} // namespace gpuad
