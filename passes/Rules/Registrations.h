//===- Registrations.h - Users' derivatives and annotations -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Enzyme's ABI lets a program say things about its functions through
/// globals whose names contain a keyword (so C++ static members and several
/// registrations per file work):
///
///   void *__enzyme_register_gradient_f[3]   = {f, aug_f, rev_f};
///   void *__enzyme_register_derivative_f[2] = {f, fwd_f};
///   void *__enzyme_register_splitderivative_f[3] = {f, aug_f, fwd_f};
///   void *__enzyme_inactivefn[1]      = {f};
///   void *__enzyme_inactive_global[1] = {&g};
///   void *__enzyme_function_like[2]   = {f, "log"};
///   void *__enzyme_allocation_like[4] = {alloc, (void *)size_arg,
///                                        "free args", dealloc};
///
/// and, as annotations (`__attribute__((annotate("enzyme_inactive")))`,
/// `annotate("enzyme_function_like=log")`) or IR attributes
/// (`"enzyme_inactive"`, `"enzyme_math"="log"`).  The module is read once
/// per gpuad run: inactive functions get the `enzyme_inactive` attribute,
/// inactive globals the `enzyme_inactive` metadata, function-like ones an
/// alias of the rule row they name, allocators the `enzyme_allocator`
/// attribute; custom derivatives are kept here for the planner.  The
/// registration globals are erased (they only ever spoke to the compiler).
///
/// Until gpuad runs, the PipelineStart guard keeps every function a
/// registration names out of the inliner and keeps the registration globals
/// in `llvm.compiler.used` (see RuleFunctionGuard).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_REGISTRATIONS_H
#define GPUAD_RULES_REGISTRATIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace gpuad {

class CallTable;
class Diagnostics;

/// A user's own derivative of one function (Enzyme's calling convention:
/// see CustomDerivatives.h).
struct CustomRule {
  /// Reverse mode (__enzyme_register_gradient): the augmented forward
  /// function and the reverse function, and the registration's name.
  llvm::Function *Augmented = nullptr, *Reverse = nullptr;
  std::string GradientGlobal;
  /// Forward mode (__enzyme_register_derivative).
  llvm::Function *Forward = nullptr;
  std::string DerivativeGlobal;
  /// Split forward mode (__enzyme_register_splitderivative): an augmented
  /// function of f's arguments alone (returning {tape, result}) and a
  /// forward function that also takes the tape.  gpuad has no split forward
  /// requests; forward mode uses the pair when there is no
  /// register_derivative.
  llvm::Function *SplitAugmented = nullptr, *SplitForward = nullptr;
  std::string SplitGlobal;
};

class Registrations {
public:
  /// Reads every registration of \p M (globals and annotations), applies
  /// the annotations and erases the registration globals.  Malformed ones
  /// are errors in \p Diags (null: ignored, as in a module gpuad does not
  /// differentiate).
  static Registrations read(llvm::Module &M, Diagnostics *Diags);

  /// The user's derivatives of \p F, or null.
  const CustomRule *ruleFor(const llvm::Function &F) const {
    auto It = Rules.find(&F);
    return It == Rules.end() ? nullptr : &It->second;
  }

  /// Makes the functions registered "like" a rule row spellings of it, and
  /// those with registered derivatives Custom, in \p Calls.
  void addToCallTable(CallTable &Calls) const;

private:
  llvm::DenseMap<const llvm::Function *, CustomRule> Rules;
  /// Functions registered as "like" a rule row, and the row.
  std::vector<std::pair<const llvm::Function *, std::string>> Likes;
};

/// Whether \p GV is a registration global (by its name).
bool isRegistrationGlobal(const llvm::GlobalVariable &GV);
/// The functions the registrations of \p M name (the registered function,
/// allocators and their deallocators), for the PipelineStart guard.
llvm::SmallVector<llvm::Function *, 8> registeredFunctions(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_RULES_REGISTRATIONS_H
