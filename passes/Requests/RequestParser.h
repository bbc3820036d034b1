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

#include "Planner/DiffRequest.h"
#include "Support/EntryPoints.h"

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
