//===- RuleFunctionGuard.h - Keep rule functions out of the inliner -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Device math arrives as function bodies: clang links libdevice (`__nv_*`,
/// marked alwaysinline) and ocml (`__ocml_*`) before the pipeline, and the
/// inliner would dissolve `__nv_sin` into bit manipulation and `llvm.nvvm.*`
/// intrinsics before gpuad runs.  gpuad differentiates those functions by
/// rule, so at the start of the pipeline (only in modules with requests) the
/// guard marks every defined function that has a rule `noinline` and keeps
/// it in `llvm.compiler.used` (so interprocedural passes cannot rewrite its
/// signature), remembering its original inline attribute; after
/// differentiation it
/// restores the attributes and runs the always-inliner, so libdevice ends up
/// inlined exactly as without gpuad.
///
/// Functions a registration or annotation names (inactive, function-like,
/// with the user's derivative) are also kept from the inliner, and their
/// calls go to a body-less stand-in until gpuad runs: what the registration
/// says a call means must not be optimised away through the body (a
/// stop-gradient `return x;` would otherwise become x at its call sites).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_RULEFUNCTIONGUARD_H
#define GPUAD_NORMALIZE_RULEFUNCTIONGUARD_H

#include "llvm/IR/PassManager.h"

#include <functional>

namespace gpuad {

/// The PipelineStart half: protects rule functions from inlining.
class ProtectRuleFunctionsPass
    : public llvm::PassInfoMixin<ProtectRuleFunctionsPass> {
public:
  /// Guards modules with requests, and those \p AlsoWhen picks (device
  /// code whose kernels get derivative kernels for host launches).
  explicit ProtectRuleFunctionsPass(
      std::function<bool(llvm::Module &)> AlsoWhen = nullptr)
      : AlsoWhen(std::move(AlsoWhen)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::function<bool(llvm::Module &)> AlsoWhen;
};

/// Called by the gpuad pass first: registered functions' calls call them
/// again.  Returns true if it changed the module.
bool revealRegisteredBodies(llvm::Module &M);

/// The other half, called by the gpuad pass when it is done: restores the
/// attributes; returns true if some function is alwaysinline again (the
/// caller then runs the always-inliner).
bool restoreRuleFunctions(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_RULEFUNCTIONGUARD_H
