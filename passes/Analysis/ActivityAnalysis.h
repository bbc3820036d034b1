//===- ActivityAnalysis.h - Which values carry derivatives ------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A value is active iff it is *varied* (depends on an active input) and
/// *useful* (can reach an active output); memory included, conservatively.
///
/// Data values (floats, and integers that may hold float bits) get the two
/// flags by a forward and a backward fixed point.  Memory gets them per
/// MemoryClasses class: storing a varied value varies a class, a useful load
/// makes it useful, memcpy carries both, and a call that is not a known rule
/// varies and uses every class its pointer arguments reach.  A class is
/// *shadowed* -- it has shadow memory the derivative reads and writes -- when
/// it holds a duplicated argument's memory, or is both varied and useful.
/// Pointers into shadowed classes need shadow pointers.
///
/// Arguments marked const are inactive by the user's word: their memory is
/// never shadowed, as in Enzyme.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_ACTIVITYANALYSIS_H
#define GPUAD_ANALYSIS_ACTIVITYANALYSIS_H

#include "Analysis/ArgumentWrites.h"
#include "Analysis/MemoryClasses.h"
#include "Support/DerivativeKey.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>

namespace llvm {
class Argument;
class CallBase;
class Function;
class GlobalVariable;
class Instruction;
class Value;
class raw_ostream;
} // namespace llvm

namespace gpuad {

class CallTable;
struct MpiRoutine;

class TypeInfo;

/// Whether a mutable global may carry derivatives into or out of any
/// function of the module (DerivativeContext::carriesDerivatives).
using CarryingGlobalFn = std::function<bool(const llvm::GlobalVariable &)>;
/// Whether a call may read or write such a global.
using CarryingCallFn = std::function<bool(const llvm::CallBase &)>;

class ActivityAnalysis {
public:
  /// \p Args gives the activity of the function's primal arguments (others,
  /// e.g. shadow parameters of a derivative being built, are ignored).
  ActivityAnalysis(
      llvm::Function &F,
      llvm::ArrayRef<std::pair<const llvm::Argument *, ArgActivity>> Args,
      ReturnShadow Ret, const TypeInfo &TI, const CallTable &Calls,
      CarryingGlobalFn CarriesDerivatives = nullptr,
      CarryingCallFn ReachesCarrying = nullptr);

  /// \p V carries a derivative: varied and useful data.
  bool isActive(const llvm::Value *V) const;
  /// \p V is float data or an integer that may hold float bits.
  bool isData(const llvm::Value *V) const;
  bool isVaried(const llvm::Value *V) const { return Varied.count(V); }
  /// \p V is an integer that may hold bits of varied float data.
  bool mayHoldVariedBits(const llvm::Value *V) const {
    return VariedBits.count(V);
  }
  bool isUseful(const llvm::Value *V) const { return Useful.count(V); }

  /// Pointer \p V points into shadowed memory and needs a shadow pointer.
  bool needsShadow(const llvm::Value *V) const;
  /// The memory class of pointer \p V (-1 if none) and whether it is shadowed.
  int classOf(const llvm::Value *V) const { return Classes.classOf(V); }
  bool isShadowed(int Class) const;
  bool isVariedMemory(int Class) const;
  bool isUsefulMemory(int Class) const;
  MemoryClasses &classes() { return Classes; }

  /// Calls that read and write nothing a derivative depends on.
  bool isInactiveCall(const llvm::CallBase &Call) const;
  /// An MPI routine's buffers, added to \p Set (varied or useful memory).
  bool exchangedBuffers(const llvm::CallBase &Call, const MpiRoutine &Mpi,
                        llvm::DenseSet<int> &Set);

  /// Integer operations on the bits of varied float data whose result flows
  /// back into float data (a double split into words and joined again, an
  /// exponent edited in place): their derivative is unknown, and dropping it
  /// would be a silent zero.
  llvm::ArrayRef<const llvm::Instruction *> lostDerivatives() const {
    return LostDerivatives;
  }

  void print(llvm::raw_ostream &OS) const;

private:
  bool propagateVaried(llvm::Instruction &I);
  bool propagateUseful(llvm::Instruction &I);
  bool setVaried(const llvm::Value *V);
  bool setUseful(const llvm::Value *V);
  bool setVariedBits(const llvm::Value *V);
  bool carriesVaried(const llvm::Value *V) const {
    return Varied.count(V) || VariedBits.count(V);
  }
  bool setMemory(llvm::DenseSet<int> &Set, const llvm::Value *Ptr);
  bool setMemoryReach(llvm::DenseSet<int> &Set, const llvm::Value *Ptr);
  bool memoryIn(const llvm::DenseSet<int> &Set, const llvm::Value *Ptr) const;
  bool memoryReachIn(const llvm::DenseSet<int> &Set,
                     const llvm::Value *Ptr) const;
  bool isRuleCall(const llvm::CallBase &Call) const;
  void findLostDerivatives();
  /// The mutable globals of floating-point data this function names that
  /// anything may write (a call that may write any global varies these).
  const llvm::SmallVector<const llvm::GlobalVariable *, 8> &writableGlobals();

  llvm::Function &F;
  const TypeInfo &TI;
  const CallTable &Calls;
  CarryingCallFn ReachesCarrying;
  MemoryClasses Classes;
  ArgumentWrites Writes;
  llvm::DenseSet<const llvm::Value *> Varied, Useful;
  /// Integers that are not data (the type analysis calls them integers) but
  /// may hold the bits of varied float data (computed from them, loaded
  /// from varied memory), and ones that reach float data (reinterpreted as
  /// float bits, stored to memory read as floats).  A value in both has a
  /// derivative nothing carries.
  llvm::DenseSet<const llvm::Value *> VariedBits, UsefulBits;
  llvm::SmallVector<const llvm::Instruction *, 2> LostDerivatives;
  void computeShadowed();

  llvm::DenseSet<int> VariedMem, UsefulMem, ForcedShadow;
  /// Classes this function itself stores varied values into.
  llvm::DenseSet<int> StoredVariedMem;
  /// A class of memory reached only through enzyme_const arguments that
  /// this function stores no varied value into: not shadowed.
  bool constArgumentsOnly(int C) const;
  /// A class of globals the program marks inactive, not merged with this
  /// function's own memory: not shadowed.
  bool inactiveGlobalsOnly(int C) const;
  std::optional<llvm::SmallVector<const llvm::GlobalVariable *, 8>>
      WritableGlobals;
  /// Final answer of isShadowed, per class root.
  llvm::DenseSet<int> Shadowed;
};

/// The MemoryClasses argument-shadow vector for \p Args over \p F's
/// arguments.
llvm::SmallVector<bool, 8> argumentShadows(
    llvm::Function &F,
    llvm::ArrayRef<std::pair<const llvm::Argument *, ArgActivity>> Args);

} // namespace gpuad

#endif // GPUAD_ANALYSIS_ACTIVITYANALYSIS_H
