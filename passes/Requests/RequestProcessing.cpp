//===- RequestProcessing.cpp - One entry-point call, start to end ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/RequestProcessing.h"

#include "Planner/DerivativeContext.h"
#include "Planner/LaneMapping.h"
#include "Planner/RuntimeDisjointness.h"
#include "Requests/BatchCalls.h"
#include "Requests/CallSiteAliasing.h"
#include "Requests/InactiveCalls.h"
#include "Requests/RequestLowering.h"
#include "Requests/RequestParser.h"
#include "Requests/VirtualReverse.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumRequests, "Number of derivative requests lowered");

namespace gpuad {

/// The optimisation remark (-Rpass=gpuad) for a lowered request.
static void remarkLowered(Function &Caller, const DebugLoc &Loc,
                          BasicBlock *Block, const DerivativeKey &Key,
                          const Function &D, const BatchMapping &Mapping) {
  OptimizationRemarkEmitter ORE(&Caller);
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "Differentiated", Loc, Block);
    R << modeName(Key.Mode).str() << " derivative of '"
      << ore::NV("Function", Key.Fn->getName());
    if (Key.Width > 1)
      R << "' at width " << ore::NV("Width", Key.Width) << ": '";
    else
      R << "': '";
    R << ore::NV("Derivative", D.getName()) << "'";
    if (!Mapping.Kind.empty())
      R << "; directions: " << ore::NV("Mapping", Mapping.Kind) << Mapping.Why;
    return R;
  });
}

/// Parameter \p I's name in the source: the IR's value name, or (clang
/// discards those) the debug info's, or "" without either.
static StringRef sourceParameterName(const Function &F, unsigned I) {
  if (F.getArg(I)->hasName())
    return F.getArg(I)->getName();
  for (const Instruction &Inst : instructions(F))
    for (const DbgVariableRecord &DVR : filterDbgVars(Inst.getDbgRecordRange()))
      if (DVR.getVariable()->getArg() == I + 1)
        return DVR.getVariable()->getName();
  return "";
}

/// "argument 2 'x'" (the name where the IR or debug info has it).
static std::string parameterDescription(const Function &F, unsigned I) {
  std::string S = "argument " + std::to_string(I + 1);
  StringRef Source = sourceParameterName(F, I);
  if (!Source.empty())
    S += " '" + Source.str() + "'";
  return S;
}

/// The remark (-Rpass=gpuad) naming the pointer arguments a request's call
/// site proved disjoint, and why the others are not.
static void remarkAliasing(CallBase &Call, const DerivativeKey &Key,
                           const CallSiteAliasing &A) {
  auto Name = [&](unsigned I) { return parameterDescription(*Key.Fn, I); };
  std::string Proven, Unproven;
  for (unsigned I = 0; I < A.Disjoint.size(); ++I) {
    if (A.Disjoint[I])
      Proven += (Proven.empty() ? "" : ", ") + Name(I);
    else if (!A.Why[I].empty())
      Unproven += (Unproven.empty() ? "" : "; ") + Name(I) + ": " + A.Why[I];
  }
  if (Proven.empty() && Unproven.empty())
    return;
  OptimizationRemarkEmitter ORE(Call.getFunction());
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "CallSiteAliasing", Call.getDebugLoc(),
                         Call.getParent());
    R << "call site of the derivative of '"
      << ore::NV("Function", Key.Fn->getName()) << "': ";
    if (!Proven.empty())
      R << "proven disjoint (treated as restrict): "
        << ore::NV("Disjoint", Proven);
    if (!Unproven.empty())
      R << (Proven.empty() ? "" : "; ")
        << "not proven disjoint: " << ore::NV("Unproven", Unproven);
    return R;
  });
}

/// The remark (-Rpass=gpuad) saying which pointers a request's derivative
/// compares at run time (RuntimeDisjointness.h), or why it cannot.
static void remarkRuntimeCheck(CallBase &Call, const DerivativeKey &Key,
                               const DisjointnessPlan &P) {
  std::string Compared;
  SmallVector<bool, 16> Used(P.Pointers.size());
  for (auto [I, J] : P.Pairs)
    Used[I] = Used[J] = true;
  for (unsigned I = 0; I < P.Pointers.size(); ++I)
    if (Used[I])
      Compared += (Compared.empty() ? "" : ", ") +
                  std::string(P.Pointers[I].Shadow ? "the shadow of " : "") +
                  parameterDescription(*Key.Fn, P.Pointers[I].Arg);
  OptimizationRemarkEmitter ORE(Call.getFunction());
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "RuntimeAliasCheck", Call.getDebugLoc(),
                         Call.getParent());
    R << "derivative of '" << ore::NV("Function", Key.Fn->getName()) << "': ";
    if (!P.possible())
      R << "no run-time alias check: " << ore::NV("Why", P.WhyNot);
    else if (P.Pairs.empty())
      R << "every pointer argument is restrict (none overlaps another)";
    else
      R << "restrict version if, at run time, no written range overlaps "
           "another of: "
        << ore::NV("Compared", Compared);
    return R;
  });
}

void processEntryCall(CallBase &Call, DerivativeContext &Ctx) {
  Diagnostics &Diags = Ctx.diags();
  Function &Caller = *Call.getFunction();
  StringRef Name =
      cast<Function>(Call.getCalledOperand()->stripPointerCasts())->getName();
  EntryPoint EP = *classifyEntryPoint(Name);
  if (EP.Kind == EntryKind::TypeHint)
    return eraseRequestCall(Call);
  // Entry points that are not derivatives.
  if (EP.Kind == EntryKind::Batch || EP.Kind == EntryKind::InactiveCall ||
      EP.Kind == EntryKind::VirtualReverse) {
    bool Lowered = EP.Kind == EntryKind::Batch ? lowerBatchCall(Call, Diags)
                   : EP.Kind == EntryKind::InactiveCall
                       ? lowerInactiveCall(Call, Diags)
                       : lowerVirtualReverse(Call, Diags);
    if (!Lowered)
      eraseRequestCall(Call);
    return;
  }
  if (EP.Kind == EntryKind::Unknown) {
    Diags.error(Caller, Call,
                "'" + Name + "' is not an entry point gpuad implements");
    return eraseRequestCall(Call);
  }
  std::optional<DiffRequest> Req = parseRequest(Call, EP.Mode, Diags);
  if (!Req)
    return eraseRequestCall(Call);
  // A combined reverse derivative is specialised on the arguments its call
  // site proves disjoint: the reverse sweep may then load them again instead
  // of taping what it read.
  if (EP.Mode == DiffMode::ReverseCombined && Ctx.options().CallSiteAliasing) {
    CallSiteAliasing A = proveDisjointArguments(*Req, Ctx.calls());
    if (A.anyDisjoint())
      Req->Key.Disjoint = A.Disjoint;
    remarkAliasing(Call, Req->Key, A);
  }
  // Host derivatives that might alias check at run time whether they do.
  if (EP.Mode == DiffMode::ReverseCombined && Ctx.options().RuntimeAliasCheck &&
      !Ctx.target().isGPU() &&
      any_of(Req->Key.Fn->args(),
             [](const Argument &A) { return A.getType()->isPointerTy(); })) {
    DisjointnessPlan P = planRuntimeDisjointness(Ctx, Req->Key);
    if (P.possible())
      Req->Key.Alias =
          P.Pairs.empty() ? AliasVersion::Restrict : AliasVersion::Checked;
    remarkRuntimeCheck(Call, Req->Key, P);
  }
  Function *D = nullptr;
  if (isSplit(EP.Mode)) {
    // The user's two calls name one split derivative (the tape travels
    // between them; nothing is known of what happens in between).
    Ctx.noteSplitRequested(Req->Key);
    SplitHalves H = Ctx.getSplit(Req->Key);
    if (EP.Mode == DiffMode::TapeSize) {
      lowerTapeSize(*Req, Ctx.signatureOf(*H.Augmented));
      ++NumRequests;
      return;
    }
    D = EP.Mode == DiffMode::ReverseAugmented ? H.Augmented : H.Backward;
  } else {
    Ctx.noteRequested(Req->Key);
    D = Ctx.getOrCreate(Req->Key);
  }
  if (EP.Mode != DiffMode::ReverseBackward && !Ctx.target().isGPU()) {
    Module &M = *Call.getModule();
    IRBuilder<> B(&Call);
    B.CreateCall(M.getOrInsertFunction(DerivativeContext::ZeroMadeShadowsMarker,
                                       B.getVoidTy()));
  }
  DebugLoc Loc = Call.getDebugLoc();
  BasicBlock *Block = Call.getParent();
  BatchMapping Mapping;
  if (D)
    Mapping = planBatchMapping(*Req, *D, Ctx);
  if (!D || !lowerRequest(*Req, *D, Ctx.signatureOf(*D), Ctx.target(), Diags,
                          Mapping.Plan ? &*Mapping.Plan : nullptr))
    return eraseRequestCall(Call);
  ++NumRequests;
  remarkLowered(Caller, Loc, Block, Req->Key, *D, Mapping);
}

/// Whether \p F, or a function it calls, contains one of \p Pending.
static bool reachesPending(Function *F,
                           const SmallPtrSetImpl<CallBase *> &Pending) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work = {F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    if (!G || G->isDeclaration() || !Seen.insert(G).second)
      continue;
    for (Instruction &I : instructions(*G))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (Pending.count(CB))
          return true;
        Work.push_back(CB->getCalledFunction());
      }
  }
  return false;
}

std::vector<CallBase *> innermostFirst(std::vector<CallBase *> Calls) {
  SmallPtrSet<CallBase *, 16> Pending(Calls.begin(), Calls.end());
  std::vector<CallBase *> Order;
  while (!Pending.empty()) {
    CallBase *Next = nullptr;
    for (CallBase *C : Calls)
      if (Pending.count(C) && !reachesPending(requestedFunction(*C), Pending)) {
        Next = C;
        break;
      }
    if (!Next) // a cycle: take them in module order; emitters report it
      for (CallBase *C : Calls)
        if (Pending.count(C)) {
          Next = C;
          break;
        }
    Pending.erase(Next);
    Order.push_back(Next);
  }
  return Order;
}

} // namespace gpuad
