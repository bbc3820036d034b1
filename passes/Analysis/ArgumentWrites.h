//===- ArgumentWrites.h - Which parameters a function writes through -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// For a defined function: through which pointer parameters it may write
/// (itself or in the functions it calls, a few calls deep).  A write whose
/// address comes from memory or from an unknown place may reach any
/// parameter's memory; writes to the function's own stack and heap blocks
/// reach none.  LLVM's function attributes say the same after FunctionAttrs
/// has run (-O1 and up); this also answers at -O0, where reverse mode needs
/// it to know what a call may overwrite.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_ARGUMENTWRITES_H
#define GPUAD_ANALYSIS_ARGUMENTWRITES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
} // namespace llvm

namespace gpuad {

class CallTable;

/// The mutable globals a call may write, itself or in what it calls.
struct GlobalWrites {
  llvm::SmallPtrSet<const llvm::GlobalVariable *, 4> Globals;
  /// It may write a global it does not name (unknown code, an address loaded
  /// from memory).
  bool Any = false;
};

/// What a function may write through its pointer parameters.
struct ParameterWrites {
  /// Bit k: anything, through parameter k.
  llvm::SmallBitVector Any;
  /// Bit k: data that may be floating point (a float's value or bits moved
  /// whole, a copy, unknown code), not only pointers, integers it computes
  /// and constants: what could carry a derivative.
  llvm::SmallBitVector Data;
};

class ArgumentWrites {
public:
  explicit ArgumentWrites(const CallTable &Calls) : Calls(Calls) {}

  /// Bit k: \p Call may write memory through its argument k (a pointer).
  llvm::SmallBitVector writtenArguments(const llvm::CallBase &Call);
  /// Bit k: \p Call may store data that can carry a derivative through its
  /// argument k (ParameterWrites::Data).
  llvm::SmallBitVector dataWrittenArguments(const llvm::CallBase &Call);
  /// The mutable globals \p Call may write: a callee that stores what it is
  /// given in a global the caller then reads passes a derivative through
  /// memory no argument shows.
  GlobalWrites writtenGlobals(const llvm::CallBase &Call);

private:
  ParameterWrites ofCall(const llvm::CallBase &Call, unsigned Depth);
  const ParameterWrites &ofFunction(const llvm::Function &F, unsigned Depth);

  const GlobalWrites &globalsOf(const llvm::Function &F, unsigned Depth);
  GlobalWrites globalsOfCall(const llvm::CallBase &Call, unsigned Depth);

  const CallTable &Calls;
  llvm::DenseMap<const llvm::Function *, ParameterWrites> Known;
  llvm::SmallPtrSet<const llvm::Function *, 8> InProgress;
  llvm::DenseMap<const llvm::Function *, GlobalWrites> KnownGlobals;
  llvm::SmallPtrSet<const llvm::Function *, 8> GlobalsInProgress;
};

} // namespace gpuad

#endif // GPUAD_ANALYSIS_ARGUMENTWRITES_H
