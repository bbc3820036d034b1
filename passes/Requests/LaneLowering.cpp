//===- LaneLowering.cpp - A width-N request computed by a lane group ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The code at a lane-mapped request (Batch/LaneMapping.h).  A group is the
/// N lanes from a multiple of N (a width that does not divide the warp
/// leaves its last lanes without one).  One loop serves two forms:
///   - lanes: round r serves the group's thread r; every lane reads thread
///     r's arguments, lane l computes direction l, thread r reads the N
///     results back;
///   - one after another: a thread alone computes direction r in round r.
/// A whole group all active at the request whose pointers are not private
/// memory takes the first; the others the second if the plan is
/// replayable, else the vector form.  Every lane of a group runs the same
/// code: no lane idles while the others compute.
//===----------------------------------------------------------------------===//

#include "Planner/LaneMapping.h"

#include "Planner/DiffRequest.h"
#include "Requests/RequestParser.h"
#include "Support/DerivativeSignature.h"
#include "Support/Lanes.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

namespace {

/// Direction \p Dir's shadow of argument \p AR (type \p Ty) as the thread
/// \p Read takes values from holds it.
Value *shadowFor(IRBuilderBase &B, const ArgRequest &AR, Type *Ty, Value *Dir,
                 unsigned Width, function_ref<Value *(Value *)> Read) {
  if (AR.DupVBase) {
    Value *Base = Read(coerceArgument(B, AR.DupVBase, Ty));
    Value *Stride = Read(B.CreateSExtOrTrunc(AR.DupVStride, B.getInt64Ty()));
    return B.CreateGEP(B.getInt8Ty(), Base,
                       B.CreateMul(Stride, B.CreateZExt(Dir, B.getInt64Ty())),
                       "lanes.dupv");
  }
  Value *S = Read(coerceArgument(B, AR.Shadows[0], Ty));
  for (unsigned K = 1; K < Width; ++K)
    S = B.CreateSelect(B.CreateICmpEQ(Dir, B.getInt32(K)),
                       Read(coerceArgument(B, AR.Shadows[K], Ty)), S);
  return S;
}

/// Emits \p Read where \p InLanes holds (the warp reads of the lane form)
/// and \p Own otherwise (a thread alone has its values); returns the
/// merged values.
SmallVector<Value *, 16> onlyInLanes(
    IRBuilderBase &B, Value *InLanes,
    function_ref<SmallVector<Value *, 16>(IRBuilderBase &, bool)> Emit) {
  LLVMContext &C = B.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  auto *Read = BasicBlock::Create(C, "lanes.read", F);
  auto *Own = BasicBlock::Create(C, "lanes.own", F);
  auto *Merge = BasicBlock::Create(C, "lanes.merged", F);
  B.CreateCondBr(InLanes, Read, Own);
  SmallVector<SmallVector<Value *, 16>, 2> Values;
  SmallVector<BasicBlock *, 2> Ends;
  for (auto [Block, Lanes] : {std::pair(Read, true), std::pair(Own, false)}) {
    B.SetInsertPoint(Block);
    Values.push_back(Emit(B, Lanes));
    Ends.push_back(B.GetInsertBlock());
    B.CreateBr(Merge);
  }
  B.SetInsertPoint(Merge);
  SmallVector<Value *, 16> Out;
  for (unsigned I = 0; I < Values[0].size(); ++I) {
    PHINode *Phi = B.CreatePHI(Values[0][I]->getType(), 2);
    Phi->addIncoming(Values[0][I], Ends[0]);
    Phi->addIncoming(Values[1][I], Ends[1]);
    Out.push_back(Phi);
  }
  return Out;
}

/// Whether some pointer the request passes is private memory in some lane of
/// the group (then no other lane can read it).
Value *anyPrivate(IRBuilderBase &B, const DiffRequest &Req, Value *GroupMask,
                  TargetHooks &Target) {
  Value *Any = B.getFalse();
  for (const ArgRequest &AR : Req.Args) {
    SmallVector<Value *, 6> Pointers = {AR.Primal, AR.DupVBase};
    Pointers.append(AR.Shadows.begin(), AR.Shadows.end());
    for (Value *P : Pointers)
      if (P && P->getType()->isPointerTy())
        Any = B.CreateOr(Any, Target.emitIsPrivate(B, P));
  }
  if (isa<Constant>(Any) && cast<Constant>(Any)->isNullValue())
    return nullptr;
  return Target.emitAnyLane(B, Any, GroupMask);
}

/// The lane form at one request: the group, the choice of form, the rounds.
class LaneLowering {
public:
  LaneLowering(IRBuilderBase &B, const DiffRequest &Req, const LanePlan &Plan,
               ResultParts Parts, TargetHooks &Target)
      : B(B), Req(Req), Plan(Plan), Parts(Parts), Target(Target),
        N(Plan.Width) {}

  SmallVector<Value *, 4>
  run(function_ref<SmallVector<Value *, 4>(IRBuilderBase &)> VectorForm) {
    BasicBlock *Pre = B.GetInsertBlock();
    Caller = Pre->getParent();
    Join = Pre->splitBasicBlock(B.GetInsertPoint(), "lanes.join");
    Pre->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Pre);
    emitGroup();
    BasicBlock *LoopPre = emitDispatch(VectorForm);
    SmallVector<Value *, 4> LaneParts = emitRounds(LoopPre);
    B.SetInsertPoint(Join, Join->getFirstInsertionPt());
    if (VectorParts.empty())
      return LaneParts;
    SmallVector<Value *, 4> Out;
    for (unsigned I = 0; I < Parts.size(); ++I) {
      PHINode *Phi = B.CreatePHI(LaneParts[I]->getType(), 2);
      Phi->addIncoming(LaneParts[I], Done);
      Phi->addIncoming(VectorParts[I], VectorEnd);
      Out.push_back(Phi);
    }
    return Out;
  }

private:
  /// The group: N lanes from a multiple of N; the lanes after the warp's
  /// last whole group have none.
  void emitGroup() {
    Lane = Target.emitLaneIndex(B);
    Base = B.CreateMul(B.CreateUDiv(Lane, B.getInt32(N)), B.getInt32(N),
                       "lanes.base");
    InGroup = B.CreateSub(Lane, Base, "lanes.l");
    uint64_t Bits = N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
    GroupMask =
        B.CreateShl(B.getInt64(Bits), B.CreateZExt(Base, B.getInt64Ty()));
    SelfMask = B.CreateShl(B.getInt64(1), B.CreateZExt(Lane, B.getInt64Ty()));
  }

  /// Branches to the rounds (in lanes, or alone) or to the vector form;
  /// returns the rounds' preheader, where InLanes says which.
  BasicBlock *
  emitDispatch(function_ref<SmallVector<Value *, 4>(IRBuilderBase &)> Vector) {
    LLVMContext &C = B.getContext();
    auto *LoopPre = BasicBlock::Create(C, "lanes.pre", Caller, Join);
    SmallVector<std::pair<BasicBlock *, bool>, 3> Entries; // (from, in lanes)
    if (Plan.SerialOnly) {
      B.CreateBr(LoopPre);
      Entries.push_back({B.GetInsertBlock(), false});
    } else {
      auto *Alone = BasicBlock::Create(C, "lanes.alone", Caller, LoopPre);
      auto *Check = BasicBlock::Create(C, "lanes.check", Caller, Alone);
      Value *Whole = B.CreateICmpULE(B.CreateAdd(Base, B.getInt32(N)),
                                     B.getInt32(Target.warpSize()));
      Value *Active = Target.emitActiveLanes(B);
      Value *Converged = B.CreateAnd(
          Whole, B.CreateICmpEQ(B.CreateAnd(Active, GroupMask), GroupMask));
      B.CreateCondBr(Converged, Check, Alone);
      B.SetInsertPoint(Check);
      if (Value *Private = anyPrivate(B, Req, GroupMask, Target))
        B.CreateCondBr(Private, Alone, LoopPre);
      else
        B.CreateBr(LoopPre);
      Entries.push_back({Check, true});
      // A group lanes cannot serve: alone if that is the same, else vectors.
      B.SetInsertPoint(Alone);
      if (Plan.Replayable) {
        B.CreateBr(LoopPre);
        Entries.push_back({Alone, false});
      } else {
        VectorParts = Vector(B);
        VectorEnd = B.GetInsertBlock();
        B.CreateBr(Join);
      }
    }
    B.SetInsertPoint(LoopPre);
    InLanes = B.CreatePHI(B.getInt1Ty(), Entries.size(), "lanes.on");
    for (auto [From, On] : Entries)
      InLanes->addIncoming(B.getInt1(On), From);
    return LoopPre;
  }

  /// The N rounds; returns the parts, width-N ones in Batch/Lanes' form.
  SmallVector<Value *, 4> emitRounds(BasicBlock *LoopPre) {
    LLVMContext &C = B.getContext();
    Mask = B.CreateSelect(InLanes, GroupMask, SelfMask);
    Value *Leader = B.CreateSelect(InLanes, Base, Lane);
    auto *Loop = BasicBlock::Create(C, "lanes.round", Caller, Join);
    Done = BasicBlock::Create(C, "lanes.done", Caller, Join);
    B.CreateBr(Loop);

    // Round It: thread Src's arguments, direction Dir.
    B.SetInsertPoint(Loop);
    PHINode *It = B.CreatePHI(B.getInt32Ty(), 2, "lanes.r");
    SmallVector<SmallVector<PHINode *, 8>, 4> Res(Parts.size());
    for (unsigned I = 0; I < Parts.size(); ++I)
      for (unsigned K = 0; K < Parts[I].second; ++K)
        Res[I].push_back(B.CreatePHI(Parts[I].first, 2));
    Src = B.CreateSelect(InLanes, B.CreateAdd(Base, It), Lane, "lanes.src");
    Dir = B.CreateSelect(InLanes, InGroup, It, "lanes.dir");
    SmallVector<Value *, 16> Args = readArguments();
    Args.push_back(Mask);
    Args.push_back(Leader);
    Value *Result = B.CreateCall(Plan.Variant, Args);
    SmallVector<Value *, 4> Computed =
        Plan.Sig->resultsOf(B, Result, Req.Key.Mode == DiffMode::Forward);

    SmallVector<SmallVector<Value *, 8>, 4> Next = keep(Computed, Res);
    Value *NextIt = B.CreateAdd(It, B.getInt32(1));
    B.CreateCondBr(B.CreateICmpULT(NextIt, B.getInt32(N)), Loop, Done);
    BasicBlock *Latch = B.GetInsertBlock();
    It->addIncoming(B.getInt32(0), LoopPre);
    It->addIncoming(NextIt, Latch);
    for (unsigned I = 0; I < Parts.size(); ++I)
      for (unsigned K = 0; K < Parts[I].second; ++K) {
        Res[I][K]->addIncoming(PoisonValue::get(Parts[I].first), LoopPre);
        Res[I][K]->addIncoming(Next[I][K], Latch);
      }

    B.SetInsertPoint(Done);
    SmallVector<Value *, 4> LaneParts;
    for (unsigned I = 0; I < Parts.size(); ++I)
      LaneParts.push_back(Parts[I].second == 1
                              ? Next[I][0]
                              : Lanes(N).pack(B, Parts[I].first, Next[I]));
    B.CreateBr(Join);
    return LaneParts;
  }

  /// The lane variant's arguments for thread Src, direction Dir (its first
  /// parameters, in order).
  SmallVector<Value *, 16> readArguments() {
    const DerivativeSignature &Sig = *Plan.Sig;
    SmallVector<unsigned, 16> Slots;
    SmallVector<Value *, 16> Read =
        onlyInLanes(B, InLanes, [&](IRBuilderBase &RB, bool FromGroup) {
          auto From = [&](Value *V) {
            return FromGroup ? Target.emitReadLane(RB, V, Src, Mask) : V;
          };
          SmallVector<Value *, 16> Values;
          Slots.clear();
          for (unsigned I = 0; I < Req.Args.size(); ++I) {
            const ArgRequest &AR = Req.Args[I];
            Type *Ty = Req.Key.Fn->getArg(I)->getType();
            Values.push_back(From(coerceArgument(RB, AR.Primal, Ty)));
            Slots.push_back(Sig.PrimalParam[I]);
            if (Sig.ShadowParam[I] < 0)
              continue;
            Values.push_back(shadowFor(RB, AR, Ty, Dir, N, From));
            Slots.push_back(Sig.ShadowParam[I]);
          }
          return Values;
        });
    SmallVector<Value *, 16> Args(Plan.Variant->arg_size() - 2);
    for (unsigned I = 0; I < Read.size(); ++I)
      Args[Slots[I]] = Read[I];
    return Args;
  }

  /// Thread Src keeps what the round computed for it: each part's values
  /// after the round, direction by direction (\p Res: before it).
  SmallVector<SmallVector<Value *, 8>, 4>
  keep(ArrayRef<Value *> Computed, ArrayRef<SmallVector<PHINode *, 8>> Res) {
    // Per part and direction: the value, and whether this thread keeps it.
    SmallVector<Value *, 16> Got =
        onlyInLanes(B, InLanes, [&](IRBuilderBase &RB, bool FromGroup) {
          SmallVector<Value *, 16> Values;
          Value *Mine = RB.CreateICmpEQ(Lane, Src);
          for (unsigned I = 0; I < Parts.size(); ++I)
            for (unsigned K = 0; K < Parts[I].second; ++K) {
              bool Primal = Parts[I].second == 1;
              if (FromGroup) {
                Value *From = RB.CreateAdd(Base, RB.getInt32(Primal ? 0 : K));
                Values.push_back(
                    Target.emitReadLane(RB, Computed[I], From, Mask));
                Values.push_back(Mine);
              } else {
                Values.push_back(Computed[I]);
                Values.push_back(Primal ? RB.getTrue()
                                        : RB.CreateICmpEQ(Dir, RB.getInt32(K)));
              }
            }
          return Values;
        });
    SmallVector<SmallVector<Value *, 8>, 4> Next(Parts.size());
    for (unsigned I = 0, At = 0; I < Parts.size(); ++I)
      for (unsigned K = 0; K < Parts[I].second; ++K, At += 2)
        Next[I].push_back(B.CreateSelect(Got[At + 1], Got[At], Res[I][K]));
    return Next;
  }

  IRBuilderBase &B;
  const DiffRequest &Req;
  const LanePlan &Plan;
  ResultParts Parts;
  TargetHooks &Target;
  const unsigned N;
  Function *Caller = nullptr;
  BasicBlock *Join = nullptr, *Done = nullptr, *VectorEnd = nullptr;
  Value *Lane = nullptr, *Base = nullptr, *InGroup = nullptr;
  Value *GroupMask = nullptr, *SelfMask = nullptr, *Mask = nullptr;
  PHINode *InLanes = nullptr;
  Value *Src = nullptr, *Dir = nullptr;
  SmallVector<Value *, 4> VectorParts;
};

} // namespace

SmallVector<Value *, 4> emitLaneMapped(
    IRBuilderBase &B, const DiffRequest &Req, const LanePlan &Plan,
    ResultParts Parts,
    function_ref<SmallVector<Value *, 4>(IRBuilderBase &)> VectorForm,
    TargetHooks &Target) {
  return LaneLowering(B, Req, Plan, Parts, Target).run(VectorForm);
}

} // namespace gpuad
