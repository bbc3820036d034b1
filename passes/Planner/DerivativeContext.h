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

#ifndef GPUAD_PLANNER_DERIVATIVECONTEXT_H
#define GPUAD_PLANNER_DERIVATIVECONTEXT_H

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/IndirectCalls.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Rules/Registrations.h"
#include "Support/DerivativeKey.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
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

class DerivativeContext final : public SweepPlanner {
public:
  /// Reads \p M's registrations, or takes \p Shared, those another
  /// context read (reading erases them).
  DerivativeContext(llvm::Module &M, GpuadOptions Options,
                    const Registrations *Shared = nullptr);
  const Registrations &registrations() const { return Regs; }
  ~DerivativeContext() override;

  llvm::Module &module() { return M; }

  // ---- What emitters ask (SweepPlanner documents each). ---------------------
  const GpuadOptions &options() const override { return Options; }
  Diagnostics &diags() override { return Diags; }
  TargetHooks &target() override { return *Target; }
  Preprocessor &preprocessor() override { return Pre; }
  CallTable &calls() override { return Calls; }
  TypeSummaries &typeSummaries() override { return Summaries; }
  ArgumentWrites &argumentWrites() override { return Writes; }
  llvm::Function *getOrCreate(const DerivativeKey &Key) override;
  /// The functions getOrCreate made for \p Key: its own, and for a key
  /// checked at run time the restrict and as-proven versions it dispatches
  /// to.
  llvm::SmallVector<llvm::Function *, 3>
  implementations(const DerivativeKey &Key);
  SplitHalves getSplit(DerivativeKey Key) override;
  const DerivativeSignature &
  signatureOf(const llvm::Function &Derivative) const override;
  bool isSplitRequested(const DerivativeKey &Key) const override {
    return SplitRequested.count(Key);
  }
  bool isRequested(const DerivativeKey &Key) const override {
    return Requested.count(Key);
  }
  llvm::SmallVector<bool, 8>
  restrictParameters(const DerivativeKey &Key) const override;
  void noteArgumentTypes(
      const llvm::CallBase &Call,
      llvm::function_ref<TypeTree(const llvm::Value *)> Tree) override;
  llvm::ArrayRef<TypeTree>
  argumentTypes(const llvm::Function &Callee) const override;
  bool isDispatcher(const llvm::Function &F) const override {
    return Indirect.isDispatcher(F);
  }
  bool callsShadowPairs(const llvm::Function &Dispatcher,
                        unsigned Width) override;
  void
  noteSharedShadows(const llvm::Function *D,
                    llvm::ArrayRef<llvm::GlobalVariable *> Shadows) override {
    SharedUses[D].assign(Shadows.begin(), Shadows.end());
  }
  llvm::ArrayRef<llvm::GlobalVariable *>
  sharedShadowsOf(const llvm::Function *D) const override {
    auto It = SharedUses.find(D);
    return It == SharedUses.end()
               ? llvm::ArrayRef<llvm::GlobalVariable *>()
               : llvm::ArrayRef<llvm::GlobalVariable *>(It->second);
  }
  llvm::GlobalVariable *constantShadowOf(llvm::GlobalVariable &GV,
                                         unsigned Lane) override;
  llvm::GlobalVariable *sharedShadowOf(llvm::GlobalVariable &GV,
                                       unsigned Lane) override;
  llvm::GlobalVariable *globalShadowOf(llvm::GlobalVariable &GV,
                                       unsigned Lane) override;
  bool isMadeShadow(const llvm::GlobalVariable &S) const override {
    return llvm::is_contained(MadeGlobalShadows, &S);
  }
  bool
  isDynamicSharedShadow(const llvm::GlobalVariable &Shadow) const override {
    return DynamicShadows.count(&Shadow);
  }
  const llvm::CallBase *callAccessingGlobals(const llvm::Function &F) override;
  /// Whether host global \p GV may carry derivatives between functions:
  /// mutable float data (not marked inactive) that some function of the
  /// module writes with a computed value, copies into, or hands to a call,
  /// or whose address goes where that scan cannot follow it (into memory,
  /// another global's initializer, an integer); or a table of pointers to
  /// such data (by its initializer, or a store of such an address), or one
  /// the program gave a shadow.  Every function's analysis then treats it
  /// as carrying them, so a callee that writes it and a caller that reads
  /// it agree on its shadow.
  bool carriesDerivatives(const llvm::GlobalVariable &GV) override;
  bool reachesCarryingGlobals(const llvm::CallBase &Call) override;
  llvm::Function *shadowAddressCheck() override;
  llvm::Function *functionShadowCheck() override;

  // ---- What the pass asks. --------------------------------------------------
  /// After errors: every generated derivative goes (bodies first, so none
  /// keeps another alive), and the calls to them; nothing half-made reaches
  /// code generation.
  void discardDerivatives();
  /// A split-mode derivative a user names (__enzyme_augmentfwd/reverse).
  void noteSplitRequested(const DerivativeKey &Key) {
    SplitRequested.insert(Key);
  }
  /// A derivative a user request names directly.
  void noteRequested(const DerivativeKey &Key) { Requested.insert(Key); }
  /// The user's registered derivatives of \p F (Registrations.h), or null.
  const CustomRule *customRuleFor(const llvm::Function &F) const {
    return Regs.ruleFor(F);
  }
  /// The functions the module's requests differentiate (null: one through
  /// a pointer gpuad cannot name).  What they may call is the code whose
  /// stores decide which tables of pointers carry derivatives.
  void setRequestedFunctions(llvm::ArrayRef<const llvm::Function *> Fns) {
    RequestedFunctions.assign(Fns.begin(), Fns.end());
  }
  /// Whether the program gives \p GV its shadow (`enzyme_shadow`, or a
  /// `<name>_shadow` it defines or declares).
  bool hasProgramShadow(const llvm::GlobalVariable &GV) const;
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
  /// variable; isDynamicSharedShadow() tells it.  This replaces the
  /// placeholders by base + (dynamic bytes / 2).
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
  /// A combined reverse derivative that calls \p Key's split halves (a
  /// custom rule's, a checkpointed loop's).
  llvm::Function *getCombinedFromSplit(const DerivativeKey &Key);
  SplitHalves getCustomSplit(const DerivativeKey &AugKey,
                             const DerivativeKey &BwdKey, const CustomRule &R);
  /// Wraps the dispatcher's halves \p Own in halves that call the pair
  /// behind the function pointer's shadow where there is one.
  SplitHalves withShadowPairs(const DerivativeKey &Key, SplitHalves Own);
  /// Whether \p F can call itself (directly or through other functions).
  bool isRecursive(const llvm::Function &F);
};

} // namespace gpuad

#endif // GPUAD_PLANNER_DERIVATIVECONTEXT_H
