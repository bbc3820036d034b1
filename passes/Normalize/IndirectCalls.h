//===- IndirectCalls.h - Calls through function pointers --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Differentiating a call through a function pointer (a table of math
/// functions, a C++ virtual method, a callback an integrator calls) needs the
/// derivative of whatever the pointer holds at run time.  gpuad dispatches on
/// the *primal* pointer.  In each normalised clone, an indirect call that may
/// carry a derivative, `call %fp(args)`, becomes a call of a generated
/// dispatcher `gpuad.dispatch(%fp, args)` whose body compares %fp with the
/// candidates -- the functions of the module of the call's type whose
/// address is taken (in code, vtables or other initialisers) and that have a
/// body or a derivative rule -- and calls the one it matches directly.  The
/// dispatcher is an ordinary function: the existing machinery differentiates
/// it in every mode (forward, reverse combined, split halves, width N, host
/// and device), each candidate as a direct call.  Its default case -- a
/// function gpuad did not see -- calls a helper that names the call site and
/// the address and stops the program (host: stderr and abort; device: the
/// target's print and a trap); the helper is inactive ("gpuad-inactive"),
/// so it reaches the derivative unchanged.  Where the call turns out to be
/// inactive, the derivative keeps calling the primal dispatcher, and
/// restore() turns each such call back into the indirect call it was, so
/// the primal semantics and cost stay those of the program.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_INDIRECTCALLS_H
#define GPUAD_NORMALIZE_INDIRECTCALLS_H

#include "Support/FunctionPointers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

#include <map>
#include <string>

namespace gpuad {

class Diagnostics;
class CallTable;
class TargetHooks;

class IndirectCalls {
public:
  IndirectCalls(llvm::Module &M, TargetHooks &Target, const CallTable &Calls,
                Diagnostics &Diags)
      : M(M), Target(Target), Calls(Calls), Diags(Diags) {}

  /// Rewrites the indirect calls of \p Clone (a normalised copy of
  /// \p Original) that may carry derivatives into dispatcher calls.
  bool rewrite(llvm::Function &Clone, const llvm::Function &Original);

  /// After differentiation: the dispatcher calls left (inactive calls kept
  /// as primal code in derivatives) become indirect calls again, and the
  /// dispatchers go.
  void restore();

  /// The functions \p Call may reach through its pointer as rewrite()
  /// sees it (none for a direct call or one it leaves alone).
  llvm::ArrayRef<llvm::Function *> possibleCallees(const llvm::CallBase &Call);

  /// Whether \p F is a dispatcher this object made.
  bool isDispatcher(const llvm::Function &F) const { return Made.count(&F); }

private:
  llvm::Module &M;
  TargetHooks &Target;
  const CallTable &Calls;
  Diagnostics &Diags;
  /// Candidates by function type (computed once, before any dispatcher
  /// takes their addresses itself).
  llvm::DenseMap<llvm::FunctionType *, llvm::SmallVector<llvm::Function *, 8>>
      Candidates;
  /// Dispatchers by (type, call-site message).
  std::map<std::pair<llvm::FunctionType *, std::string>, llvm::Function *>
      Dispatchers;
  llvm::DenseMap<const llvm::Function *, bool> Made;
  /// The functions dispatchers call when no candidate matches.
  llvm::SmallPtrSet<const llvm::Function *, 4> MissHelpers;

  llvm::ArrayRef<llvm::Function *> candidatesOf(llvm::FunctionType *Ty,
                                                const llvm::Function *User);
  llvm::Function *dispatcherFor(llvm::CallBase &Call,
                                const llvm::Function &Original);
  llvm::Function *missHelper(const llvm::Function &User,
                             const std::string &Message);
};

} // namespace gpuad

#endif // GPUAD_NORMALIZE_INDIRECTCALLS_H
