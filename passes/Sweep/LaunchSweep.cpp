//===- LaunchSweep.cpp - What both modes do at a kernel launch ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// A kernel launch's derivative is a launch of the kernel's derivative
/// kernel (Normalize/KernelLaunches.h) with the same grid, block and stream,
/// and twice the dynamic shared memory (the derivative keeps the shadow of
/// `extern __shared__` memory in the second half, gpuad/launch.h).  Every
/// pointer argument has a shadow there: where the host has none (device
/// memory no derivative reaches, an enzyme_const input), a zeroed block the
/// size of the allocation it points into stands in, freed after the launch.
///
//===----------------------------------------------------------------------===//

#include "Sweep/LaunchSweep.h"

#include "Sweep/ForwardSweep.h"

#include "Support/GpuRuntimeApi.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "gpuad-launch"

using namespace llvm;

STATISTIC(NumDerivativeLaunches, "Derivative kernel launches emitted");
STATISTIC(NumScratchDeviceShadows,
          "Zeroed device blocks standing in for missing shadows");

namespace gpuad {

bool ForwardSweep::launchNeedsDerivative(const KernelLaunch &L) const {
  for (unsigned K = 0; K < L.numArgs(); ++K) {
    Value *A = L.arg(K);
    LaunchParam P = L.paramKind(K);
    if ((P == LaunchParam::Pointer && needsShadow(A)) ||
        (P == LaunchParam::Float && !isa<Constant>(A) && isActive(A)))
      return true;
  }
  return false;
}

CallInst *ForwardSweep::emitDerivativeLaunch(
    IRBuilderBase &At, const KernelLaunch &L, LaunchDerivative D,
    const LaunchOperands &Args, function_ref<Value *(Value *)> Map) {
  ++NumDerivativeLaunches;
  Constant *Handle = launchDerivativeHandle(L, D);
  Value *Shared = At.CreateShl(Map(L.sharedBytes()), 1);
  CallInst *New = L.relaunch(At, Handle, Args, Shared, Map);
  std::string Name = launchDerivativeName(
      L.deviceName().empty() ? L.stub().getName() : L.deviceName(), D);
  GpuRuntimeApi Runtime(*Derivative.getParent(), L.api());
  Runtime.check(At, New,
                "cannot launch '" + Name + "', the " +
                    (D == LaunchDerivative::Tangent ? "tangent" : "adjoint") +
                    " kernel of '" + L.kernelName() +
                    "'; the device code has none where gpuad could not "
                    "differentiate the kernel (-Rpass-missed=gpuad says "
                    "why) or saw no host request of its file launch it "
                    "(-mllvm -gpuad-launch-derivatives=all makes them for "
                    "every kernel)");
  return New;
}

Value *ForwardSweep::scratchDeviceShadow(IRBuilderBase &At,
                                         GpuRuntimeApi &Runtime, Value *P,
                                         Value *Stream,
                                         SmallVectorImpl<Value *> &Blocks) {
  ++NumScratchDeviceShadows;
  auto [Base, Size] = Runtime.allocationOf(At, P);
  Value *Block =
      Runtime.allocate(At, Size, "a zero shadow of memory a kernel reads");
  Runtime.zero(At, Block, Size, Stream);
  Blocks.push_back(Block);
  return At.CreateGEP(At.getInt8Ty(), Block,
                      At.CreatePtrDiff(At.getInt8Ty(), P, Base));
}

DeviceCopy copyAllocation(IRBuilderBase &At, GpuRuntimeApi &Runtime, Value *P,
                          Value *Stream, const Twine &Purpose) {
  auto [Base, Bytes] = Runtime.allocationOf(At, P);
  Value *Copy = Runtime.allocate(At, Bytes, Purpose);
  Runtime.copy(At, Copy, Base, Bytes, Stream);
  return {Base, Bytes, Copy};
}

DeviceCopy copyAgain(IRBuilderBase &At, GpuRuntimeApi &Runtime,
                     const DeviceCopy &From, Value *Stream) {
  Value *Copy =
      Runtime.allocate(At, From.Bytes, "a lane's copy of a kernel's memory");
  Runtime.copy(At, Copy, From.Copy, From.Bytes, Stream);
  return {From.Base, From.Bytes, Copy};
}

Value *intoCopies(IRBuilderBase &B, Value *P, ArrayRef<DeviceCopy> Copies) {
  Type *I8 = B.getInt8Ty(), *I64 = B.getInt64Ty();
  Value *Addr = B.CreatePtrToInt(P, I64);
  for (const DeviceCopy &C : Copies) {
    Value *Offset = B.CreateSub(Addr, B.CreatePtrToInt(C.Base, I64));
    // (Below the base, the unsigned offset is beyond the allocation.)
    Value *Inside = B.CreateICmpULT(Offset, C.Bytes);
    P = B.CreateSelect(Inside, B.CreateGEP(I8, C.Copy, Offset), P);
  }
  return P;
}

} // namespace gpuad
