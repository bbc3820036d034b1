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
/// A float argument's
/// adjoint is summed per thread into a device cell and added to the host's
/// adjoint after the launch.  The reverse sweep waits for each adjoint
/// kernel on its stream, so the host code after it (copies, the next
/// launch's copies) sees its adjoints.  Device memory the primal frees
/// stays until the reverse sweep ends (adjoint kernels still read it).
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
  SmallVector<unsigned, 4> Floats;
  for (unsigned K = 0; K < L->numArgs(); ++K)
    if (L->paramKind(K) == LaunchParam::Float)
      Floats.push_back(K);
  // Per float argument, each lane's adjoint.
  SmallVector<SmallVector<Value *, 4>, 4> FloatAdjoints(Floats.size());
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Value *Host =
      Floats.empty()
          ? nullptr
          : Entry.CreateAlloca(ArrayType::get(B.getInt64Ty(), Floats.size()),
                               nullptr, "gpuad.launch.adjoints");
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane) {
    ++NumAdjointLaunches;
    // The adjoint kernel's re-run overwrites the copies: every lane but the
    // last gets copies of its own.
    bool Last = Lane + 1 == Key.Width;
    SmallVector<DeviceCopy, 4> Copies;
    for (const DeviceCopy &C : Kept)
      Copies.push_back(Last ? C : copyAgain(B, Runtime, C, Stream));
    SmallVector<Value *, 16> Args, Scratch;
    for (unsigned K = 0; K < L->numArgs(); ++K) {
      Value *A = lookup(L->arg(K));
      Args.push_back(L->paramKind(K) == LaunchParam::Pointer
                         ? intoCopies(B, A, Copies)
                         : A);
    }
    // Each float's adjoint cell, 8 bytes apart.
    Value *Cells = nullptr;
    Value *CellBytes = B.getInt64(8 * Floats.size());
    if (!Floats.empty()) {
      Cells =
          Runtime.allocate(B, CellBytes, "the adjoints of a kernel's floats");
      Runtime.zero(B, Cells, CellBytes, Stream);
    }
    for (unsigned K = 0, F = 0; K < L->numArgs(); ++K) {
      Value *A = L->arg(K);
      switch (L->paramKind(K)) {
      case LaunchParam::Pointer:
        Args.push_back(
            needsShadow(A)
                ? Batch.extract(B, reverseShadow(A, Call), A->getType(), Lane)
                : scratchDeviceShadow(B, Runtime, lookup(A), Stream, Scratch));
        break;
      case LaunchParam::Float:
        Args.push_back(B.CreateConstGEP1_64(B.getInt8Ty(), Cells, 8 * F++));
        break;
      case LaunchParam::Const:
      case LaunchParam::Unsupported:
        break;
      }
    }
    LLVM_DEBUG(dbgs() << "gpuad: adjoint kernel of " << L->kernelName()
                      << ", lane " << Lane << ", for " << Call << "\n");
    emitDerivativeLaunch(B, *L, LaunchDerivative::Adjoint, Args,
                         [&](Value *V) { return lookup(V); });
    Runtime.synchronize(B, Stream);
    if (Cells) {
      Runtime.copy(B, Host, Cells, CellBytes, Stream);
      Runtime.synchronize(B, Stream);
      for (auto [F, K] : enumerate(Floats))
        FloatAdjoints[F].push_back(
            B.CreateLoad(L->arg(K)->getType(),
                         B.CreateConstGEP1_64(B.getInt8Ty(), Host, 8 * F)));
      Runtime.release(B, Cells);
    }
    for (Value *Block : Scratch)
      Runtime.release(B, Block);
    for (const DeviceCopy &C : Copies)
      Runtime.release(B, C.Copy);
  }
  for (auto [F, K] : enumerate(Floats)) {
    Value *A = L->arg(K);
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
