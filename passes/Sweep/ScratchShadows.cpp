//===- ScratchShadows.cpp - Shadows for enzyme_const pointer arguments ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// An argument passed as enzyme_const has no shadow from the caller: the
/// program does not want its derivative.  Its memory may still carry
/// derivatives inside the call: the function stores active values there and
/// reads them back (an LSTM's state), or a pointer may point into it or
/// into differentiated memory (a PHI of the two).  Dropping them would be a
/// wrong derivative of everything computed from them.  Instead the
/// derivative gives the argument a scratch shadow: zeroed heap memory
/// covering the bytes the function reaches through it, from the argument
/// ranges (affine accesses bounded by the trip counts), allocated at entry
/// and freed when the derivative is done.  Its contents -- the argument's
/// own adjoint or tangent -- are dropped, as enzyme_const asks.
///
/// Where the ranges are unknown (a call the analysis does not see into, a
/// loop whose trip count scalar evolution cannot give), the host reserves
/// address space either side of the shadow's middle instead, which the
/// operating system commits, zeroed, page by page as the derivative touches
/// it (TargetHooks::emitReserveAround; 1 TiB either side where the address
/// space allows).  In device code, or on a host that cannot reserve, it is
/// an error naming the argument: pass it with enzyme_dup and a zeroed
/// shadow.
//===----------------------------------------------------------------------===//

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentRangeExpansion.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/ForwardSweep.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"

#define DEBUG_TYPE "gpuad-scratch"

using namespace llvm;

STATISTIC(NumScratchShadows, "enzyme_const arguments given a scratch shadow");

namespace gpuad {

/// Whether the memory a pointer of type tree \p Tree reaches holds integers
/// alone, as far as the type analysis knows (an index table the memory
/// analysis merged with data).  Such memory is its own shadow: shadow
/// structures keep the primal's integers, and no adjoint is added there.
static bool holdsIntegersAlone(const TypeTree &Tree) {
  bool Some = false;
  for (const auto &[Path, C] : Tree.entries()) {
    if (Path.empty())
      continue;
    if (C.kind() != ConcreteType::Integer)
      return false;
    Some = true;
  }
  return Some;
}

void ForwardSweep::giveScratchShadows(ArrayRef<SweepArg> Args) {
  SmallVector<unsigned, 2> Need;
  for (unsigned I = 0; I < Args.size(); ++I)
    if (!Args[I].Shadow && Args[I].Primal->getType()->isPointerTy() &&
        Act->needsShadow(Args[I].Primal))
      Need.push_back(I);
  if (Need.empty())
    return;
  auto Refuse = [&](unsigned I, const Twine &Why) {
    Failed = true;
    // Its uses need a shadow value to go on with (and say nothing more).
    setShadow(Args[I].Primal,
              PoisonValue::get(Batch.shadowType(Args[I].Primal->getType())));
    const Argument *A = Key.Fn->getArg(I);
    std::string Name = A->hasName() ? " '" + A->getName().str() + "'" : "";
    Ctx.diags().error(
        *Key.Fn, DebugLoc(),
        "argument " + Twine(I + 1) + Name + " of '" + Key.Fn->getName() +
            "' is passed as enzyme_const, but derivatives flow through its "
            "memory (values that carry them are stored there and read back, "
            "or a pointer may point into it or into differentiated memory); "
            "gpuad gives such an argument a scratch shadow where it can bound "
            "the bytes the function reaches through it or, on a Linux host, "
            "reserve address space for them, and here it cannot (" +
            Why + "): pass it with enzyme_dup and a zeroed shadow");
  };
  IRBuilder<> EB(&Derivative.getEntryBlock(),
                 Derivative.getEntryBlock().getFirstInsertionPt());
  SmallVector<unsigned, 2> Scratch;
  for (unsigned I : Need) {
    if (holdsIntegersAlone(TI->tree(Args[I].Primal)))
      setShadow(Args[I].Primal, Batch.splat(EB, Args[I].Primal));
    else
      Scratch.push_back(I);
  }
  Need = std::move(Scratch);
  if (Need.empty())
    return;
  if (Ctx.target().isGPU()) {
    for (unsigned I : Need)
      Refuse(I, "device code");
    return;
  }
  // The ranges of the loop-simplified primal (the same for every version).
  PrimalRanges R(Ctx.preprocessor().normalizedForReverse(
                     *Key.Fn, Ctx.restrictParameters(Key)),
                 Ctx.calls());
  Module &M = *Derivative.getParent();
  Type *I64 = Type::getInt64Ty(M.getContext());
  PointerType *Ptr = PointerType::getUnqual(M.getContext());
  FunctionCallee Calloc = M.getOrInsertFunction(
      "calloc", FunctionType::get(Ptr, {I64, I64}, false));
  auto Param = [&](unsigned ArgNo) -> Value * { return Args[ArgNo].Primal; };
  RangeExpander X(EB, Param); // keeps a reference to Param
  for (unsigned I : Need) {
    const std::optional<ArgumentRange> &AR =
        I < R.Ranges.Params.size() ? R.Ranges.Params[I] : std::nullopt;
    if (!R.Ranges.Unknown.empty() || !AR) {
      if (reserveScratchShadow(EB, Args[I].Primal))
        continue;
      Refuse(I, R.Ranges.Unknown.empty()
                    ? "its accesses are not at offsets of the arguments"
                    : R.Ranges.Unknown);
      continue;
    }
    Value *Lo = EB.CreateSExtOrTrunc(X.expand(AR->Lo), I64);
    Value *Hi = EB.CreateSExtOrTrunc(X.expand(AR->Hi), I64);
    // At least one byte: an empty range (no iteration ran) is never read.
    Value *Bytes =
        EB.CreateBinaryIntrinsic(Intrinsic::smax, EB.CreateSub(Hi, Lo),
                                 EB.getInt64(1), nullptr, "scratch.bytes");
    SmallVector<Value *, 4> Lanes;
    for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
      CallInst *Block =
          EB.CreateCall(Calloc, {Bytes, EB.getInt64(1)}, "scratch.shadow");
      ScratchBlocks.push_back({Block, /*Reserved=*/false});
      Lanes.push_back(EB.CreateGEP(EB.getInt8Ty(), Block, EB.CreateNeg(Lo),
                                   Args[I].Primal->getName() + ".scratch"));
    }
    setShadow(Args[I].Primal, Batch.pack(EB, Ptr, Lanes));
    ++NumScratchShadows;
    LLVM_DEBUG(dbgs() << "gpuad: scratch shadow for argument " << I << " of "
                      << Key.Fn->getName() << "\n");
  }
}

bool ForwardSweep::reserveScratchShadow(IRBuilderBase &EB, Value *Primal) {
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
    auto [Block, Middle] = Ctx.target().emitReserveAround(EB);
    if (!Block)
      return false;
    ScratchBlocks.push_back({Block, /*Reserved=*/true});
    Lanes.push_back(Middle);
  }
  setShadow(Primal, Batch.pack(EB, Primal->getType(), Lanes));
  ++NumScratchShadows;
  return true;
}

void ForwardSweep::freeScratchShadows(IRBuilderBase &At,
                                      function_ref<Value *(Value *)> Lookup) {
  if (ScratchBlocks.empty())
    return;
  Module &M = *Derivative.getParent();
  FunctionCallee Free = M.getOrInsertFunction(
      "free",
      FunctionType::get(Type::getVoidTy(M.getContext()),
                        {PointerType::getUnqual(M.getContext())}, false));
  for (const ScratchBlock &S : ScratchBlocks) {
    if (S.Reserved)
      Ctx.target().emitReleaseReserved(At, Lookup(S.Block));
    else
      At.CreateCall(Free, {Lookup(S.Block)});
  }
}

} // namespace gpuad
