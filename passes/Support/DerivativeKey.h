//===- DerivativeKey.h - What a generated derivative computes ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A DerivativeKey names one generated function: which primal, in which mode,
/// with which activity per argument and for the return, at which width.  The
/// planner memoizes on it, so a function reached twice with the same
/// activities (or recursively) is differentiated once.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_DERIVATIVEKEY_H
#define GPUAD_SUPPORT_DERIVATIVEKEY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <tuple>

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace gpuad {

enum class DiffMode {
  Forward,          ///< __enzyme_fwddiff
  ReverseCombined,  ///< __enzyme_autodiff
  ReverseAugmented, ///< __enzyme_augmentfwd
  ReverseBackward,  ///< __enzyme_reverse
  TapeSize,         ///< __enzyme_augmentsize
};

llvm::StringRef modeName(DiffMode M);
bool isReverse(DiffMode M);
/// The user-facing halves of split mode (and the tape-size query).
bool isSplit(DiffMode M);

/// Activity of one argument (Enzyme's DIFFE_TYPE).
enum class ArgActivity {
  Const,     ///< no derivative
  Dup,       ///< primal and shadow (tangent / pointer to shadow memory)
  DupNoNeed, ///< like Dup, but the primal result is not needed by the caller
  Active,    ///< enzyme_out: reverse mode returns its adjoint
};

llvm::StringRef activityName(ArgActivity A);

/// Whether the derivative returns the shadow of the primal return value.
enum class ReturnShadow {
  None,   ///< const return (or void)
  Shadow, ///< tangent (forward) / seed input (reverse)
};

/// How a combined reverse derivative treats the pointer arguments its call
/// site did not prove disjoint (RuntimeDisjointness.h).
enum class AliasVersion {
  AsProven, ///< as the call site proved (Disjoint); others may alias
  Checked,  ///< a dispatcher: checks at run time, calls Restrict or AsProven
  Restrict, ///< every pointer parameter `noalias` (the check passed)
};

struct DerivativeKey {
  llvm::Function *Fn = nullptr;
  DiffMode Mode = DiffMode::Forward;
  unsigned Width = 1;
  llvm::SmallVector<ArgActivity, 8> Args;
  ReturnShadow Ret = ReturnShadow::None;
  /// The derivative also returns the primal return value.
  bool ReturnPrimal = false;
  /// Split mode: per argument, whether the memory behind it may change
  /// between the augmented and the backward half (then the backward half
  /// cannot load it again and the tape keeps what it needs).  Empty: all may.
  llvm::SmallVector<bool, 8> Overwritten;
  /// Per argument, whether the request's call site proved the memory
  /// behind it reachable through this argument alone during the call (as
  /// `restrict` would promise; see CallSiteAliasing.h).  Empty: none.
  llvm::SmallVector<bool, 8> Disjoint;
  AliasVersion Alias = AliasVersion::AsProven;
  /// The function runs in every thread of an OpenMP team at once (a
  /// parallel region's body, and what it calls): adjoints it adds to memory
  /// other threads can reach are added atomically.
  bool Team = false;

  bool operator<(const DerivativeKey &O) const {
    return std::tie(Fn, Mode, Width, Args, Ret, ReturnPrimal, Overwritten,
                    Disjoint, Alias, Team) <
           std::tie(O.Fn, O.Mode, O.Width, O.Args, O.Ret, O.ReturnPrimal,
                    O.Overwritten, O.Disjoint, O.Alias, O.Team);
  }
  /// `f.fwd.w2.dup_const.ret` style suffix for generated names.
  std::string suffix() const;
};

} // namespace gpuad

#endif // GPUAD_SUPPORT_DERIVATIVEKEY_H
