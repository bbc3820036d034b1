//===- DerivativeContext.h - Module-wide state of one gpuad run -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The planner: owns what every emitter of a module shares -- diagnostics,
/// the target hooks, the preprocessor, and the memo of generated functions
/// keyed by DerivativeKey.  A derivative is created (declared, remembered,
/// then emitted) the first time it is asked for, so recursion and repeated
/// calls reuse one function.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_CORE_DERIVATIVECONTEXT_H
#define GPUAD_CORE_DERIVATIVECONTEXT_H

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Core/DerivativeKey.h"
#include "Core/DerivativeSignature.h"
#include "Core/IndirectCalls.h"
#include "Core/Preprocess.h"
#include "Options.h"
#include "Requests/Registrations.h"
#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

namespace llvm {
class GlobalVariable;
class Module;
} // namespace llvm

namespace gpuad {

/// The two halves of a function differentiated in split form.
struct SplitHalves {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Backward = nullptr;
};

class DerivativeContext {
public:
  DerivativeContext(llvm::Module &M, GpuadOptions Options);
  ~DerivativeContext();

  llvm::Module &module() { return M; }
  const GpuadOptions &options() const { return Options; }
  Diagnostics &diags() { return Diags; }
  TargetHooks &target() { return *Target; }
  Preprocessor &preprocessor() { return Pre; }
  /// What each call does (the module's call table).
  CallTable &calls() { return Calls; }

  /// The generated function for \p Key, emitting it on first use.  Returns
  /// null if \p Key's mode is not implemented.  A derivative whose emission
  /// failed (errors were reported) is a stub that returns poison.
  llvm::Function *getOrCreate(const DerivativeKey &Key);
  /// After errors: every generated derivative goes (bodies first, so none
  /// keeps another alive), and the calls to them; nothing half-made reaches
  /// code generation.
  void discardDerivatives();
  /// The block-shared shadows derivative \p D (and what it calls) adds to;
  /// the requested derivative that calls it zeroes them.
  void noteSharedShadows(const llvm::Function *D,
                         llvm::ArrayRef<llvm::GlobalVariable *> Shadows) {
    SharedUses[D].assign(Shadows.begin(), Shadows.end());
  }
  llvm::ArrayRef<llvm::GlobalVariable *>
  sharedShadowsOf(const llvm::Function *D) const {
    auto It = SharedUses.find(D);
    return It == SharedUses.end()
               ? llvm::ArrayRef<llvm::GlobalVariable *>()
               : llvm::ArrayRef<llvm::GlobalVariable *>(It->second);
  }
  /// A split-mode derivative a user names (__enzyme_augmentfwd/reverse).
  void noteSplitRequested(const DerivativeKey &Key) {
    SplitRequested.insert(Key);
  }
  bool isSplitRequested(const DerivativeKey &Key) const {
    return SplitRequested.count(Key);
  }
  /// A derivative a user request names directly (not one made for a call
  /// inside another derivative): only those own the block's shared shadows.
  void noteRequested(const DerivativeKey &Key) { Requested.insert(Key); }
  bool isRequested(const DerivativeKey &Key) const {
    return Requested.count(Key);
  }
  const DerivativeSignature &
  signatureOf(const llvm::Function &Derivative) const;
  /// Per parameter of \p Key's function, whether its derivative treats it
  /// as restrict: the parameter is, the call site proved it disjoint, or
  /// the derivative is the restrict version (RuntimeDisjointness.h).
  llvm::SmallVector<bool, 8> restrictParameters(const DerivativeKey &Key) const;
  /// The user's registered derivatives of \p F (Registrations.h), or null.
  const CustomRule *customRuleFor(const llvm::Function &F) const {
    return Regs.ruleFor(F);
  }
  /// The augmented and backward halves for \p Key (whose mode is ignored),
  /// emitting them on first use.
  SplitHalves getSplit(DerivativeKey Key);

  /// What callers know of the types behind \p Callee's arguments (the
  /// callee alone may not: a std::copy<double> body copies untyped bytes).
  void
  noteArgumentTypes(const llvm::CallBase &Call,
                    llvm::function_ref<TypeTree(const llvm::Value *)> Tree);
  llvm::ArrayRef<TypeTree> argumentTypes(const llvm::Function &Callee) const;
  /// Type analysis summaries of the module's functions.
  TypeSummaries &typeSummaries() { return Summaries; }
  /// Which arguments calls may write through.
  ArgumentWrites &argumentWrites() { return Writes; }

  /// The read-only shadow of a constant global for batch lane \p Lane:
  /// all zero (a table of coefficients indexed together with active
  /// memory), but for the addresses of mutable globals in it, which are
  /// their shadows' (a constant table of pointers to state).
  llvm::GlobalVariable *constantShadowOf(llvm::GlobalVariable &GV,
                                         unsigned Lane);
  /// The shadow of block-shared variable \p GV for batch lane \p Lane:
  /// another block-shared variable of the same type (made once).
  llvm::GlobalVariable *sharedShadowOf(llvm::GlobalVariable &GV, unsigned Lane);
  /// The shadow of mutable host global \p GV for batch lane \p Lane: the
  /// global named by its `enzyme_shadow` metadata (lane 0), else a global
  /// `<name>_shadow` (`<name>_shadow_<lane>`) -- the program's own if it
  /// defines or declares one (it then reads the derivative there), made
  /// here otherwise -- initialised with the initializer's shadow: zero
  /// floats, the same integers, pointers to other globals' shadows.  Made
  /// once per module; derivatives accumulate there across calls.
  llvm::GlobalVariable *globalShadowOf(llvm::GlobalVariable &GV, unsigned Lane);
  /// A call in \p F to code that may read or write mutable globals (itself
  /// or a few calls deep; unknown code may), if any.  A function shadows
  /// its globals only where no such call can see them: the callee's own
  /// analysis would not know the global carries derivatives.
  const llvm::CallBase *callAccessingGlobals(const llvm::Function &F);
  /// Whether host global \p GV may carry derivatives between functions:
  /// mutable float data (not marked inactive) that some function of the
  /// module writes with a computed value, copies into, or hands to a call,
  /// or whose address goes where that scan cannot follow it (into memory,
  /// another global's initializer, an integer); or a table of pointers to
  /// such data (by its initializer, or a store of such an address), or one
  /// the program gave a shadow.  Every function's analysis then treats it
  /// as carrying them, so a callee that writes it and a caller that reads
  /// it agree on its shadow.
  bool carriesDerivatives(const llvm::GlobalVariable &GV);
  /// The functions the module's requests differentiate (null: one through
  /// a pointer gpuad cannot name).  What they may call is the code whose
  /// stores decide which tables of pointers carry derivatives.
  void setRequestedFunctions(llvm::ArrayRef<const llvm::Function *> Fns) {
    RequestedFunctions.assign(Fns.begin(), Fns.end());
  }
  /// Whether the program gives \p GV its shadow (`enzyme_shadow`, or a
  /// `<name>_shadow` it defines or declares).
  bool hasProgramShadow(const llvm::GlobalVariable &GV) const;
  /// Whether \p S is a shadow global gpuad made (the program cannot set
  /// it: a pointer in it that the primal assigned outside differentiated
  /// code is null).
  bool isMadeShadow(const llvm::GlobalVariable &S) const {
    return llvm::is_contained(MadeGlobalShadows, &S);
  }
  /// The host function `(primal, shadow, message) -> shadow` that prints
  /// the message and stops the program where a loaded pointer has no shadow
  /// (null) and the primal has an address: memory the program set outside
  /// derivative code, whose shadow does not follow it.
  llvm::Function *shadowAddressCheck();
  /// The host function `(primal, shadow, message) -> shadow` that stops the
  /// program where a function pointer's shadow is neither null nor the
  /// primal: gpuad calls the derivative of the
  /// function the primal names, never through the shadow.
  llvm::Function *functionShadowCheck();
  /// Whether \p F dispatches a call through a pointer (IndirectCalls).
  bool isDispatcher(const llvm::Function &F) const {
    return Indirect.isDispatcher(F);
  }
  /// Whether the split halves of \p Dispatcher at \p Width call the
  /// {augmented, reverse} pair a function pointer's shadow may point to
  /// (Enzyme's custom derivative of a function pointer) where the shadow
  /// is neither null nor the function (FunctionShadowPairs.cpp).
  bool callsShadowPairs(const llvm::Function &Dispatcher, unsigned Width);
  /// Whether \p Call may read or write a global that carries derivatives
  /// (its callee, or what it calls, names one).
  bool reachesCarryingGlobals(const llvm::CallBase &Call);
  /// A call to this function marks where a request's run of derivative
  /// code starts (before a forward, combined or augmented call).  There,
  /// zeroMadeShadowsAtRequests() zeroes the floats of the shadow globals
  /// gpuad made (the program can neither seed nor read them, so a tangent
  /// or adjoint left by an earlier run must not count).
  static constexpr const char *ZeroMadeShadowsMarker =
      "gpuad.zero_made_shadows";
  void zeroMadeShadowsAtRequests();
  /// Dynamic (`extern __shared__`) memory has its shadow in the launch's
  /// dynamic shared memory too, past the primal's: the gradient kernel is
  /// launched with twice the bytes, and the shadow of base + o is
  /// base + bytes / 2 + o.  Until finish() the shadow of \p GV (one of the
  /// dynamic arrays, which all start at the same base) is a placeholder
  /// variable; isDynamicSharedShadow() tells it.
  bool isDynamicSharedShadow(const llvm::GlobalVariable &Shadow) const {
    return DynamicShadows.count(&Shadow);
  }
  /// Replaces the placeholders by base + (dynamic bytes / 2).
  void lowerDynamicSharedShadows();

  /// Finishes the run: links target libraries, cleans up generated
  /// functions, erases clones, turns inactive dispatcher calls back into
  /// indirect calls (IndirectCalls::restore).  On GPU targets generated
  /// functions are marked alwaysinline (a device call costs registers and
  /// parameter space); returns true if any function was.
  bool finish();

private:
  llvm::Module &M;
  GpuadOptions Options;
  Diagnostics Diags;
  std::unique_ptr<TargetHooks> Target;
  Registrations Regs;
  /// This module's call rows: built-in, the target's, the registrations'.
  CallTable Calls;
  Preprocessor Pre;
  IndirectCalls Indirect;
  std::map<DerivativeKey, llvm::Function *> Generated;
  std::set<DerivativeKey> Requested, SplitRequested;
  std::map<const llvm::Function *, llvm::SmallVector<llvm::GlobalVariable *, 2>>
      SharedUses;
  /// Node-based: emitters hold references while nested derivatives are
  /// added.
  std::map<const llvm::Function *, DerivativeSignature> Signatures;
  llvm::DenseMap<std::pair<llvm::GlobalVariable *, unsigned>,
                 llvm::GlobalVariable *>
      ConstantShadows;
  llvm::DenseMap<std::pair<llvm::GlobalVariable *, unsigned>,
                 llvm::GlobalVariable *>
      SharedShadows;
  llvm::DenseMap<std::pair<llvm::GlobalVariable *, unsigned>,
                 llvm::GlobalVariable *>
      GlobalShadows;
  llvm::DenseMap<const llvm::Function *, const llvm::CallBase *>
      CallsAccessingGlobals;
  std::optional<llvm::SmallPtrSet<const llvm::GlobalVariable *, 16>>
      CarryingGlobals;
  llvm::DenseMap<const llvm::Function *, bool> ReachesCarrying;
  const llvm::SmallPtrSetImpl<const llvm::GlobalVariable *> &carryingGlobals();
  llvm::SmallVector<llvm::GlobalVariable *, 8> MadeGlobalShadows;
  std::vector<const llvm::Function *> RequestedFunctions;
  /// Helpers marked alwaysinline were made (the run-time shadow checks).
  bool MadeInlineHelpers = false;
  /// The functions the requests' code may run (indirect calls: any whose
  /// address is taken).
  llvm::SmallPtrSet<const llvm::Function *, 32> mayRunInDerivatives() const;
  bool functionReachesCarrying(const llvm::Function &F);
  llvm::Constant *shadowInitializer(llvm::Constant *C, unsigned Lane);
  llvm::DenseMap<const llvm::Function *, bool> Recursive;
  /// Placeholder shadow -> the dynamic array it shadows.
  llvm::DenseMap<const llvm::GlobalVariable *, llvm::GlobalVariable *>
      DynamicShadows;
  std::map<const llvm::Function *, llvm::SmallVector<TypeTree, 8>> ArgTypes;
  TypeSummaries Summaries;
  ArgumentWrites Writes;

  llvm::Function *declare(const DerivativeKey &Key,
                          const DerivativeSignature &Sig);
  /// Derivatives made from a user's registered functions.
  llvm::Function *getCustom(const DerivativeKey &Key, const CustomRule &R);
  SplitHalves getCustomSplit(const DerivativeKey &AugKey,
                             const DerivativeKey &BwdKey, const CustomRule &R);
  /// Wraps the dispatcher's halves \p Own in halves that call the pair
  /// behind the function pointer's shadow where there is one.
  SplitHalves withShadowPairs(const DerivativeKey &Key, SplitHalves Own);
  /// Whether \p F can call itself (directly or through other functions).
  bool isRecursive(const llvm::Function &F);
};

} // namespace gpuad

#endif // GPUAD_CORE_DERIVATIVECONTEXT_H
