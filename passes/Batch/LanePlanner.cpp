//===- LanePlanner.cpp - Lanes or vectors for a width-N request -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The compile-time half of lane batching: whether the function a request
/// differentiates can run on a lane group at all (nothing in it, or in what
/// it calls, ties it to one thread), whether the `auto` choice wants lanes,
/// and whether an argument is the caller's private memory at every call.
//===----------------------------------------------------------------------===//

#include "Batch/LaneMapping.h"
#include "Batch/LaneVariant.h"

#include "Core/DerivativeContext.h"
#include "Core/DerivativeSignature.h"
#include "Options.h"
#include "Requests/DiffRequest.h"
#include "Rules/KnownFunctions.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// Calls a lane may make for its calling thread: printing (done once) and
/// failing.
bool isOutputOrFailure(StringRef Name) {
  return Name == "vprintf" || Name == "__assertfail" ||
         Name == "__assert_fail" || Name == "abort";
}

/// The device math libraries (differentiated by rule, never entered).
bool isDeviceMath(const Function &F) {
  return F.getName().starts_with("__nv_") || F.getName().starts_with("__ocml_");
}

/// Why \p Call keeps \p F (a function the request reaches) off lanes, or "".
std::string refusalOfCall(const CallBase &Call, const Function &F,
                          const TargetHooks &Target) {
  if (Call.isInlineAsm())
    return "'" + F.getName().str() + "' uses inline assembly";
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return "'" + F.getName().str() + "' calls through a function pointer";
  StringRef Name = Callee->getName();
  if (Target.communicatesAcrossThreads(Call))
    return "'" + F.getName().str() + "' communicates with other threads ('" +
           Name.str() + "')";
  if (Target.readsThreadIndex(Call))
    return "'" + F.getName().str() + "' reads its thread's index ('" +
           Name.str() + "')";
  if (classifyHeapCall(Call))
    return "'" + F.getName().str() + "' allocates or frees memory ('" +
           Name.str() + "')";
  if (Name.starts_with("__ockl_printf") || Name.starts_with("__ockl_hostcall"))
    return "'" + F.getName().str() + "' prints through a host call ('" +
           Name.str() + "')";
  if (!Callee->isDeclaration() || Callee->isIntrinsic() ||
      Callee->onlyReadsMemory() || isOutputOrFailure(Name) ||
      isDeviceMath(*Callee))
    return "";
  return "'" + F.getName().str() + "' calls '" + Name.str() +
         "', which may have effects a lane cannot make once";
}

/// Why \p Root, or a function it calls, cannot run on a lane group, or "".
std::string staticRefusal(Function &Root, const TargetHooks &Target) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work = {&Root};
  unsigned Shared = Target.sharedAddressSpace();
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    for (Instruction &I : instructions(*F)) {
      for (const Value *Op : I.operands())
        if (Op->getType()->isPointerTy() && Shared &&
            Op->getType()->getPointerAddressSpace() == Shared)
          return "'" + F->getName().str() + "' uses block-shared memory";
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      std::string Why = refusalOfCall(*Call, *F, Target);
      if (!Why.empty())
        return Why;
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() && !isDeviceMath(*Callee))
        Work.push_back(Callee);
    }
  }
  return "";
}

/// The request's argument values (primals and shadows) that are pointers.
SmallVector<Value *, 8> pointerArguments(const DiffRequest &Req) {
  SmallVector<Value *, 8> Out;
  for (const ArgRequest &AR : Req.Args) {
    for (Value *V : {AR.Primal, AR.DupVBase})
      if (V && V->getType()->isPointerTy())
        Out.push_back(V);
    for (Value *S : AR.Shadows)
      if (S->getType()->isPointerTy())
        Out.push_back(S);
  }
  return Out;
}

bool isScalar(Type *Ty) {
  return Ty->isIntegerTy() || Ty->isFloatingPointTy() || Ty->isPointerTy();
}

/// Why the request's own shape keeps it off lanes, or "".
std::string shapeRefusal(const DiffRequest &Req, unsigned WarpSize) {
  const DerivativeKey &Key = Req.Key;
  if (Key.Width > WarpSize)
    return "width " + std::to_string(Key.Width) + " exceeds the " +
           std::to_string(WarpSize) + " lanes of a warp";
  if (isa<InvokeInst>(Req.Call))
    return "the request may throw";
  for (const Argument &A : Key.Fn->args())
    if (!isScalar(A.getType()))
      return "argument '" + A.getName().str() + "' is an aggregate";
  Type *Ret = Key.Fn->getReturnType();
  if (!Ret->isVoidTy() && !isScalar(Ret))
    return "'" + Key.Fn->getName().str() + "' returns an aggregate";
  return "";
}

std::string registerNote(unsigned Vector, unsigned One, unsigned Budget) {
  return "about " + std::to_string(Vector) +
         " registers as vectors, " + std::to_string(One) +
         " per lane, budget " + std::to_string(Budget);
}

} // namespace

BatchMapping planBatchMapping(const DiffRequest &Req, Function &Derivative,
                              DerivativeContext &Ctx) {
  BatchMapping Out;
  TargetHooks &Target = Ctx.target();
  const DerivativeKey &Key = Req.Key;
  BatchMappingChoice Choice = Ctx.options().BatchMapping;
  if (Key.Width == 1 || !Target.isGPU() || isSplit(Key.Mode) ||
      !Target.warpSize())
    return Out;
  if (Choice == BatchMappingChoice::Vector) {
    Out.Why = "vectors (-gpuad-batch-mapping=vector)";
    return Out;
  }
  std::string Why = shapeRefusal(Req, Target.warpSize());
  if (Why.empty())
    Why = staticRefusal(*Key.Fn, Target);
  if (!Why.empty()) {
    Out.Why = "vectors, not lanes: " + Why;
    return Out;
  }

  DerivativeKey OneKey = Key;
  OneKey.Width = 1;
  Function *One = Ctx.getOrCreate(OneKey);
  if (!One) {
    Out.Why = "vectors, not lanes: no width-1 derivative";
    return Out;
  }
  unsigned VectorRegs = estimateRegisters(Derivative);
  unsigned OneRegs = estimateRegisters(*One);
  unsigned Budget = Target.fullOccupancyRegisters();
  std::string Note = registerNote(VectorRegs, OneRegs, Budget);
  if (Choice == BatchMappingChoice::Auto &&
      (VectorRegs <= Budget || OneRegs >= VectorRegs)) {
    Out.Why = "vectors (" + Note + ")";
    return Out;
  }

  LaneVariant Variant = makeLaneVariant(*One, Ctx.signatureOf(*One), Key.Fn,
                                        Ctx.options().AssumeNoAliasArgs,
                                        Target);
  if (!Variant.F) {
    Out.Why = "vectors, not lanes: " + Variant.Refusal;
    return Out;
  }
  LanePlan Plan;
  Plan.Variant = Variant.F;
  Plan.Sig = &Ctx.signatureOf(*One);
  Plan.Width = Key.Width;
  Plan.GroupSize = PowerOf2Ceil(Key.Width);
  Plan.Replayable = Variant.Replayable;
  std::string Private;
  for (Value *P : pointerArguments(Req))
    if (isa<AllocaInst>(getUnderlyingObject(P)))
      Private = P->getName().str();
  if (!Private.empty() && !Plan.Replayable) {
    Variant.F->eraseFromParent();
    Out.Why = "vectors, not lanes: '" + Private +
              "' is the caller's private memory, which other lanes cannot "
              "read, and '" + Key.Fn->getName().str() +
              "' cannot compute its directions one after another";
    return Out;
  }
  Plan.SerialOnly = !Private.empty();
  if (Plan.SerialOnly)
    Out.Why = "one direction after another on each thread with the width-1 "
              "derivative ('" + Private + "' is the caller's private memory, "
              "which other lanes cannot read)";
  else
    Out.Why = "lanes: " + std::to_string(Key.Width) +
              " lanes per calling thread (" + Note +
              "); a lane group not all active " +
              (Plan.Replayable ? "computes its directions one after another"
                               : "uses vectors");
  Out.Plan = Plan;
  return Out;
}

} // namespace gpuad
