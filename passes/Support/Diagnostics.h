//===- Diagnostics.h - User-facing errors and warnings ----------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every problem a user must fix is reported here, as an LLVM diagnostic that
/// clang prints as `file:line:col: error: ...` (the instruction's debug
/// location, or the enclosing function's declaration without -g).  Nothing in
/// gpuad asserts or aborts on bad input: emitters report, then leave valid IR
/// behind so that every error of a module is reported in one compile.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_DIAGNOSTICS_H
#define GPUAD_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugLoc.h"

#include <optional>
#include <string>
#include <utility>

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace gpuad {

class Diagnostics {
public:
  /// Reports an error located at \p Loc inside \p UserFn.  \p UserFn must be
  /// a function the user wrote (not one of gpuad's clones) so that clang can
  /// fall back to its declaration when there is no debug information.
  void error(const llvm::Function &UserFn, const llvm::DebugLoc &Loc,
             const llvm::Twine &Msg);
  void warning(const llvm::Function &UserFn, const llvm::DebugLoc &Loc,
               const llvm::Twine &Msg);

  /// Reports at \p I, attributing it to the user's function \p UserFn.
  void error(const llvm::Function &UserFn, const llvm::Instruction &I,
             const llvm::Twine &Msg);

  unsigned numErrors() const { return NumErrors; }

  /// From now on, counts errors and drops warnings without reporting them:
  /// for derivatives gpuad makes on its own initiative, which are left out
  /// (with a remark) rather than failing a build that never asked for them.
  void holdBack() { HoldBack = true; }
  /// The first error held back, with its location ("" if none).
  const std::string &firstHeldError() const { return FirstHeld; }

private:
  /// Whether the same message at the same place was reported before (a
  /// function is analysed once per derivative asked of it).
  bool seen(const llvm::Function &UserFn, const llvm::DebugLoc &Loc,
            const llvm::Twine &Msg);

  unsigned NumErrors = 0;
  bool HoldBack = false;
  std::string FirstHeld;
  llvm::StringSet<> Reported;
};

/// Short, single-line text of an instruction or value for messages
/// (`%mul = fmul double %x, %y` or `@f`).
std::string describe(const llvm::Value &V);

/// ` at file:line:col` of \p Loc, for messages printed at run time; empty
/// without debug information.
std::string describeLocation(const llvm::DebugLoc &Loc);

/// Where the code of a GPU library (Thrust, CUB, libcu++, rocPRIM, hipCUB)
/// that \p Loc is in was inlined into the user's, and the outermost library
/// function on the way (`thrust::transform_reduce`); none where \p Loc is
/// not in a library header, or never leaves them.
std::optional<std::pair<llvm::DebugLoc, std::string>>
libraryCallSite(const llvm::DebugLoc &Loc);
/// The error for a GPU library's \p Algorithm called from differentiated
/// host code: \p Why gpuad cannot run it as a map kernel, or that it runs
/// no other algorithm.
std::string libraryAlgorithmError(llvm::StringRef Algorithm,
                                  llvm::StringRef Why = "");

} // namespace gpuad

#endif // GPUAD_SUPPORT_DIAGNOSTICS_H
