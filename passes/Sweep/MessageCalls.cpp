//===- MessageCalls.cpp - MPI routines' derivatives -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// An MPI routine's tangent and adjoint are runtime functions
/// (runtime/Mpi.h) of its operands and its buffers' shadows
/// (Rules/MpiCalls.h); both modes call them through emitMessageDerivative,
/// once per lane.
//===----------------------------------------------------------------------===//

#include "Sweep/ForwardSweep.h"

#include "Rules/MpiCalls.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

void ForwardSweep::emitMessageDerivative(CallBase &Call, const MpiRoutine &Mpi,
                                         StringRef Fn,
                                         function_ref<Value *(Value *)> Operand,
                                         function_ref<Value *(Value *)> Shadow,
                                         ArrayRef<Value *> Extra) {
  if (!mpiDerivativesBuilt())
    return fail(Call, "cannot differentiate '" + Mpi.Name +
                          "': this gpuad was built without MPI's headers "
                          "(install libopenmpi-dev and build it again)");
  SmallVector<Value *, 16> Args;
  for (Value *A : Call.args())
    Args.push_back(Operand(A));
  SmallVector<Value *, 2> Shadows;
  PointerType *Ptr = B.getPtrTy();
  for (int8_t Op : Mpi.buffers()) {
    Value *A = Call.getArgOperand(Op);
    Shadows.push_back(needsShadow(A) ? Shadow(A) : nullptr);
  }
  SmallVector<Type *, 16> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  Types.append(Shadows.size(), Ptr);
  for (Value *E : Extra)
    Types.push_back(E->getType());
  FunctionCallee F = Derivative.getParent()->getOrInsertFunction(
      Fn, FunctionType::get(B.getVoidTy(), Types, false));
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane) {
    SmallVector<Value *, 16> LaneArgs(Args);
    for (Value *S : Shadows)
      LaneArgs.push_back(S ? Batch.extract(B, S, Ptr, Lane)
                           : ConstantPointerNull::get(Ptr));
    append_range(LaneArgs, Extra);
    B.CreateCall(F, LaneArgs)->setDebugLoc(Call.getDebugLoc());
  }
}

Value *ForwardSweep::emitCompletion(CallBase &Call, const MpiRoutine &Mpi,
                                    bool Reverse) {
  Module &M = *Derivative.getParent();
  PointerType *Ptr = B.getPtrTy();
  IRBuilder<> Before(&Call);
  Value *Count =
      Mpi.Count >= 0 ? Call.getArgOperand(Mpi.Count) : Before.getInt32(1);
  Value *Completion =
      Before.CreateCall(M.getOrInsertFunction("gpuad_mpi_completion_begin", Ptr,
                                              Before.getInt32Ty(), Ptr),
                        {Count, Call.getArgOperand(Mpi.Handle)});
  IRBuilder<> After(Call.getNextNode());
  Value *Flag = Mpi.Flag >= 0 ? Call.getArgOperand(Mpi.Flag)
                              : ConstantPointerNull::get(Ptr);
  return After.CreateCall(M.getOrInsertFunction("gpuad_mpi_completion_end", Ptr,
                                                Ptr, Ptr, After.getInt32Ty()),
                          {Completion, Flag, After.getInt32(Reverse)},
                          "mpi.completed");
}

} // namespace gpuad
