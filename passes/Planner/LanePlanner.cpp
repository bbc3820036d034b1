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

#include "Planner/LaneMapping.h"
#include "Planner/LaneVariant.h"

#include "Normalize/Preprocess.h"
#include "Planner/DerivativeContext.h"
#include "Planner/DiffRequest.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Options.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-lanes"

using namespace llvm;

namespace gpuad {

STATISTIC(NumLanes, "Number of width-N requests mapped onto warp lanes");
STATISTIC(NumSerial, "Number of width-N requests computed direction by "
                     "direction in each thread");
STATISTIC(NumVectors, "Number of width-N device requests kept as vectors");

namespace {

/// Why \p Call keeps \p F (a function the request reaches) off lanes, or "".
std::string refusalOfCall(const CallBase &Call, const Function &F,
                          const TargetHooks &Target, const CallTable &Calls) {
  if (Call.isInlineAsm())
    return "'" + F.getName().str() + "' uses inline assembly";
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return "'" + F.getName().str() + "' calls through a function pointer";
  StringRef Name = Callee->getName();
  if (Target.readsThreadIndex(Call))
    return "'" + F.getName().str() + "' reads its thread's index ('" +
           Name.str() + "')";
  if (Calls.classify(Call).isHeap())
    return "'" + F.getName().str() + "' allocates or frees memory ('" +
           Name.str() + "')";
  using DeviceCall = TargetHooks::DeviceCall;
  DeviceCall Kind = Target.classifyDeviceCall(*Callee);
  if (Kind == DeviceCall::HostCall)
    return "'" + F.getName().str() + "' prints through a host call ('" +
           Name.str() + "')";
  if (!Callee->isDeclaration() || Callee->isIntrinsic() ||
      Callee->onlyReadsMemory() || Callee->doesNotReturn() ||
      Kind == DeviceCall::Print || Kind == DeviceCall::Math)
    return "";
  return "'" + F.getName().str() + "' calls '" + Name.str() +
         "', which may have effects a lane cannot make once";
}

/// Why \p Root, or a function it calls, cannot run on a lane group, or "".
/// Talking to other threads is named before reading the thread index (a
/// function that exchanges values usually computes where from its index).
std::string staticRefusal(Function &Root, const TargetHooks &Target,
                          const CallTable &Calls) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work = {&Root};
  unsigned Shared = Target.sharedAddressSpace();
  std::string Other;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    for (Instruction &I : instructions(*F)) {
      for (const Value *Op : I.operands()) {
        const auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts());
        if ((GV && Target.isBlockShared(*GV)) ||
            (Op->getType()->isPointerTy() && Shared &&
             Op->getType()->getPointerAddressSpace() == Shared))
          return "'" + F->getName().str() + "' uses block-shared memory";
      }
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (Target.communicatesAcrossThreads(*Call))
        return "'" + F->getName().str() +
               "' communicates with other threads ('" +
               Call->getCalledOperand()->getName().str() + "')";
      if (Other.empty())
        Other = refusalOfCall(*Call, *F, Target, Calls);
      if (Function *Callee = Call->getCalledFunction();
          Callee && !Callee->isDeclaration() &&
          Target.classifyDeviceCall(*Callee) != TargetHooks::DeviceCall::Math)
        Work.push_back(Callee);
    }
  }
  return Other;
}

/// The first argument of \p Req whose value or shadow is the caller's own
/// (stack) memory at every call, named for a message; "" if none.
std::string privateArgument(const DiffRequest &Req) {
  for (unsigned I = 0; I < Req.Args.size(); ++I) {
    const ArgRequest &AR = Req.Args[I];
    SmallVector<Value *, 6> Values = {AR.Primal, AR.DupVBase};
    Values.append(AR.Shadows.begin(), AR.Shadows.end());
    for (Value *V : Values)
      if (V && V->getType()->isPointerTy() &&
          isa<AllocaInst>(getUnderlyingObject(V)))
        return "argument " + std::to_string(I + 1) + " of '" +
               Req.Key.Fn->getName().str() + "'" +
               (V == AR.Primal ? "" : " (its shadow)");
  }
  return "";
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
  return "about " + std::to_string(Vector) + " registers as vectors, " +
         std::to_string(One) + " per lane, budget " + std::to_string(Budget);
}

/// The lane variant of width-1 derivative \p One of \p Primal, made once
/// per module; whether it is replayable travels as an attribute.
LaneVariant laneVariantOf(Function &One, Function &Primal,
                          DerivativeContext &Ctx) {
  static constexpr const char *Attr = "gpuad-lane-variant";
  std::string Name = (One.getName() + ".lanes").str();
  LaneVariant Out;
  if (Function *Made = Ctx.module().getFunction(Name)) {
    Out.F = Made;
    Out.Replayable =
        Made->getFnAttribute(Attr).getValueAsString() == "replayable";
    return Out;
  }
  Out = makeLaneVariant(One, Ctx.signatureOf(One), &Primal,
                        Ctx.options().AssumeNoAliasArgs, Ctx.target(),
                        Ctx.calls(),
                        [&](Function &F) { Ctx.preprocessor().cleanup(F); });
  if (Out.F)
    Out.F->addFnAttr(Attr, Out.Replayable ? "replayable" : "once");
  return Out;
}

} // namespace

static BatchMapping decideBatchMapping(const DiffRequest &Req,
                                       Function &Derivative,
                                       DerivativeContext &Ctx) {
  BatchMapping Out;
  TargetHooks &Target = Ctx.target();
  const DerivativeKey &Key = Req.Key;
  BatchMappingChoice Choice = Ctx.options().BatchMapping;
  if (Key.Width == 1 || !Target.isGPU() || isSplit(Key.Mode) ||
      !Target.warpSize())
    return Out;
  if (Choice == BatchMappingChoice::Vector) {
    Out.set("vectors", " (-gpuad-batch-mapping=vector)");
    return Out;
  }
  std::string Why = shapeRefusal(Req, Target.warpSize());
  if (Why.empty())
    Why = staticRefusal(*Key.Fn, Target, Ctx.calls());
  if (!Why.empty()) {
    Out.set("vectors", ", not lanes: " + Why);
    return Out;
  }

  DerivativeKey OneKey = Key;
  OneKey.Width = 1;
  Function *One = Ctx.getOrCreate(OneKey);
  if (!One) {
    Out.set("vectors", ", not lanes: no width-1 derivative");
    return Out;
  }
  unsigned VectorRegs = estimateRegisters(Derivative);
  unsigned OneRegs = estimateRegisters(*One);
  unsigned Budget = Target.fullOccupancyRegisters();
  std::string Note = registerNote(VectorRegs, OneRegs, Budget);
  // A lane holds the width-1 derivative's registers and the round's loop
  // (about a third more, measured with ptxas on element kernels): lanes
  // when the vector form exceeds both that and the occupancy budget.
  if (Choice == BatchMappingChoice::Auto &&
      (VectorRegs <= Budget || 2 * VectorRegs <= 3 * OneRegs)) {
    Out.set("vectors", " (" + Note + ")");
    return Out;
  }

  LaneVariant Variant = laneVariantOf(*One, *Key.Fn, Ctx);
  if (!Variant.F) {
    Out.set("vectors", ", not lanes: " + Variant.Refusal);
    return Out;
  }
  LanePlan Plan;
  Plan.Variant = Variant.F;
  Plan.Sig = &Ctx.signatureOf(*One);
  Plan.Width = Key.Width;
  Plan.Replayable = Variant.Replayable;
  std::string Private = privateArgument(Req);
  if (!Private.empty() && !Plan.Replayable) {
    Out.set("vectors", ", not lanes: " + Private +
                           " is the caller's private memory, which other "
                           "lanes cannot read, and '" +
                           Key.Fn->getName().str() +
                           "' cannot compute its directions one after "
                           "another");
    return Out;
  }
  Plan.SerialOnly = !Private.empty();
  if (Plan.SerialOnly)
    Out.set("serial", " (each thread computes its directions one after "
                      "another with the width-1 derivative: " +
                          Private +
                          " is the caller's private memory, which other "
                          "lanes cannot read)");
  else
    Out.set("lanes",
            " (" + std::to_string(Key.Width) + " lanes per calling thread; " +
                Note + "; a lane group not all active " +
                (Plan.Replayable ? "computes its directions one after another"
                                 : "uses vectors") +
                ")");
  Out.Plan = Plan;
  return Out;
}

BatchMapping planBatchMapping(const DiffRequest &Req, Function &Derivative,
                              DerivativeContext &Ctx) {
  BatchMapping Out = decideBatchMapping(Req, Derivative, Ctx);
  if (Out.Kind.empty())
    return Out;
  ++(Out.Kind == "lanes"    ? NumLanes
     : Out.Kind == "serial" ? NumSerial
                            : NumVectors);
  LLVM_DEBUG(dbgs() << "gpuad-lanes: " << Req.Key.Fn->getName() << ", width "
                    << Req.Key.Width << ": " << Out.Kind << Out.Why << "\n");
  return Out;
}

} // namespace gpuad
