//===- CallSiteAliasing.h - Arguments a request proves disjoint -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What a request's call site proves about the memory behind its pointer
/// arguments.  An argument is disjoint when every object it may point into
/// is one the caller made (a heap allocation, a local, a global the
/// differentiated code does not name) and that object reaches the request
/// through this argument only: it was never stored anywhere but the
/// caller's own pointer variables, never passed to a function that may keep
/// it (the differentiated function included), and never passed as another
/// argument.  During the call the function
/// can then reach that memory through this argument alone, which is what
/// `restrict` on the parameter would promise, and the derivative is built
/// with that fact.
///
/// gpuad runs before mem2reg: a pointer the caller got from malloc reaches
/// the request through the local variable holding it (a store, a load), so
/// both walks see through such variables.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_CALLSITEALIASING_H
#define GPUAD_REQUESTS_CALLSITEALIASING_H

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace gpuad {

class CallTable;
struct DiffRequest;

struct CallSiteAliasing {
  /// Per parameter of the differentiated function: proven disjoint.
  llvm::SmallVector<bool, 8> Disjoint;
  /// Per parameter: for a pointer not proven disjoint, the reason.
  llvm::SmallVector<std::string, 8> Why;

  bool anyDisjoint() const;
};

/// What \p Req's call site proves about its primal pointer arguments.
CallSiteAliasing proveDisjointArguments(const DiffRequest &Req,
                                        const CallTable &Calls);

} // namespace gpuad

#endif // GPUAD_REQUESTS_CALLSITEALIASING_H
