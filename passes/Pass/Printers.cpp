//===- Printers.cpp - print<gpuad-types>, print<gpuad-activity> -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Pass/Printers.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TypeInfo.h"
#include "Requests/RequestParser.h"
#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

/// Parses every request of \p M and calls \p Fn with it.
template <typename Fn> static void forEachRequest(Module &M, Fn Visit) {
  Diagnostics Diags;
  for (CallBase *Call : findEntryCalls(M)) {
    auto *Callee =
        cast<Function>(Call->getCalledOperand()->stripPointerCasts());
    std::optional<EntryPoint> EP = classifyEntryPoint(Callee->getName());
    if (!EP || EP->Kind != EntryKind::Request)
      continue;
    if (std::optional<DiffRequest> Req = parseRequest(*Call, EP->Mode, Diags))
      Visit(*Req);
  }
}

static void printHeader(raw_ostream &OS, StringRef What, const DiffRequest &R) {
  OS << What << " for @" << R.Key.Fn->getName() << " (" << modeName(R.Key.Mode);
  for (ArgActivity A : R.Key.Args)
    OS << " " << activityName(A);
  OS << (R.Key.Ret == ReturnShadow::Shadow ? ", shadow return" : "") << ")\n";
}

PreservedAnalyses TypeInfoPrinterPass::run(Module &M, ModuleAnalysisManager &) {
  // As the pass sees them: calls contribute what their callees' summaries
  // say.
  // Calls as rows say, without a target's own spellings.
  CallTable Calls(M, nullptr);
  TypeSummaries Callees(Calls);
  forEachRequest(M, [&](const DiffRequest &R) {
    printHeader(OS, "gpuad-types", R);
    TypeInfo(*R.Key.Fn, Calls, &Callees).print(OS);
  });
  return PreservedAnalyses::all();
}

PreservedAnalyses ActivityPrinterPass::run(Module &M, ModuleAnalysisManager &) {
  Diagnostics Diags;
  std::unique_ptr<TargetHooks> Target =
      makeTargetHooks(M, GpuadOptions::fromCommandLine(), Diags);
  CallTable Calls(M, Target.get());
  forEachRequest(M, [&](const DiffRequest &R) {
    printHeader(OS, "gpuad-activity", R);
    Function &F = *R.Key.Fn;
    SmallVector<std::pair<const Argument *, ArgActivity>, 8> Args;
    for (unsigned I = 0; I < R.Key.Args.size(); ++I)
      Args.push_back({F.getArg(I), R.Key.Args[I]});
    TypeInfo TI(F, Calls);
    ActivityAnalysis(F, Args, R.Key.Ret, TI, Calls).print(OS);
  });
  return PreservedAnalyses::all();
}

} // namespace gpuad
