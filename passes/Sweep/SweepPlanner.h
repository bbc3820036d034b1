//===- SweepPlanner.h - What emitters ask of the planner --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The emitters (the shared forward sweep, forward and reverse mode) make
/// one derivative; what they need beyond it -- the derivative of a callee,
/// the module's shadows of globals, what the module's analyses and options
/// say -- they ask the planner through this interface.  The planner
/// (Planner/DerivativeContext) implements it and creates the emitters, so
/// the emitters never see it: the dependency points one way.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_SWEEPPLANNER_H
#define GPUAD_SWEEP_SWEEPPLANNER_H

#include "Analysis/TypeTree.h"
#include "Support/DerivativeKey.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class Value;
} // namespace llvm

namespace gpuad {

class ArgumentWrites;
class CallTable;
class Diagnostics;
struct DerivativeSignature;
struct GpuadOptions;
class Preprocessor;
class TargetHooks;
class TypeSummaries;

/// The two halves of a function differentiated in split form.
struct SplitHalves {
  llvm::Function *Augmented = nullptr;
  llvm::Function *Backward = nullptr;
};

class SweepPlanner {
public:
  virtual ~SweepPlanner();

  // ---- The module's state. --------------------------------------------------
  virtual const GpuadOptions &options() const = 0;
  virtual Diagnostics &diags() = 0;
  virtual TargetHooks &target() = 0;
  virtual Preprocessor &preprocessor() = 0;
  /// What each call does (the module's call table).
  virtual CallTable &calls() = 0;
  /// Type analysis summaries of the module's functions.
  virtual TypeSummaries &typeSummaries() = 0;
  /// Which arguments calls may write through.
  virtual ArgumentWrites &argumentWrites() = 0;

  // ---- Derivatives of callees. ----------------------------------------------
  /// The generated function for \p Key, emitting it on first use.  Returns
  /// null if \p Key's mode is not implemented.  A derivative whose emission
  /// failed (errors were reported) is a stub that returns poison.
  virtual llvm::Function *getOrCreate(const DerivativeKey &Key) = 0;
  /// The augmented and backward halves for \p Key (whose mode is ignored),
  /// emitting them on first use.
  virtual SplitHalves getSplit(DerivativeKey Key) = 0;
  virtual const DerivativeSignature &
  signatureOf(const llvm::Function &Derivative) const = 0;
  /// A split-mode derivative a user names (__enzyme_augmentfwd/reverse).
  virtual bool isSplitRequested(const DerivativeKey &Key) const = 0;
  /// A derivative a user request names directly (not one made for a call
  /// inside another derivative): only those own the block's shared shadows.
  virtual bool isRequested(const DerivativeKey &Key) const = 0;
  /// Per parameter of \p Key's function, whether its derivative treats it
  /// as restrict: the parameter is, the call site proved it disjoint, or
  /// the derivative is the restrict version (RuntimeDisjointness.h).
  virtual llvm::SmallVector<bool, 8>
  restrictParameters(const DerivativeKey &Key) const = 0;
  /// What callers know of the types behind \p Callee's arguments (the
  /// callee alone may not: a std::copy<double> body copies untyped bytes).
  virtual void
  noteArgumentTypes(const llvm::CallBase &Call,
                    llvm::function_ref<TypeTree(const llvm::Value *)> Tree) = 0;
  virtual llvm::ArrayRef<TypeTree>
  argumentTypes(const llvm::Function &Callee) const = 0;
  /// Whether \p F dispatches a call through a pointer (IndirectCalls).
  virtual bool isDispatcher(const llvm::Function &F) const = 0;
  /// Whether the split halves of \p Dispatcher at \p Width call the
  /// {augmented, reverse} pair a function pointer's shadow may point to
  /// (Enzyme's custom derivative of a function pointer) where the shadow
  /// is neither null nor the function (FunctionShadowPairs.cpp).
  virtual bool callsShadowPairs(const llvm::Function &Dispatcher,
                                unsigned Width) = 0;

  // ---- Shadows of globals. --------------------------------------------------
  /// The block-shared shadows derivative \p D (and what it calls) adds to;
  /// the requested derivative that calls it zeroes them.
  virtual void
  noteSharedShadows(const llvm::Function *D,
                    llvm::ArrayRef<llvm::GlobalVariable *> Shadows) = 0;
  virtual llvm::ArrayRef<llvm::GlobalVariable *>
  sharedShadowsOf(const llvm::Function *D) const = 0;
  /// The read-only shadow of a constant global for batch lane \p Lane:
  /// all zero (a table of coefficients indexed together with active
  /// memory), but for the addresses of mutable globals in it, which are
  /// their shadows' (a constant table of pointers to state).
  virtual llvm::GlobalVariable *constantShadowOf(llvm::GlobalVariable &GV,
                                                 unsigned Lane) = 0;
  /// The shadow of block-shared variable \p GV for batch lane \p Lane:
  /// another block-shared variable of the same type (made once).
  virtual llvm::GlobalVariable *sharedShadowOf(llvm::GlobalVariable &GV,
                                               unsigned Lane) = 0;
  /// The shadow of mutable host global \p GV for batch lane \p Lane: the
  /// global named by its `enzyme_shadow` metadata (lane 0), else a global
  /// `<name>_shadow` (`<name>_shadow_<lane>`) -- the program's own if it
  /// defines or declares one (it then reads the derivative there), made
  /// here otherwise -- initialised with the initializer's shadow: zero
  /// floats, the same integers, pointers to other globals' shadows.  Made
  /// once per module; derivatives accumulate there across calls.
  virtual llvm::GlobalVariable *globalShadowOf(llvm::GlobalVariable &GV,
                                               unsigned Lane) = 0;
  /// Whether \p S is a shadow global gpuad made (the program cannot set
  /// it: a pointer in it that the primal assigned outside differentiated
  /// code is null).
  virtual bool isMadeShadow(const llvm::GlobalVariable &S) const = 0;
  /// Whether \p Shadow stands for dynamic shared memory's shadow until the
  /// planner places it (DerivativeContext::lowerDynamicSharedShadows).
  virtual bool
  isDynamicSharedShadow(const llvm::GlobalVariable &Shadow) const = 0;
  /// A call in \p F to code that may read or write mutable globals (itself
  /// or a few calls deep; unknown code may), if any.  A function shadows
  /// its globals only where no such call can see them: the callee's own
  /// analysis would not know the global carries derivatives.
  virtual const llvm::CallBase *
  callAccessingGlobals(const llvm::Function &F) = 0;
  /// Whether host global \p GV may carry derivatives between functions
  /// (DerivativeContext::carriesDerivatives says when).
  virtual bool carriesDerivatives(const llvm::GlobalVariable &GV) = 0;
  /// Whether \p Call may read or write a global that carries derivatives
  /// (its callee, or what it calls, names one).
  virtual bool reachesCarryingGlobals(const llvm::CallBase &Call) = 0;

  // ---- Run-time checks. -----------------------------------------------------
  /// The host function `(primal, shadow, message) -> shadow` that prints
  /// the message and stops the program where a loaded pointer has no shadow
  /// (null) and the primal has an address: memory the program set outside
  /// derivative code, whose shadow does not follow it.
  virtual llvm::Function *shadowAddressCheck() = 0;
  /// The host function `(primal, shadow, message) -> shadow` that stops the
  /// program where a function pointer's shadow is neither null nor the
  /// primal: gpuad calls the derivative of the function the primal names,
  /// never through the shadow.
  virtual llvm::Function *functionShadowCheck() = 0;
};

} // namespace gpuad

#endif // GPUAD_SWEEP_SWEEPPLANNER_H
