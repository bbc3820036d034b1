//===- RuleFunctionGuard.cpp - Keep rule functions out of the inliner -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Core/RuleFunctionGuard.h"

#include "Requests/RequestParser.h"
#include "Rules/DerivativeRules.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

static constexpr const char *GuardAttr = "gpuad-guarded";

PreservedAnalyses ProtectRuleFunctionsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  if (findEntryCalls(M).empty())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !findRuleByName(F.getName()) ||
        F.hasFnAttribute(Attribute::NoInline))
      continue;
    bool WasAlwaysInline = F.hasFnAttribute(Attribute::AlwaysInline);
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    F.addFnAttr(GuardAttr, WasAlwaysInline ? "alwaysinline" : "");
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

bool restoreRuleFunctions(Module &M) {
  bool AnyAlwaysInline = false;
  for (Function &F : M) {
    if (!F.hasFnAttribute(GuardAttr))
      continue;
    bool WasAlwaysInline =
        F.getFnAttribute(GuardAttr).getValueAsString() == "alwaysinline";
    F.removeFnAttr(GuardAttr);
    F.removeFnAttr(Attribute::NoInline);
    if (WasAlwaysInline) {
      F.addFnAttr(Attribute::AlwaysInline);
      AnyAlwaysInline = true;
    }
  }
  return AnyAlwaysInline;
}

} // namespace gpuad
