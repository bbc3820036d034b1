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

/// Records, on a guarded function, what the guard changed: "inline,linkage"
/// with inline one of "always"/"never"/"default" and the original linkage
/// number.
static constexpr const char *GuardAttr = "gpuad-guarded";

PreservedAnalyses ProtectRuleFunctionsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  if (findEntryCalls(M).empty())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !findRuleByName(F.getName()) ||
        F.hasFnAttribute(GuardAttr))
      continue;
    bool WasAlwaysInline = F.hasFnAttribute(Attribute::AlwaysInline);
    bool WasNoInline = F.hasFnAttribute(Attribute::NoInline);
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    // Interprocedural passes rewrite internal functions (dead-argument
    // elimination turns fmax(0, x) into a one-argument function); external
    // linkage keeps the library signature intact until gpuad has run.
    std::string Record = (WasAlwaysInline ? "always," : WasNoInline ? "never,"
                                                                    : "default,") +
                         std::to_string(unsigned(F.getLinkage()));
    if (F.hasLocalLinkage()) {
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setVisibility(GlobalValue::HiddenVisibility);
    }
    F.addFnAttr(GuardAttr, Record);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

bool restoreRuleFunctions(Module &M) {
  bool AnyAlwaysInline = false;
  for (Function &F : M) {
    if (!F.hasFnAttribute(GuardAttr))
      continue;
    auto [Inline, Linkage] =
        F.getFnAttribute(GuardAttr).getValueAsString().split(',');
    bool WasAlwaysInline = Inline == "always";
    unsigned L = 0;
    Linkage.getAsInteger(10, L);
    F.setLinkage(GlobalValue::LinkageTypes(L));
    if (F.hasLocalLinkage())
      F.setVisibility(GlobalValue::DefaultVisibility);
    F.removeFnAttr(GuardAttr);
    if (Inline != "never")
      F.removeFnAttr(Attribute::NoInline);
    if (WasAlwaysInline) {
      F.addFnAttr(Attribute::AlwaysInline);
      AnyAlwaysInline = true;
    }
  }
  return AnyAlwaysInline;
}

} // namespace gpuad
