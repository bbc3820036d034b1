//===- ForwardEmitter.cpp - Forward-mode (tangent) derivatives ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"
#include "Normalize/RuntimeMemory.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/ParallelRegions.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Rules/ComplexCalls.h"
#include "Rules/DerivativeRules.h"
#include "Rules/MpiCalls.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Sweep/TeamForks.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"

#define DEBUG_TYPE "gpuad-forward"

using namespace llvm;

STATISTIC(NumRuleCalls, "Calls differentiated by a scalar rule, forward mode");

namespace gpuad {

bool ForwardEmitter::run() {
  SmallVector<SweepArg, 8> Args = sweepArguments(Sig);
  Function &Primal = Ctx.preprocessor().normalized(*Key.Fn);
  bool Ok = sweep(Primal, Args, Key.Ret);
  rewriteReturns();
  finishSweep();
  return Ok && !failed() && verifyGenerated("forward");
}

bool ForwardEmitter::wantsShadow(const Value *V) const {
  // Data carries a tangent where it is active; an aggregate that also holds
  // pointers into shadowed memory has a shadow for them in any case.
  return (Act->isData(V) && Act->isActive(V)) || ForwardSweep::wantsShadow(V);
}

void ForwardEmitter::emitData(Instruction &I) {
  if (const DerivativeRule *R = Ctx.calls().scalarRule(I))
    return emitElementwise(I, *R);
  fail(I, "no derivative rule for '" + describe(I) +
              (isa<BinaryOperator>(I) && I.getType()->isIntOrIntVectorTy()
                   ? "' (integer arithmetic on floating-point data)"
                   : "'"));
}

void ForwardEmitter::emitRuleCall(CallBase &Call, const DerivativeRule &Rule) {
  ++NumRuleCalls;
  if (Rule.Kind == RuleKind::MultipleOutputs)
    return emitMultipleOutputs(Call, Rule);
  if (Rule.Kind == RuleKind::Complex)
    return emitComplex(Call, Rule);
  if (hasShadow(&Call))
    emitElementwise(Call, Rule);
}

void ForwardEmitter::emitComplex(CallBase &Call, const DerivativeRule &Rule) {
  std::optional<ComplexCall> CC = matchComplex(Call, Rule);
  if (!CC)
    return;
  if (!hasShadow(&Call))
    return;
  RuleContext R(
      B, CC->partType(),
      [&](unsigned K) {
        return CC->operandPart(B, Call.getArgOperand(CC->argumentOf(K)), K);
      },
      [&] { return &Call; }, Ctx.target());
  setShadow(&Call,
            CC->jvp(
                B, Batch,
                [&](unsigned Arg) { return shadowOf(Call.getArgOperand(Arg)); },
                [&](unsigned Z) { return Rule.ComplexPartials[Z](R); }));
}

void ForwardEmitter::emitElementwise(Instruction &I,
                                     const DerivativeRule &Rule) {
  if (Rule.Kind == RuleKind::ZeroDerivative) {
    setShadow(&I, nullptr);
    return;
  }
  auto *Call = dyn_cast<CallBase>(&I);
  auto Operand = [&](unsigned K) -> Value * {
    return Call ? Call->getArgOperand(K) : I.getOperand(K);
  };
  unsigned NumOps = Call ? Call->arg_size() : I.getNumOperands();
  Type *Ty = I.getType();
  if (NumOps != Rule.NumOperands)
    return fail(I, "'" + describe(I) + "' does not have the " +
                       Twine(Rule.NumOperands) + " operand(s) of '" +
                       Rule.Family + "' that its derivative rule expects");
  Value *Sum = nullptr;
  for (unsigned K = 0; K < Rule.NumOperands && K < NumOps; ++K) {
    Value *T = shadowOf(Operand(K));
    const Partial &P = Rule.Partials[K];
    if (!T || !P.Fn)
      continue;
    RuleContext R(B, Ty, Operand, [&] { return &I; }, Ctx.target());
    Sum = Batch.add(B, Sum, Batch.scale(B, P.Fn(R), T, Ty), Ty);
  }
  setShadow(&I, Sum);
}

void ForwardEmitter::emitMultipleOutputs(CallBase &Call,
                                         const DerivativeRule &Rule) {
  if (Call.arg_size() != Rule.NumOperands)
    return fail(Call, "'" + describe(Call) + "' does not have the " +
                          Twine(Rule.NumOperands) + " operand(s) of '" +
                          Rule.Family + "' that its derivative rule expects");
  Value *X = Call.getArgOperand(0);
  Type *Ty = X->getType();
  Value *DX = shadowOf(X);
  // Tangents of returned aggregate elements, combined at the end.
  SmallVector<std::pair<int, Value *>, 2> Elements;
  for (const RuleOutput &Out : Rule.Outputs) {
    if (!Out.Family)
      continue;
    Value *Target = Out.Arg < 0 ? nullptr : Call.getArgOperand(Out.Arg);
    if (Target ? !needsShadow(Target) : !hasShadow(&Call))
      continue;
    // This output's tangent: its family's partial times x's tangent.
    const DerivativeRule *F = findFamily(Out.Family);
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
      T = Batch.scale(B, F->Partials[0].Fn(R), DX, Ty);
    }
    if (Target) {
      Value *Shadow = T ? T : Batch.zero(Ty);
      forEachLane(accessedShadow(Target, Call),
                  [&](Value *LanePtr, unsigned Lane) {
                    B.CreateStore(Batch.extract(B, Shadow, Ty, Lane), LanePtr);
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
  setShadow(
      &Call, Batch.map(B, AggTy, {}, {}, [&](ArrayRef<Value *>, unsigned Lane) {
        Value *Agg = Constant::getNullValue(AggTy);
        for (auto [Index, T] : Elements)
          if (T)
            Agg =
                B.CreateInsertValue(Agg, Batch.extract(B, T, Ty, Lane), Index);
        return Agg;
      }));
}

void ForwardEmitter::emitDerivativeCall(CallBase &Call) {
  Function *DF = Ctx.getOrCreate(calleeKey(Call, DiffMode::Forward));
  const DerivativeSignature &S = Ctx.signatureOf(*DF);
  B.SetInsertPoint(&Call);
  SmallVector<Value *, 16> Args = calleeArgs(Call, S);
  if (isParallelRegion(Call)) {
    // Every thread of a team runs the region's derivative.
    auto None = [](auto &&...) {};
    emitTeamCall(B, parallelRegionLocation(Call), DF, Args, S.PrimalParam[0],
                 S.PrimalParam[1], {}, None, None)
        ->setDebugLoc(Call.getDebugLoc());
    return replaceCall(Call, nullptr);
  }

  CallBase *New = emitReplacementCall(Call, DF, Args);
  Value *Primal = S.primalOf(B, New);
  Value *Shadow = S.shadowOf(B, New);
  replaceCall(Call, Primal);
  if (Primal && Shadow)
    setShadow(Primal, Shadow);
}

void ForwardEmitter::emitMessage(CallBase &Call, const MpiRoutine &Mpi) {
  if (Mpi.K == MpiRoutine::Complete) {
    emitCompletion(Call, Mpi, /*Reverse=*/false);
    return;
  }
  // The same communication on the shadows, right after the routine.
  if ((Mpi.K != MpiRoutine::Communicate && Mpi.K != MpiRoutine::Post) ||
      Mpi.Tangent.empty())
    return;
  B.SetInsertPoint(Call.getNextNode());
  emitMessageDerivative(
      Call, Mpi, Mpi.Tangent, [](Value *V) { return V; },
      [&](Value *V) { return shadowOperand(V, Call); });
}

void ForwardEmitter::emitMemSet(CallBase &Call) {
  // Bytes set to a constant have a zero derivative.
  auto &MS = cast<MemSetInst>(Call);
  forEachLane(accessedShadow(MS.getRawDest(), Call),
              [&](Value *LaneDst, unsigned) {
                tagLike(*B.CreateMemSet(LaneDst, B.getInt8(0), MS.getLength(),
                                        MS.getDestAlign(), MS.isVolatile()),
                        MS);
              });
}

void ForwardEmitter::emitAtomicRMW(AtomicRMWInst &I) {
  // The same atomic on the shadow: fadd/fsub of tangents, xchg of shadows;
  // the old shadow value is the old value's tangent.
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValOperand();
  Value *ShadowVal = shadowOperand(Val, I);
  Value *SP = accessedShadow(Ptr, I);
  SmallVector<Value *, 4> Lanes;
  forEachLane(SP, [&](Value *LanePtr, unsigned Lane) {
    auto *S = cast<AtomicRMWInst>(I.clone());
    S->setOperand(0, LanePtr);
    S->setOperand(1, Batch.extract(B, ShadowVal, Val->getType(), Lane));
    Lanes.push_back(B.Insert(S));
  });
  setShadow(&I, Batch.pack(B, I.getType(), Lanes));
}

void ForwardEmitter::emitShuffle(CallBase &Call, unsigned Operand) {
  // Linear in the value: the tangent takes the same way between lanes.
  // Every lane that runs the shuffle shuffles its tangent too.
  if (!hasShadow(&Call))
    return;
  Value *V = Call.getArgOperand(Operand);
  if (Call.getType() != V->getType())
    return fail(Call, "cannot differentiate the shuffle '" + describe(Call) +
                          "': its result is not the value it moves");
  Value *S = shadowOperand(V, Call);
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane) {
    auto *T = cast<CallBase>(Call.clone());
    T->setArgOperand(Operand, Batch.extract(B, S, V->getType(), Lane));
    Lanes.push_back(B.Insert(T));
  }
  setShadow(&Call, Batch.pack(B, Call.getType(), Lanes));
}

void ForwardEmitter::rewriteReturns() {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : Derivative)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  for (ReturnInst *RI : Returns) {
    B.SetInsertPoint(RI);
    B.SetCurrentDebugLocation(RI->getDebugLoc());
    freeScratchShadows(B, [](Value *V) { return V; });
    Value *RV = RI->getReturnValue();
    Value *Primal = Sig.ReturnsPrimal ? RV : nullptr;
    Value *Shadow = Sig.ReturnsShadow ? shadowOperand(RV, *RI) : nullptr;
    if (!Sig.ReturnsPrimal && !Sig.ReturnsShadow)
      B.CreateRetVoid();
    else
      B.CreateRet(Sig.packReturn(B, Primal, Shadow));
    RI->eraseFromParent();
  }
}

} // namespace gpuad
