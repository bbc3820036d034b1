//===- RuleFunctionGuard.cpp - Keep rule functions out of the inliner -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/RuleFunctionGuard.h"

#include "Normalize/CheckpointedLoops.h"

#include "Rules/AlgorithmCalls.h"
#include "Rules/CallTable.h"
#include "Rules/Registrations.h"
#include "Support/EntryPoints.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace gpuad {

/// Records, on a guarded function, its original inline attribute:
/// "always", "never" or "default".
static constexpr const char *GuardAttr = "gpuad-guarded";

/// The suffix of the body-less stand-in a registered function's calls use
/// until gpuad runs.
static constexpr const char *OpaqueSuffix = ".gpuad.opaque";

/// Points every direct call of \p F at a declaration of the same type and
/// attributes.  A registration says what a call of F means (inactive, like
/// log1p, the user's derivative), so the optimizer must not see through the
/// call before gpuad does: it would infer `returned` for a stop-gradient
/// `double stop(double x) { return x; }` and replace the call by x, or fold
/// a function-like call whose body is not the function it is like.
static bool hideBodyFromCalls(Function &F) {
  SmallVector<Use *, 8> Callees;
  for (Use &U : F.uses())
    if (auto *Call = dyn_cast<CallBase>(U.getUser());
        Call && Call->isCallee(&U))
      Callees.push_back(&U);
  if (Callees.empty())
    return false;
  Function *Opaque = Function::Create(
      F.getFunctionType(), GlobalValue::ExternalLinkage, F.getAddressSpace(),
      F.getName() + OpaqueSuffix, F.getParent());
  Opaque->setAttributes(F.getAttributes());
  Opaque->setCallingConv(F.getCallingConv());
  for (Use *U : Callees)
    U->set(Opaque);
  return true;
}

/// The checkpoint marker touches no memory of the program's: the
/// optimiser may move loads and stores past it, and must keep it.
static bool describeCheckpointMarker(Module &M) {
  Function *Marker = M.getFunction(CheckpointMarker);
  if (!Marker || !Marker->isDeclaration())
    return false;
  Marker->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  Marker->addFnAttr(Attribute::NoUnwind);
  Marker->addFnAttr(Attribute::WillReturn);
  Marker->addFnAttr(Attribute::NoCallback);
  return true;
}

PreservedAnalyses ProtectRuleFunctionsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  bool Marked = describeCheckpointMarker(M);
  if (findEntryCalls(M).empty() && !(AlsoWhen && AlsoWhen(M)))
    return Marked ? PreservedAnalyses::none() : PreservedAnalyses::all();
  // The table without a target: what this module's calls are, as far as
  // rows tell (the target's own spellings are intrinsics, never guarded).
  CallTable Calls(M, nullptr);
  bool Changed = false;
  SmallVector<GlobalValue *, 16> Protected;
  // Functions a registration names keep their calls and signature too, and
  // the registrations themselves stay until gpuad reads them.
  SetVector<Function *> Registered;
  for (Function *F : registeredFunctions(M))
    Registered.insert(F);
  for (GlobalVariable &GV : M.globals())
    if (isRegistrationGlobal(GV))
      Protected.push_back(&GV);
  for (Function *F : Registered)
    if (!F->isDeclaration())
      Changed |= hideBodyFromCalls(*F);
  // Thrust algorithms run as map kernels: their calls stay calls.
  std::optional<StringMap<AlgorithmCall>> Algorithms = algorithmCalls();
  for (Function &F : M) {
    // Rule functions, and device code's own heap and memory functions
    // (HIP's malloc and free are inline wrappers of ockl's allocator, its
    // memcpy a byte loop): gpuad knows them by name, not by their bodies.
    if (F.isDeclaration() ||
        (!Calls.hasDerivativeRow(F) &&
         CallTable::headerMemoryFunction(F).empty() && !Registered.count(&F) &&
         !(Algorithms && Algorithms->count(F.getName()))) ||
        F.hasFnAttribute(GuardAttr))
      continue;
    bool WasAlwaysInline = F.hasFnAttribute(Attribute::AlwaysInline);
    bool WasNoInline = F.hasFnAttribute(Attribute::NoInline);
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    // Interprocedural passes rewrite internal functions whose every use is a
    // call: dead-argument elimination and constant propagation turn
    // fmax(0, x) or powf(x, 2.5f) into one-argument functions, global
    // optimisation changes calling conventions.  A use in
    // llvm.compiler.used keeps the library signature intact (and survives
    // the internalisation the AMDGPU pipeline does) until gpuad has run.
    F.addFnAttr(GuardAttr, WasAlwaysInline ? "always"
                           : WasNoInline   ? "never"
                                           : "default");
    Protected.push_back(&F);
    Changed = true;
  }
  appendToCompilerUsed(M, Protected);
  Changed |= !Protected.empty();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

bool revealRegisteredBodies(Module &M) {
  bool Changed = false;
  for (Function &Opaque : make_early_inc_range(M)) {
    StringRef Name = Opaque.getName();
    if (!Opaque.isDeclaration() || !Name.ends_with(OpaqueSuffix))
      continue;
    Function *F = M.getFunction(Name.drop_back(StringRef(OpaqueSuffix).size()));
    if (!F || F->getFunctionType() != Opaque.getFunctionType())
      continue;
    Opaque.replaceAllUsesWith(F);
    Opaque.eraseFromParent();
    Changed = true;
  }
  return Changed;
}

bool restoreRuleFunctions(Module &M) {
  bool AnyAlwaysInline = false;
  removeFromUsedLists(M, [](Constant *C) {
    auto *F = dyn_cast<Function>(C->stripPointerCasts());
    return F && F->hasFnAttribute(GuardAttr);
  });
  for (Function &F : M) {
    if (!F.hasFnAttribute(GuardAttr))
      continue;
    StringRef Inline = F.getFnAttribute(GuardAttr).getValueAsString();
    bool WasAlwaysInline = Inline == "always";
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
