//===- EntryPoints.h - The __enzyme_* functions of the call ABI -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A call is an entry point when its callee's name contains one of the
/// call ABI's (docs/abi.md: `__enzyme_fwddiff`, `__enzyme_autodiff`, ...), so
/// C++-mangled template declarations and suffixed names work.  Every layer
/// may ask (a nested request inside differentiated code is an error, an
/// analysis sees through a request to the function it names); parsing a
/// request is the Requests layer's.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_ENTRYPOINTS_H
#define GPUAD_SUPPORT_ENTRYPOINTS_H

#include "Support/DerivativeKey.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

/// What a call to an `__enzyme_*` function asks for.
enum class EntryKind {
  Request,        ///< a derivative request (mode given separately)
  TypeHint,       ///< `__enzyme_float` and friends: annotations, dropped
  Batch,          ///< `__enzyme_batch`: W calls of a function (BatchCalls.h)
  InactiveCall,   ///< `__enzyme_call_inactive` (InactiveCalls.h)
  VirtualReverse, ///< `__enzyme_virtualreverse` (VirtualReverse.h)
  Unknown,        ///< an `__enzyme_*` entry point gpuad does not implement
};

struct EntryPoint {
  EntryKind Kind;
  DiffMode Mode = DiffMode::Forward;
};

/// Classifies a callee name; std::nullopt for ordinary functions.
std::optional<EntryPoint> classifyEntryPoint(llvm::StringRef CalleeName);

/// The defined function a request call names, if it can be told cheaply
/// (its first operand that is a defined function).
llvm::Function *requestedFunction(const llvm::CallBase &Call);

/// The function an entry point's operand names: `@f`, a cast of it, an
/// alias, or (at -O0) a local variable assigned it once and otherwise only
/// read; null if it cannot be told.
llvm::Function *resolveFunction(llvm::Value *V);

/// All calls in \p M whose callee is an `__enzyme_*` entry point, in module
/// order.
std::vector<llvm::CallBase *> findEntryCalls(llvm::Module &M);

/// Default activity of an unmarked argument of type \p Ty.
ArgActivity defaultActivity(llvm::Type *Ty, DiffMode Mode);

/// True for types that carry floating-point data (scalars, vectors and
/// aggregates containing them).
bool carriesFloat(llvm::Type *Ty);

/// Removes any call to an `__enzyme_*` entry point (uses become poison; an
/// invoke becomes a branch to its normal destination).
void eraseRequestCall(llvm::CallBase &Call);

} // namespace gpuad

#endif // GPUAD_SUPPORT_ENTRYPOINTS_H
