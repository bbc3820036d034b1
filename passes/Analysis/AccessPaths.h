//===- AccessPaths.h - What a function does with its arguments' memory -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A function's type summary says what it learns about each parameter on
/// its own; it cannot say what flows from one parameter to another.  A copy
/// constructor copies whatever its argument holds, and `derived()` returns
/// what it is given: what those bytes are is known only to the caller.  At
/// -O0, where every member function is a call, C++ expression objects
/// (Eigen's blocks and products) pass through a dozen such functions.
///
/// An AccessPath names a pointer in the terms of the caller: a parameter
/// (or the result), through loads of pointers stored at known offsets, plus
/// a byte offset.  A function's relations say which of its paths are the
/// same pointer (a returned `this`, a reference stored in a member, a
/// member returned by value) and
/// which hold the same bytes (a member copied by memcpy).  Relations are
/// found through -O0's parameter slots and composed through calls, so the
/// caller's type analysis can apply them to its own values.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_ACCESSPATHS_H
#define GPUAD_ANALYSIS_ACCESSPATHS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace gpuad {

struct AccessPath {
  /// The parameter the path starts from; ResultArg for the result.
  static constexpr int ResultArg = -1;
  int Arg = ResultArg;
  /// Offsets at which pointers are loaded, in order, from the start.
  llvm::SmallVector<int, 2> Loads;
  /// Bytes added to the last pointer.
  int Offset = 0;

  /// The value loaded from this path's pointer (a pointer, where a path
  /// goes on from it).
  AccessPath loaded() const;
  bool operator==(const AccessPath &O) const {
    return Arg == O.Arg && Loads == O.Loads && Offset == O.Offset;
  }
};

struct PathRelation {
  enum Kind {
    SameValue, ///< A and B are the same pointer (or loaded value)
    SameBytes, ///< the Length bytes at A and at B are the same
  };
  Kind K;
  AccessPath A, B;
  int Length = 0;
  /// Only A learns from B: the result is one of several paths (std::min's
  /// references), which must not learn from each other through it.
  bool OneWay = false;
};

using PathRelations = llvm::SmallVector<PathRelation, 4>;

/// The relations of \p F's parameters and result: returns, stores of
/// pointers and constant-length copies whose addresses are paths, and the
/// relations of the functions it calls (from \p RelationsOf, null where not
/// known) in terms of its own paths.
PathRelations findPathRelations(
    llvm::Function &F,
    llvm::function_ref<const PathRelations *(llvm::Function &)> RelationsOf);

} // namespace gpuad

#endif // GPUAD_ANALYSIS_ACCESSPATHS_H
