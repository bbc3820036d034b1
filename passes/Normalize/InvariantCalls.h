//===- InvariantCalls.h - Pure calls hoisted out of loops -------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A loop that calls a pure function with the same arguments in every
/// iteration (`out[j] = x[j] / mag(x, n)`) computes the same value n times;
/// the reverse sweep would also run the call's backward half n times.  Before
/// reverse mode differentiates a function, such calls are moved out of the
/// loop: computed once where the loop is entered and the result used in every
/// iteration.  The derivative then does the call's work, forward and
/// backward, once, and the adjoints the iterations give its result add up
/// before its one backward call -- exact, as the backward half is linear in
/// the adjoint of its result.
///
/// A call moves when
///   - its callee is pure: it writes only its own locals and reads only
///     through its pointer arguments, its locals and constant globals (a
///     defined function, checked through what it calls, or a math function
///     of the rule table); nothing in it is atomic, volatile or convergent;
///   - its arguments are the same in every iteration;
///   - nothing the loop writes may overlap memory its pointer arguments
///     reach (alias analysis, with the function's restrict parameters and
///     those the request's call site proved disjoint);
///   - its block is passed in every iteration before the loop can leave (the
///     call then runs exactly when the loop is entered), or the only earlier
///     exit is the header's test, which is then evaluated once more where the
///     loop is entered to guard the call.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_INVARIANTCALLS_H
#define GPUAD_NORMALIZE_INVARIANTCALLS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

namespace gpuad {

class CallTable;

/// Moves \p F's loop-invariant pure calls out of their loops.  \p Normalized
/// gives a callee's normalised (SSA) form, in which purity is checked.
/// Returns whether \p F changed.
bool hoistInvariantCalls(
    llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
    const CallTable &Calls,
    llvm::function_ref<llvm::Function &(llvm::Function &)> Normalized);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_INVARIANTCALLS_H
