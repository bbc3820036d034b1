//===- ForwardLaunches.cpp - Tangents of kernel launches ------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Forward mode replaces a launch through which a derivative flows by a
/// launch of the kernel's tangent kernel: it computes what the kernel
/// computes and the tangents beside it, in one pass over the same memory
/// (running both kernels would run an in-place kernel twice).  The tangent
/// kernel takes the kernel's arguments, then each pointer's shadow, each
/// float's tangent and each aggregate's shadow.  Width N launches the tangent
/// kernel once per lane; every lane but the last runs on copies of the
/// allocations the kernel may write (Sweep/LaunchSweep.h), so the program's
/// memory changes once.
///
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"

#include "Support/GpuRuntimeApi.h"
#include "Sweep/LaunchSweep.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-forward"

using namespace llvm;

STATISTIC(NumTangentLaunches, "Launches replaced by tangent kernel launches");

namespace gpuad {

void ForwardEmitter::emitKernelLaunch(KernelLaunch &L) {
  if (!launchNeedsDerivative(L))
    return;
  ++NumTangentLaunches;
  CallBase &Call = L.call();
  IRBuilder<> At(&Call);
  GpuRuntimeApi Runtime(*Call.getModule(), L.api());
  // Per argument, its shadows (pointers) or tangents (floats), all lanes.
  SmallVector<LaunchArgument, 8> Params = L.arguments();
  SmallVector<Value *, 8> Shadows(L.numArgs(), nullptr);
  for (unsigned K = 0; K < L.numArgs(); ++K) {
    Value *A = L.arg(K);
    if (L.paramKind(K) == LaunchParam::Pointer && needsShadow(A))
      Shadows[K] = shadowPointer(A, Call);
    else if (L.paramKind(K) == LaunchParam::Float)
      Shadows[K] = shadowOrZero(A);
  }
  CallInst *Tangent = nullptr;
  for (unsigned Lane = 0, Width = Batch.width(); Lane < Width; ++Lane) {
    // Every lane but the last runs on copies of the memory the kernel
    // writes: the program's memory changes once, in the last.
    bool Last = Lane + 1 == Width;
    SmallVector<DeviceCopy, 4> Copies;
    SmallPtrSet<Value *, 8> Copied;
    for (unsigned K = 0; K < L.numArgs() && !Last; ++K)
      if (L.paramKind(K) == LaunchParam::Pointer && !L.readsOnly(K) &&
          !isa<Constant>(L.arg(K)) && Copied.insert(L.arg(K)).second)
        Copies.push_back(copyAllocation(At, Runtime, L.arg(K), L.stream(),
                                        "a lane's copy of a kernel's memory"));
    SmallVector<Value *, 16> Scratch;
    auto Primal = [&](unsigned K) {
      return L.paramKind(K) == LaunchParam::Pointer
                 ? intoCopies(At, L.arg(K), Copies)
                 : L.arg(K);
    };
    // An operand's tangent: a pointer's shadow (a zero block where it has
    // none), a float's tangent; none for an integer.
    auto TangentOf = [&](unsigned K) -> Value * {
      Value *A = L.arg(K);
      switch (L.paramKind(K)) {
      case LaunchParam::Pointer:
        return Shadows[K]
                   ? Batch.extract(At, Shadows[K], A->getType(), Lane)
                   : scratchDeviceShadow(At, Runtime, A, L.stream(), Scratch);
      case LaunchParam::Float:
        return Batch.extract(At, Shadows[K], A->getType(), Lane);
      case LaunchParam::Const:
      case LaunchParam::Unsupported:
        break;
      }
      return nullptr;
    };
    LaunchOperands Args;
    for (const LaunchArgument &P : Params)
      Args.add(P, Primal);
    for (const LaunchArgument &P : Params) {
      if (!P.Aggregate) {
        if (Value *T = TangentOf(P.First))
          Args.scalar(T);
        continue;
      }
      // The aggregate's shadow: its integers as they are.
      Args.add(P, [&](unsigned K) {
        Value *T = TangentOf(K);
        return T ? T : L.arg(K);
      });
    }
    LLVM_DEBUG(dbgs() << "gpuad-forward: tangent kernel of " << L.kernelName()
                      << ", lane " << Lane << ", for " << Call << "\n");
    Tangent = emitDerivativeLaunch(At, L, LaunchDerivative::Tangent, Args,
                                   [](Value *V) { return V; });
    for (Value *Block : Scratch)
      Runtime.release(At, Block);
    for (const DeviceCopy &C : Copies)
      Runtime.release(At, C.Copy);
  }
  replaceCall(Call, Tangent);
}

} // namespace gpuad
