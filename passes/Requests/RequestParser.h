//===- RequestParser.h - Find and parse __enzyme_* calls --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A call is a request when its callee's name contains one of the entry
/// points of the call ABI (docs/abi.md: `__enzyme_fwddiff`,
/// `__enzyme_autodiff`, ...), so C++-mangled template declarations and
/// suffixed names work.  The parser walks the arguments once, applying
/// markers and default activities, and checks counts and types; every
/// problem is a diagnostic at the call.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_REQUESTPARSER_H
#define GPUAD_REQUESTS_REQUESTPARSER_H

#include "Requests/DiffRequest.h"

#include <optional>
#include <vector>

namespace llvm {
class CallBase;
class IRBuilderBase;
class Function;
class Module;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class Diagnostics;

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

/// Parses the request \p Call of mode \p Mode.  Reports problems to \p Diags
/// and returns std::nullopt for an invalid request.
std::optional<DiffRequest> parseRequest(llvm::CallBase &Call, DiffMode Mode,
                                        Diagnostics &Diags);

/// Whether a value of type \p From, as passed by the caller, can stand for a
/// parameter of type \p To: C's default argument promotions of variadic
/// requests (float to double, small integers to int) are undone, pointers may
/// differ in address space.
bool canCoerce(llvm::Type *From, llvm::Type *To);

/// Converts \p V to \p To (canCoerce must hold), inserting casts at \p B.
llvm::Value *coerceArgument(llvm::IRBuilderBase &B, llvm::Value *V,
                            llvm::Type *To);

} // namespace gpuad

#endif // GPUAD_REQUESTS_REQUESTPARSER_H
