//===- ReverseCalls.cpp - Calls to defined functions in reverse mode ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A call to a defined function is differentiated in split form: the
/// forward sweep calls the callee's augmented half, which runs the callee
/// and returns its tape; the reverse sweep calls the backward half with the
/// same arguments (as they were at the call), the adjoint of the result and
/// that tape, and adds the adjoints it returns to the arguments'.  The
/// callee's tape is an ordinary forward value to the caller's Tape: kept in
/// a register, or cached per iteration when the call is in a loop.  A
/// parallel region's halves each run in a team (Sweep/TeamForks.h).
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/ParallelRegions.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Sweep/TeamForks.h"
#include "Tape/Tape.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

void ReverseEmitter::emitDerivativeCall(CallBase &Call) {
  // An invoke becomes an invoke of the augmented half; the unwind path does
  // not reach the return and has no reverse (exceptions thrown through a
  // derivative end it).
  DerivativeKey K = calleeKey(Call, DiffMode::ReverseAugmented);
  for (const Use &A : Call.args())
    K.Overwritten.push_back(!A->getType()->isPointerTy() ||
                            overwrittenAfterCall(Call, A.get()));
  SplitHalves H = Ctx.getSplit(K);
  const DerivativeSignature &S = Ctx.signatureOf(*H.Augmented);
  if (isParallelRegion(Call))
    return emitTeamAugmented(Call, H, calleeArgs(Call, S));
  CallBase *Aug = emitReplacementCall(Call, H.Augmented, calleeArgs(Call, S));
  Value *Primal = S.field(B, Aug, S.PrimalField);
  Value *Shadow = S.field(B, Aug, S.ShadowField);
  AugCall &AC = AugCalls[Aug];
  AC = {H.Backward,
        S.field(B, Aug, S.TapeField),
        Primal,
        {},
        Ctx.argumentWrites().writtenGlobals(Call)};
  SmallBitVector Written = Ctx.argumentWrites().writtenArguments(Call);
  for (unsigned K : Written.set_bits())
    AC.WrittenOperands.push_back(S.PrimalParam[K]);
  replaceCall(Call, Primal);
  if (Primal && Shadow)
    setShadow(Primal, Shadow);
}

void ReverseEmitter::reverseDerivativeCall(CallBase &Aug) {
  const AugCall &AC = AugCalls.find(&Aug)->second;
  if (AC.TeamLoc)
    return reverseTeamCall(AC);
  const DerivativeSignature &S = Ctx.signatureOf(*AC.Backward);
  // The backward half's leading parameters are the augmented half's.
  SmallVector<Value *, 16> Args(S.Type->getNumParams());
  for (unsigned P = 0; P < Aug.arg_size(); ++P)
    Args[P] = lookup(Aug.getArgOperand(P));
  if (S.SeedParam >= 0)
    Args[S.SeedParam] = Adj->take(B, AC.Result);
  if (S.TapeParam >= 0)
    Args[S.TapeParam] = lookup(AC.Tape);
  CallInst *Bwd = B.CreateCall(AC.Backward, Args);
  Bwd->setAttributes(Aug.getAttributes());
  Bwd->setCallingConv(AC.Backward->getCallingConv());
  for (auto [K, ArgNo] : enumerate(S.AdjointArgs))
    addAdjoint(Aug.getArgOperand(S.PrimalParam[ArgNo]), S.adjointOf(B, Bwd, K));
}

/// A tape's slot in the team record: its size rounded to 8 bytes, and the
/// alignment its accesses may claim.
static std::pair<uint64_t, Align> teamSlot(Type *TapeTy, const DataLayout &DL) {
  if (!TapeTy)
    return {0, Align(1)};
  return {alignTo(DL.getTypeAllocSize(TapeTy), 8),
          std::min(DL.getABITypeAlign(TapeTy), Align(8))};
}

void ReverseEmitter::emitTeamAugmented(CallBase &Call, const SplitHalves &H,
                                       ArrayRef<Value *> Args) {
  const DerivativeSignature &S = Ctx.signatureOf(*H.Augmented);
  Module &M = *Derivative.getParent();
  Type *Ptr = B.getPtrTy();
  Type *TapeTy = S.tapeType();
  auto [SlotBytes, SlotAlign] = teamSlot(TapeTy, M.getDataLayout());
  B.SetInsertPoint(&Call);
  Value *Team = B.CreateCall(
      M.getOrInsertFunction("gpuad_omp_team_begin", Ptr, B.getInt64Ty()),
      {B.getInt64(SlotBytes)}, "omp.team");
  FunctionCallee Slot =
      M.getOrInsertFunction("gpuad_omp_team_slot", Ptr, Ptr, B.getInt32Ty());
  Value *Loc = parallelRegionLocation(Call);
  // Every thread files its tape under its index (and the team's size).
  CallInst *Fork = emitTeamCall(
      B, Loc, H.Augmented, Args, S.PrimalParam[0], S.PrimalParam[1], {Team},
      [](IRBuilderBase &, Value *, ArrayRef<Value *>,
         MutableArrayRef<Value *>) {},
      [&](IRBuilderBase &W, Value *Index, ArrayRef<Value *> Along,
          CallInst *Result) {
        Value *At = W.CreateCall(Slot, {Along[0], Index});
        if (TapeTy)
          W.CreateAlignedStore(S.field(W, Result, S.TapeField), At, SlotAlign);
      });
  Fork->setDebugLoc(Call.getDebugLoc());
  AugCall &AC = AugCalls[Fork];
  AC.Backward = H.Backward;
  AC.Tape = Team;
  AC.Result = nullptr;
  AC.Globals = Ctx.argumentWrites().writtenGlobals(Call);
  AC.TeamLoc = Loc;
  for (Value *A : Args)
    AC.TeamArgs.emplace_back(A);
  SmallBitVector Written = Ctx.argumentWrites().writtenArguments(Call);
  for (unsigned K : Written.set_bits())
    AC.TeamWritten.emplace_back(Call.getArgOperand(K));
  replaceCall(Call, nullptr);
}

void ReverseEmitter::reverseTeamCall(const AugCall &AC) {
  const DerivativeSignature &S = Ctx.signatureOf(*AC.Backward);
  Module &M = *Derivative.getParent();
  Type *Ptr = B.getPtrTy();
  unsigned Gtid = S.PrimalParam[0], Btid = S.PrimalParam[1];
  SmallVector<Value *, 16> Args(S.Type->getNumParams());
  for (auto [P, A] : enumerate(AC.TeamArgs))
    if (P != Gtid && P != Btid)
      Args[P] = lookup(A);
  Value *Team = lookup(AC.Tape);
  // The adjoints of float arguments: each thread's, summed in cells.
  SmallVector<Type *, 4> AdjointTypes;
  unsigned Fields = S.ReturnsPrimal + S.AdjointArgs.size();
  for (unsigned K = 0; K < S.AdjointArgs.size(); ++K)
    AdjointTypes.push_back(Fields == 1
                               ? S.Type->getReturnType()
                               : S.Type->getReturnType()->getStructElementType(
                                     S.ReturnsPrimal + K));
  StructType *CellsTy = StructType::get(Derivative.getContext(), AdjointTypes);
  Value *Cells = nullptr;
  if (!AdjointTypes.empty()) {
    IRBuilder<> Entry(&Derivative.getEntryBlock(),
                      Derivative.getEntryBlock().getFirstInsertionPt());
    Cells = Entry.CreateAlloca(CellsTy, nullptr, "omp.team.adjoints");
    B.CreateStore(Constant::getNullValue(CellsTy), Cells);
  }
  Type *TapeTy = S.tapeType();
  Align SlotAlign = teamSlot(TapeTy, M.getDataLayout()).second;
  B.CreateCall(
      M.getOrInsertFunction("gpuad_omp_team_push", B.getVoidTy(), Ptr, Ptr),
      {Team, AC.TeamLoc});
  FunctionCallee Check =
      M.getOrInsertFunction("gpuad_omp_team_check", B.getVoidTy(), Ptr);
  FunctionCallee Slot =
      M.getOrInsertFunction("gpuad_omp_team_slot", Ptr, Ptr, B.getInt32Ty());
  SmallVector<Value *, 2> Along{Team};
  if (Cells)
    Along.push_back(Cells);
  emitTeamCall(
      B, AC.TeamLoc, AC.Backward, Args, Gtid, Btid, Along,
      [&](IRBuilderBase &W, Value *Index, ArrayRef<Value *> Seen,
          MutableArrayRef<Value *> CallArgs) {
        W.CreateCall(Check, {Seen[0]});
        if (S.TapeParam >= 0)
          CallArgs[S.TapeParam] = W.CreateAlignedLoad(
              TapeTy, W.CreateCall(Slot, {Seen[0], Index}), SlotAlign);
      },
      [&](IRBuilderBase &W, Value *, ArrayRef<Value *> Seen, CallInst *Result) {
        for (unsigned K = 0; K < AdjointTypes.size(); ++K)
          Ctx.target().emitAccumulate(W, W.CreateStructGEP(CellsTy, Seen[1], K),
                                      S.adjointOf(W, Result, K), MaybeAlign(),
                                      /*ThreadPrivate=*/false);
      });
  B.CreateCall(M.getOrInsertFunction("gpuad_omp_team_end", B.getVoidTy(), Ptr),
               {Team});
  for (auto [K, ArgNo] : enumerate(S.AdjointArgs))
    addAdjoint(
        AC.TeamArgs[S.PrimalParam[ArgNo]],
        B.CreateLoad(AdjointTypes[K], B.CreateStructGEP(CellsTy, Cells, K)));
}

} // namespace gpuad
