//===- GpuadPass.cpp - The gpuad module pass ------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Pass/GpuadPass.h"

#include "Normalize/CheckpointedLoops.h"
#include "Normalize/IterationCounters.h"
#include "Normalize/RuleFunctionGuard.h"
#include "Planner/DerivativeContext.h"
#include "Requests/LaunchDerivatives.h"
#include "Requests/MapKernels.h"
#include "Requests/Markers.h"
#include "Requests/RequestProcessing.h"
#include "Rules/Registrations.h"
#include "Support/EntryPoints.h"
#include "Support/RuntimeBitcode.h"
#include "Tape/TapePlacement.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

namespace gpuad {

/// The checkpoint marker speaks to the compiler only: inactive while gpuad
/// runs, then its calls go.  Returns whether there were any.
static bool eraseCheckpointMarkers(Module &M) {
  Function *Marker = M.getFunction(CheckpointMarker);
  if (!Marker)
    return false;
  for (User *U : make_early_inc_range(Marker->users()))
    if (auto *Call = dyn_cast<CallBase>(U))
      Call->eraseFromParent();
  if (Marker->use_empty())
    Marker->eraseFromParent();
  return true;
}

PreservedAnalyses GpuadPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (Function *Marker = M.getFunction(CheckpointMarker))
    Marker->addFnAttr("enzyme_inactive");
  bool Revealed = revealRegisteredBodies(M);
  declareIterationCounters(M);
  std::vector<CallBase *> Calls = findEntryCalls(M);
  Function *FirstCaller =
      Calls.empty() ? nullptr : Calls.front()->getFunction();
  SmallVector<Function *, 8> LaunchedKernels =
      launchDerivativeKernels(M, Options);
  if (Calls.empty() && LaunchedKernels.empty()) {
    Revealed |= lowerIterationCounters(M);
    Revealed |= eraseCheckpointMarkers(M);
    // Registrations speak to the compiler only; nothing uses them here.
    Registrations::read(M, nullptr);
    // Attributes the guard changed in this module come back as they were.
    if (restoreRuleFunctions(M))
      AlwaysInlinerPass().run(M, MAM);
    return Revealed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  DerivativeContext Ctx(M, Options);
  std::vector<const Function *> Requested;
  for (CallBase *Call : Calls)
    Requested.push_back(requestedFunction(*Call));
  Ctx.setRequestedFunctions(Requested);
  for (CallBase *Call : innermostFirst(std::move(Calls)))
    processEntryCall(*Call, Ctx);
  bool InlineDerivatives = Ctx.finish();
  Ctx.zeroMadeShadowsAtRequests();
  if (Ctx.diags().numErrors())
    Ctx.discardDerivatives();
  else
    InlineDerivatives |=
        makeLaunchDerivatives(LaunchedKernels, Options, Ctx.registrations());
  eraseDeadMarkerReferences(M);
  lowerIterationCounters(M);
  eraseCheckpointMarkers(M);
  if (!Ctx.diags().numErrors() && !linkRuntime(M)) {
    const Function *At = FirstCaller ? FirstCaller : LaunchedKernels.front();
    Ctx.diags().error(*At, DebugLoc(),
                      "internal error: gpuad's runtime could not be linked");
  }
  // The entry points were never meant to exist; drop their declarations.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() && classifyEntryPoint(F.getName()))
      F.eraseFromParent();
  if (restoreRuleFunctions(M) || InlineDerivatives) {
    MAM.invalidate(M, PreservedAnalyses::none());
    AlwaysInlinerPass().run(M, MAM);
  }
  // After inlining, so that each kernel's tape regions are its own.
  if (!Ctx.diags().numErrors()) {
    placeTapesInSharedMemory(M, Ctx.target(), Options.TapePlacement);
    aggregateMapKernelSums(M, Ctx.target());
  }
  return PreservedAnalyses::none();
}

} // namespace gpuad
