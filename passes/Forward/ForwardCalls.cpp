//===- ForwardCalls.cpp - Forward mode through calls ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A call is, in order: a known-inactive call (skipped), a memory intrinsic,
/// a row of the rule table (math), a heap function (shadow allocation), a
/// call that touches nothing active (kept as is), or a call to a defined
/// function, replaced by a call to that function's own forward derivative
/// (memoized by activity).  Anything else that carries derivatives -- an
/// unknown external, an indirect call, inline asm -- is a diagnostic.
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TypeInfo.h"
#include "Core/DerivativeContext.h"
#include "Requests/RequestParser.h"
#include "Rules/DerivativeRules.h"
#include "Rules/KnownFunctions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

bool ForwardEmitter::callNeedsDerivative(CallBase &Call) const {
  if (!Call.getType()->isVoidTy() && hasShadow(&Call))
    return true;
  // Otherwise only memory can carry a derivative out of the call: active
  // arguments of isnan(x), llvm.is.fpclass or ilogb go nowhere.
  return any_of(Call.args(), [&](const Use &A) {
    return !isData(A.get()) && hasShadow(A.get());
  });
}

void ForwardEmitter::visitCallBase(CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction();
      Callee && classifyEntryPoint(Callee->getName()))
    return fail(Call, "cannot differentiate a function that itself requests "
                      "a derivative ('" + Callee->getName() +
                      "'): nested differentiation is not supported");
  if (Act->isInactiveCall(Call))
    return;
  if (isa<MemTransferInst>(Call))
    return emitMemTransfer(Call);
  if (isa<MemSetInst>(Call))
    return emitMemSet(Call);
  if (Call.isInlineAsm()) {
    if (callNeedsDerivative(Call))
      fail(Call, "cannot differentiate inline assembly on values that carry "
                 "derivatives ('" + describe(Call) + "')");
    return;
  }
  if (const DerivativeRule *Rule = findRule(Call)) {
    if (Rule->Kind == RuleKind::MultipleOutputs)
      return emitMultipleOutputs(Call, *Rule);
    if (hasShadow(&Call))
      emitElementwise(Call, *Rule);
    return;
  }
  if (classifyHeapCall(Call))
    return emitHeapCall(Call);
  if (!callNeedsDerivative(Call))
    return;
  Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return fail(Call, "cannot differentiate an indirect call ('" +
                          describe(Call) + "'): the callee is unknown");
  if (Callee->isDeclaration())
    return fail(Call, "cannot differentiate call to '" + Callee->getName() +
                          "': it has no derivative rule and its body is not "
                          "in this module");
  if (Callee->isVarArg())
    return fail(Call, "cannot differentiate call to variadic function '" +
                          Callee->getName() + "'");
  emitDerivativeCall(Call);
}

void ForwardEmitter::emitMultipleOutputs(CallBase &Call,
                                         const DerivativeRule &Rule) {
  if (Call.arg_size() != Rule.NumOperands)
    return fail(Call, "'" + describe(Call) + "' does not have the " +
                          Twine(Rule.NumOperands) + " operand(s) of '" +
                          Rule.Family + "' that its derivative rule expects");
  Value *X = Call.getArgOperand(0);
  Type *Ty = X->getType();
  Value *DX = tangent(X);
  // Tangents of returned aggregate elements, combined at the end.
  SmallVector<std::pair<int, Value *>, 2> Elements;
  for (const RuleOutput &Out : Rule.Outputs) {
    if (!Out.Family)
      continue;
    Value *Target = Out.Arg < 0 ? nullptr : Call.getArgOperand(Out.Arg);
    if (Target ? !needsShadow(Target) : !hasShadow(&Call))
      continue;
    // This output's tangent: its family's partial times x's tangent.
    const DerivativeRule *F = findRuleByName(Out.Family);
    Value *T = nullptr;
    if (DX && F && F->Kind == RuleKind::Elementwise && F->Partials[0].Fn) {
      RuleContext R(
          B, Ty, [&](unsigned K) { return Call.getArgOperand(K); },
          [&]() -> Value * {
            if (Target)
              return B.CreateLoad(Ty, Target);
            if (Out.Element >= 0)
              return B.CreateExtractValue(&Call, Out.Element);
            return &Call;
          },
          Ctx.target());
      T = L.scale(B, F->Partials[0].Fn(R), DX, Ty);
    }
    if (Target) {
      Value *Shadow = T ? T : L.zero(Ty);
      forEachLane(B, shadowPointer(Target, Call),
                  [&](Value *LanePtr, unsigned Lane) {
                    B.CreateStore(L.extract(B, Shadow, Ty, Lane), LanePtr);
                  });
    } else if (Out.Element >= 0) {
      Elements.push_back({Out.Element, T});
    } else {
      setShadow(&Call, T);
    }
  }
  if (Elements.empty())
    return;
  // A returned aggregate ({sin, cos}, {mantissa, exponent}): the listed
  // elements carry tangents, the others none.
  Type *AggTy = Call.getType();
  setShadow(&Call, L.map(B, AggTy, {}, {}, [&](ArrayRef<Value *>, unsigned Lane) {
    Value *Agg = Constant::getNullValue(AggTy);
    for (auto [Index, T] : Elements)
      if (T)
        Agg = B.CreateInsertValue(Agg, L.extract(B, T, Ty, Lane), Index);
    return Agg;
  }));
}

void ForwardEmitter::replaceCall(CallBase &Old, Value *Primal) {
  if (Primal) {
    Old.replaceAllUsesWith(Primal);
    Aliases[Primal] = &Old;
  }
  Old.removeFromParent();
  Removed.push_back(&Old);
}

/// Call-site attributes that stay true when a call becomes a call to the
/// callee's derivative.
static AttributeList derivativeCallAttributes(const CallBase &Call) {
  LLVMContext &C = Call.getContext();
  AttrBuilder AB(C);
  for (Attribute::AttrKind K : {Attribute::NoUnwind, Attribute::Convergent})
    if (Call.hasFnAttr(K))
      AB.addAttribute(K);
  return AttributeList::get(C, AttributeList::FunctionIndex, AB);
}

void ForwardEmitter::emitDerivativeCall(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  DerivativeKey K;
  K.Fn = Callee;
  K.Mode = DiffMode::Forward;
  K.Width = Key.Width;
  for (Value *A : Call.args())
    K.Args.push_back(hasShadow(A) ? ArgActivity::Dup : ArgActivity::Const);
  bool NonVoid = !Callee->getReturnType()->isVoidTy();
  K.Ret = NonVoid && hasShadow(&Call) ? ReturnShadow::Shadow
                                      : ReturnShadow::None;
  K.ReturnPrimal = NonVoid;

  Function *DF = Ctx.getOrCreate(K);
  const DerivativeSignature &S = Ctx.signatureOf(*DF);
  B.SetInsertPoint(&Call);
  SmallVector<Value *, 16> Args(S.Type->getNumParams());
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    Args[S.PrimalParam[I]] = A;
    if (S.ShadowParam[I] >= 0)
      Args[S.ShadowParam[I]] = shadowOperand(A, Call);
  }

  CallBase *New;
  if (auto *Inv = dyn_cast<InvokeInst>(&Call)) {
    // The results are unpacked on the normal edge, in a block of their own so
    // that they dominate every use.
    BasicBlock *Normal = Inv->getNormalDest();
    BasicBlock *Cont = BasicBlock::Create(D.getContext(),
                                          Normal->getName() + ".d", &D, Normal);
    BranchInst::Create(Normal, Cont);
    Normal->replacePhiUsesWith(Inv->getParent(), Cont);
    New = B.CreateInvoke(DF, Cont, Inv->getUnwindDest(), Args);
    B.SetInsertPoint(Cont->getTerminator());
  } else {
    // Never a tail call: the derivative may receive this frame's shadow
    // allocas.
    New = B.CreateCall(DF, Args);
  }
  New->setAttributes(derivativeCallAttributes(Call));
  New->setCallingConv(DF->getCallingConv());
  New->setDebugLoc(Call.getDebugLoc());

  Value *Primal = S.primalOf(B, New);
  Value *Shadow = S.shadowOf(B, New);
  replaceCall(Call, Primal);
  if (Primal && Shadow)
    setShadow(Primal, Shadow);
}

void ForwardEmitter::emitHeapCall(CallBase &Call) {
  HeapFn Fn = *classifyHeapCall(Call);
  auto Clone = [&](ArrayRef<std::pair<unsigned, Value *>> Replace) {
    // A throwing allocation (invoke of operator new) becomes a plain call for
    // the shadow; only the primal's exception matters.
    SmallVector<Value *, 4> Args(Call.args());
    for (auto [Idx, V] : Replace)
      Args[Idx] = V;
    CallInst *S = B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(),
                               Args);
    S->setAttributes(Call.getAttributes());
    S->setCallingConv(Call.getCallingConv());
    return S;
  };
  if (isa<InvokeInst>(Call)) {
    // Shadow code must follow the invoke's normal edge.
    BasicBlock *Normal = cast<InvokeInst>(Call).getNormalDest();
    if (!Normal->getSinglePredecessor())
      return fail(Call, "cannot differentiate '" + describe(Call) +
                            "': its normal destination has several "
                            "predecessors");
    B.SetInsertPoint(Normal->getFirstNonPHIIt());
  }
  switch (Fn) {
  case HeapFn::Malloc:
  case HeapFn::AlignedAlloc:
  case HeapFn::Calloc: {
    if (!hasShadow(&Call))
      return;
    Value *Size = Fn == HeapFn::Calloc
                      ? B.CreateMul(Call.getArgOperand(0), Call.getArgOperand(1))
                      : Call.getArgOperand(Fn == HeapFn::AlignedAlloc ? 1 : 0);
    SmallVector<Value *, 4> Lanes;
    for (unsigned Lane = 0; Lane < L.width(); ++Lane) {
      Value *S = Clone({});
      if (Fn != HeapFn::Calloc)
        B.CreateMemSet(S, B.getInt8(0), Size, MaybeAlign());
      Lanes.push_back(S);
    }
    return setShadow(&Call, L.pack(B, Call.getType(), Lanes));
  }
  case HeapFn::Realloc: {
    if (!hasShadow(&Call))
      return;
    Value *Old = shadowPointer(Call.getArgOperand(0), Call);
    SmallVector<Value *, 4> Lanes;
    forEachLane(B, Old, [&](Value *LanePtr, unsigned) {
      Lanes.push_back(Clone({{0, LanePtr}}));
    });
    return setShadow(&Call, L.pack(B, Call.getType(), Lanes));
  }
  case HeapFn::Free: {
    Value *P = Call.getArgOperand(0);
    if (!needsShadow(P))
      return;
    forEachLane(B, shadowPointer(P, Call),
                [&](Value *LanePtr, unsigned) { Clone({{0, LanePtr}}); });
    return;
  }
  case HeapFn::PosixMemalign: {
    Value *Slot = Call.getArgOperand(0);
    if (!needsShadow(Slot))
      return;
    Value *Size = Call.getArgOperand(2);
    PointerType *PtrTy = PointerType::get(D.getContext(), 0);
    forEachLane(B, shadowPointer(Slot, Call), [&](Value *LaneSlot, unsigned) {
      Clone({{0, LaneSlot}});
      B.CreateMemSet(B.CreateLoad(PtrTy, LaneSlot), B.getInt8(0), Size,
                     MaybeAlign());
    });
    return;
  }
  }
}

} // namespace gpuad
