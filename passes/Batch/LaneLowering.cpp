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

#include "Batch/LaneMapping.h"

#include "Batch/Lanes.h"
#include "Core/DerivativeSignature.h"
#include "Requests/DiffRequest.h"
#include "Requests/RequestParser.h"
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

/// The parts of a width-1 derivative's result \p Res, in ResultParts order.
SmallVector<Value *, 4> partsOf(IRBuilderBase &B,
                                const DerivativeSignature &Sig, DiffMode Mode,
                                Value *Res) {
  SmallVector<Value *, 4> Out;
  if (Mode == DiffMode::Forward) {
    if (Value *P = Sig.primalOf(B, Res))
      Out.push_back(P);
    if (Value *S = Sig.shadowOf(B, Res))
      Out.push_back(S);
    return Out;
  }
  if (Sig.ReturnsPrimal)
    Out.push_back(Sig.AdjointArgs.empty() ? Res : B.CreateExtractValue(Res, 0));
  for (unsigned K = 0; K < Sig.AdjointArgs.size(); ++K)
    Out.push_back(Sig.adjointOf(B, Res, K));
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

} // namespace

SmallVector<Value *, 4> emitLaneMapped(
    IRBuilderBase &B, const DiffRequest &Req, const LanePlan &Plan,
    ResultParts Parts,
    function_ref<SmallVector<Value *, 4>(IRBuilderBase &)> VectorForm,
    TargetHooks &Target) {
  LLVMContext &C = B.getContext();
  const unsigned N = Plan.Width;
  BasicBlock *Pre = B.GetInsertBlock();
  Function *Caller = Pre->getParent();
  BasicBlock *Join = Pre->splitBasicBlock(B.GetInsertPoint(), "lanes.join");
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);

  // The group: N lanes from a multiple of N; the lanes after the warp's
  // last whole group have none.
  Value *Lane = Target.emitLaneIndex(B);
  Value *Base =
      B.CreateMul(B.CreateUDiv(Lane, B.getInt32(N)), B.getInt32(N), "lanes.base");
  Value *InGroup = B.CreateSub(Lane, Base, "lanes.l");
  uint64_t Bits = N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  Value *GroupMask =
      B.CreateShl(B.getInt64(Bits), B.CreateZExt(Base, B.getInt64Ty()));
  Value *SelfMask =
      B.CreateShl(B.getInt64(1), B.CreateZExt(Lane, B.getInt64Ty()));
  Value *Whole = B.CreateICmpULE(B.CreateAdd(Base, B.getInt32(N)),
                                 B.getInt32(Target.warpSize()));

  auto *LoopPre = BasicBlock::Create(C, "lanes.pre", Caller, Join);
  auto *NotConverged = BasicBlock::Create(C, "lanes.alone", Caller, LoopPre);
  SmallVector<std::pair<BasicBlock *, bool>, 3> Entries; // (block, in lanes)
  if (Plan.SerialOnly) {
    B.CreateBr(LoopPre);
    Entries.push_back({Pre, false});
  } else {
    Value *Active = Target.emitActiveLanes(B);
    Value *Converged = B.CreateAnd(
        Whole, B.CreateICmpEQ(B.CreateAnd(Active, GroupMask), GroupMask));
    auto *Check = BasicBlock::Create(C, "lanes.check", Caller, NotConverged);
    B.CreateCondBr(Converged, Check, NotConverged);
    B.SetInsertPoint(Check);
    if (Value *Private = anyPrivate(B, Req, GroupMask, Target))
      B.CreateCondBr(Private, NotConverged, LoopPre);
    else
      B.CreateBr(LoopPre);
    Entries.push_back({Check, true});
  }

  // The fallback of a group that lanes cannot serve.
  SmallVector<Value *, 4> VectorParts;
  B.SetInsertPoint(NotConverged);
  if (Plan.SerialOnly) {
    B.CreateUnreachable();
  } else if (Plan.Replayable) {
    B.CreateBr(LoopPre);
    Entries.push_back({NotConverged, false});
  } else {
    VectorParts = VectorForm(B);
    B.CreateBr(Join);
  }
  if (Plan.SerialOnly)
    NotConverged->eraseFromParent();

  B.SetInsertPoint(LoopPre);
  PHINode *InLanes = B.CreatePHI(B.getInt1Ty(), Entries.size(), "lanes.on");
  for (auto [From, On] : Entries)
    InLanes->addIncoming(B.getInt1(On), From);
  Value *Mask = B.CreateSelect(InLanes, GroupMask, SelfMask);
  Value *Leader = B.CreateSelect(InLanes, Base, Lane);
  auto *Loop = BasicBlock::Create(C, "lanes.round", Caller, Join);
  auto *Exit = BasicBlock::Create(C, "lanes.done", Caller, Join);
  B.CreateBr(Loop);

  // The round: thread Src's arguments, direction Dir.
  B.SetInsertPoint(Loop);
  PHINode *It = B.CreatePHI(B.getInt32Ty(), 2, "lanes.r");
  SmallVector<SmallVector<PHINode *, 8>, 4> Res(Parts.size());
  for (unsigned I = 0; I < Parts.size(); ++I)
    for (unsigned K = 0; K < Parts[I].second; ++K)
      Res[I].push_back(B.CreatePHI(Parts[I].first, 2));
  Value *Src =
      B.CreateSelect(InLanes, B.CreateAdd(Base, It), Lane, "lanes.src");
  Value *Dir = B.CreateSelect(InLanes, InGroup, It, "lanes.dir");
  const DerivativeSignature &Sig = *Plan.Sig;
  SmallVector<Value *, 16> Args(Plan.Variant->arg_size());
  SmallVector<unsigned, 16> Slots;
  SmallVector<Value *, 16> Read =
      onlyInLanes(B, InLanes, [&](IRBuilderBase &RB, bool InGroupLanes) {
        auto From = [&](Value *V) {
          return InGroupLanes ? Target.emitReadLane(RB, V, Src, Mask) : V;
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
  for (unsigned I = 0; I < Read.size(); ++I)
    Args[Slots[I]] = Read[I];
  Args[Args.size() - 2] = Mask;
  Args[Args.size() - 1] = Leader;
  Value *Result = B.CreateCall(Plan.Variant, Args);
  SmallVector<Value *, 4> Computed = partsOf(B, Sig, Req.Key.Mode, Result);

  // Thread Src keeps what the round computed for it: per part and
  // direction, the value and whether this thread keeps it.
  SmallVector<SmallVector<Value *, 8>, 4> Next(Parts.size());
  SmallVector<Value *, 16> Got =
      onlyInLanes(B, InLanes, [&](IRBuilderBase &RB, bool InGroupLanes) {
        SmallVector<Value *, 16> Values;
        Value *Mine = RB.CreateICmpEQ(Lane, Src);
        for (unsigned I = 0; I < Parts.size(); ++I)
          for (unsigned K = 0; K < Parts[I].second; ++K) {
            bool Primal = Parts[I].second == 1;
            if (InGroupLanes) {
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
  for (unsigned I = 0, At = 0; I < Parts.size(); ++I)
    for (unsigned K = 0; K < Parts[I].second; ++K, At += 2)
      Next[I].push_back(B.CreateSelect(Got[At + 1], Got[At], Res[I][K]));
  Value *NextIt = B.CreateAdd(It, B.getInt32(1));
  B.CreateCondBr(B.CreateICmpULT(NextIt, B.getInt32(N)), Loop, Exit);
  It->addIncoming(B.getInt32(0), LoopPre);
  BasicBlock *Latch = B.GetInsertBlock();
  It->addIncoming(NextIt, Latch);
  for (unsigned I = 0; I < Parts.size(); ++I)
    for (unsigned K = 0; K < Parts[I].second; ++K) {
      Res[I][K]->addIncoming(PoisonValue::get(Parts[I].first), LoopPre);
      Res[I][K]->addIncoming(Next[I][K], Latch);
    }

  B.SetInsertPoint(Exit);
  SmallVector<Value *, 4> LaneParts;
  for (unsigned I = 0; I < Parts.size(); ++I) {
    SmallVector<Value *, 8> PerDir(Next[I].begin(), Next[I].end());
    LaneParts.push_back(Parts[I].second == 1
                            ? PerDir[0]
                            : Lanes(N).pack(B, Parts[I].first, PerDir));
  }
  B.CreateBr(Join);

  B.SetInsertPoint(Join, Join->getFirstInsertionPt());
  if (VectorParts.empty())
    return LaneParts;
  SmallVector<Value *, 4> Out;
  for (unsigned I = 0; I < Parts.size(); ++I) {
    PHINode *Phi = B.CreatePHI(LaneParts[I]->getType(), 2);
    Phi->addIncoming(LaneParts[I], Exit);
    Phi->addIncoming(VectorParts[I], NotConverged);
    Out.push_back(Phi);
  }
  return Out;
}

} // namespace gpuad
