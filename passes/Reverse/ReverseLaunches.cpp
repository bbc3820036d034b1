//===- ReverseLaunches.cpp - Adjoints of kernel launches ------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Reverse mode runs a launch's adjoint kernel (the kernel's combined
/// reverse derivative: it runs the kernel again, keeping its tape per thread,
/// then its reverse) at the launch's place in the reverse sweep, with the
/// same configuration, on the same stream.  That kernel must see device
/// memory as it was before the launch, which later launches, copies and the
/// launch itself have overwritten.  So:
///
///   - forward sweep, before the launch: each allocation a pointer argument
///     points into is copied to a new device block (the device-side tape of
///     the memory the launch reads; the driver's address-range query finds
///     the allocation);
///   - reverse sweep: the adjoint kernel runs on the copy (pointer arguments
///     into a copied allocation are moved to the same offset in it), which
///     its re-run of the kernel may overwrite; then the copy is freed.
///
/// Since every launch reads only its own copies, the primal memory is never
/// written back: after the reverse sweep it holds what the primal left, as
/// host memory does.  Launches no derivative flows through keep nothing.
/// A float argument's adjoint is summed per thread into a device cell and
/// added to the host's adjoint after the launch; so are the floats of an
/// aggregate argument (a struct by value), whose shadow the adjoint kernel
/// takes with its pointers' shadows and its floats zero.  The reverse sweep
/// waits for each adjoint kernel on its stream, so the host code after it
/// (copies, the next launch's copies) sees its adjoints.  Device memory the
/// primal frees stays until the reverse sweep ends (adjoint kernels still read
/// it).
///
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Rules/CallTable.h"
#include "Support/GpuRuntimeApi.h"
#include "Sweep/LaunchSweep.h"
#include "Sweep/SweepPlanner.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumAdjointLaunches, "Adjoint kernel launches emitted");
STATISTIC(NumLaunchCopies,
          "Allocations copied before a launch for its adjoint");

namespace gpuad {

void ReverseEmitter::emitKernelLaunch(KernelLaunch &L) {
  CallBase &Call = L.call();
  if (!launchNeedsDerivative(L))
    return;
  IRBuilder<> At(&Call);
  GpuRuntimeApi Runtime(*Call.getModule(), L.api());
  SmallVector<DeviceCopy, 4> &Copies = LaunchCopies[&Call];
  SmallPtrSet<Value *, 8> Seen;
  unsigned Kept = 0;
  for (unsigned K = 0; K < L.numArgs(); ++K) {
    Value *P = L.arg(K);
    if (L.paramKind(K) != LaunchParam::Pointer || isa<Constant>(P) ||
        !Seen.insert(P).second)
      continue;
    // Memory the kernel only reads and nothing writes later is read where
    // it is.
    ++Kept;
    if (L.readsOnly(K) && !mayBeWrittenAfter(Call, P) &&
        (!Split || survivesUntilBackward(P)))
      continue;
    ++NumLaunchCopies;
    Copies.push_back(copyAllocation(At, Runtime, P, L.stream(),
                                    "the memory a kernel's adjoint reads (" +
                                        L.kernelName() + ")"));
  }
  OptimizationRemarkEmitter ORE(Key.Fn);
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "LaunchMemoryKept", Call.getDebugLoc(),
                         Call.getParent());
    R << "launch of '" << ore::NV("Kernel", L.kernelName())
      << "': the adjoint kernel runs on device copies of "
      << ore::NV("Copied", unsigned(Copies.size())) << " of the "
      << ore::NV("Pointers", Kept)
      << " allocation(s) its pointer arguments point into, taken before the "
         "launch (the whole of each allocation: its size is known at run "
         "time); the others it only reads and nothing writes later";
    return R;
  });
}

void ReverseEmitter::reverseKernelLaunch(CallBase &Call) {
  std::optional<KernelLaunch> L = KernelLaunch::match(Call);
  if (!L || !launchNeedsDerivative(*L))
    return; // (an unnormalised launch: the forward sweep reported it)
  GpuRuntimeApi Runtime(*Call.getModule(), L->api());
  Value *Stream = lookup(L->stream());
  SmallVector<DeviceCopy, 4> Kept;
  for (const DeviceCopy &C : LaunchCopies.lookup(&Call))
    Kept.push_back({lookup(C.Base), lookup(C.Bytes), lookup(C.Copy)});
  // The float operands' adjoints land in device cells: 8 bytes per float
  // argument; an aggregate's bytes per aggregate holding floats, each float
  // at its offset.
  SmallVector<LaunchArgument, 8> Params = L->arguments();
  SmallVector<std::pair<unsigned, uint64_t>, 4> Floats; // operand, cell
  // Per argument, where its cells start (none: it has no floats).
  SmallVector<std::optional<uint64_t>, 8> CellsAt(Params.size());
  uint64_t CellBytes = 0;
  for (auto [I, P] : enumerate(Params)) {
    uint64_t At = P.Aggregate ? alignTo(CellBytes, P.Align) : CellBytes;
    for (unsigned K = 0; K < P.Count; ++K)
      if (L->paramKind(P.First + K) == LaunchParam::Float)
        Floats.push_back({P.First + K, At + (P.Aggregate ? P.Offsets[K] : 0)});
    if (Floats.empty() || Floats.back().first < P.First)
      continue;
    CellsAt[I] = At;
    CellBytes = At + (P.Aggregate ? alignTo(P.Size, 8) : 8);
  }
  // Per float operand, each lane's adjoint.
  SmallVector<SmallVector<Value *, 4>, 4> FloatAdjoints(Floats.size());
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Value *Host =
      Floats.empty()
          ? nullptr
          : Entry.CreateAlloca(
                ArrayType::get(B.getInt64Ty(), divideCeil(CellBytes, 8)),
                nullptr, "gpuad.launch.adjoints");
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane) {
    ++NumAdjointLaunches;
    // The adjoint kernel's re-run overwrites the copies: every lane but the
    // last gets copies of its own.
    bool Last = Lane + 1 == Key.Width;
    SmallVector<DeviceCopy, 4> Copies;
    for (const DeviceCopy &C : Kept)
      Copies.push_back(Last ? C : copyAgain(B, Runtime, C, Stream));
    SmallVector<Value *, 16> Scratch;
    LaunchOperands Args;
    for (const LaunchArgument &P : Params)
      Args.add(P, [&](unsigned K) {
        Value *A = lookup(L->arg(K));
        return L->paramKind(K) == LaunchParam::Pointer
                   ? intoCopies(B, A, Copies)
                   : A;
      });
    Value *Cells = nullptr;
    Value *CellSize = B.getInt64(CellBytes);
    if (!Floats.empty()) {
      Cells =
          Runtime.allocate(B, CellSize, "the adjoints of a kernel's floats");
      Runtime.zero(B, Cells, CellSize, Stream);
    }
    auto Cell = [&](uint64_t At) {
      return B.CreateConstGEP1_64(B.getInt8Ty(), Cells, At);
    };
    // A pointer operand's shadow (a zero block where it has none).
    auto Shadow = [&](unsigned K) {
      Value *A = L->arg(K);
      return needsShadow(A)
                 ? Batch.extract(B, reverseShadow(A, Call), A->getType(), Lane)
                 : scratchDeviceShadow(B, Runtime, lookup(A), Stream, Scratch);
    };
    for (auto [I, P] : enumerate(Params)) {
      if (!P.Aggregate) {
        LaunchParam Kind = L->paramKind(P.First);
        if (Kind == LaunchParam::Pointer)
          Args.scalar(Shadow(P.First));
        else if (Kind == LaunchParam::Float)
          Args.scalar(Cell(*CellsAt[I]));
        continue;
      }
      // The aggregate's shadow (its floats zero: their adjoints come back
      // through its cells; its integers as they are), then its cells.
      Args.add(P, [&](unsigned K) -> Value * {
        switch (L->paramKind(K)) {
        case LaunchParam::Pointer:
          return Shadow(K);
        case LaunchParam::Float:
          return Constant::getNullValue(L->arg(K)->getType());
        default:
          return lookup(L->arg(K));
        }
      });
      if (CellsAt[I])
        Args.scalar(Cell(*CellsAt[I]));
    }
    LLVM_DEBUG(dbgs() << "gpuad: adjoint kernel of " << L->kernelName()
                      << ", lane " << Lane << ", for " << Call << "\n");
    emitDerivativeLaunch(B, *L, LaunchDerivative::Adjoint, Args,
                         [&](Value *V) { return lookup(V); });
    Runtime.synchronize(B, Stream);
    if (Cells) {
      Runtime.copy(B, Host, Cells, CellSize, Stream);
      Runtime.synchronize(B, Stream);
      for (auto [F, Float] : enumerate(Floats))
        FloatAdjoints[F].push_back(B.CreateLoad(
            L->arg(Float.first)->getType(),
            B.CreateConstGEP1_64(B.getInt8Ty(), Host, Float.second)));
      Runtime.release(B, Cells);
    }
    for (Value *Block : Scratch)
      Runtime.release(B, Block);
    for (const DeviceCopy &C : Copies)
      Runtime.release(B, C.Copy);
  }
  for (auto [F, Float] : enumerate(Floats)) {
    Value *A = L->arg(Float.first);
    if (!isa<Constant>(A) && isActive(A))
      addAdjoint(A, Batch.pack(B, A->getType(), FloatAdjoints[F]));
  }
}

bool ReverseEmitter::keepsPrimalBlock(const CallBase &Free) const {
  const Function *Callee = Free.getCalledFunction();
  std::optional<RuntimeCall> R =
      Callee ? Ctx.calls().runtimeCall(*Callee) : std::nullopt;
  return R && R->K == RuntimeCall::Free &&
         mayLaunchKernels(*Key.Fn, Ctx.calls());
}

void ReverseEmitter::deferPrimalFree(CallBase &Free) {
  StringRef Dealloc = Ctx.calls().releaseOf(*Free.getCalledFunction()).Plain;
  ShadowList *List = Split ? deferredList(Dealloc, /*Create=*/true) : nullptr;
  if (!List) {
    ShadowList *&End = EndLists[Dealloc.str()];
    if (!End)
      End = &newList(Derivative.getParent()->getOrInsertFunction(
          Dealloc, Type::getVoidTy(Derivative.getContext()),
          PointerType::get(Derivative.getContext(), 0)));
    List = End;
  }
  appendToList(*List, lookup(Free.getArgOperand(0)));
  DeferredPrimalFrees.push_back(&Free);
}

void ReverseEmitter::dropDeferredPrimalFrees() {
  for (CallBase *Free : DeferredPrimalFrees) {
    if (!Free->use_empty())
      Free->replaceAllUsesWith(Constant::getNullValue(Free->getType()));
    Primal.remove(Free);
    Free->eraseFromParent();
  }
  DeferredPrimalFrees.clear();
}

} // namespace gpuad
