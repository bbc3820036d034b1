//===- TeamForks.h - Derivatives of OpenMP parallel regions -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A parallel region (a tagged call of its microtask,
/// Normalize/ParallelRegions.h) is differentiated as a call whose callee
/// every thread of a team runs: forward mode forks the microtask's forward
/// derivative; reverse mode forks its augmented half in the forward sweep
/// and its backward half in the reverse sweep.  The fork's microtask is a
/// wrapper: it reads the derivative's arguments from a record the caller
/// fills, puts its own thread-id pointers in the primal's places, and calls
/// the derivative.
///
/// Each thread's augmented half returns its own tape; the team record
/// (runtime/OpenMP.h) keeps them by thread index, with the team's size.
/// The backward half's fork asks for a team of that size, so each thread
/// reverses what the same thread ran (static schedules give it the same
/// iterations; the tape holds what dynamic ones gave), and stops the
/// program if the runtime gives another size.  A float argument's adjoint
/// is each thread's, summed atomically into a cell of the record.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_TEAMFORKS_H
#define GPUAD_SWEEP_TEAMFORKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class CallInst;
class Function;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace gpuad {

/// In the thread, before the call: may fill the arguments left null from
/// the values passed along (\p Along, as the thread reads them).
using BeforeTeamCall =
    llvm::function_ref<void(llvm::IRBuilderBase &B, llvm::Value *ThreadIndex,
                            llvm::ArrayRef<llvm::Value *> Along,
                            llvm::MutableArrayRef<llvm::Value *> Args)>;
/// In the thread, after the call, given its result.
using AfterTeamCall = llvm::function_ref<void(
    llvm::IRBuilderBase &B, llvm::Value *ThreadIndex,
    llvm::ArrayRef<llvm::Value *> Along, llvm::CallInst *Result)>;

/// Emits at \p B a fork (source location \p Loc) in which every thread of
/// the team calls \p Callee with \p Args, its own global and team thread-id
/// pointers as operands \p GtidOperand and \p BtidOperand.  \p Along are
/// values each thread sees too; \p Before and \p After run in the thread.
/// Returns the fork.
llvm::CallInst *emitTeamCall(llvm::IRBuilderBase &B, llvm::Value *Loc,
                             llvm::Function *Callee,
                             llvm::ArrayRef<llvm::Value *> Args,
                             unsigned GtidOperand, unsigned BtidOperand,
                             llvm::ArrayRef<llvm::Value *> Along,
                             BeforeTeamCall Before, AfterTeamCall After);

} // namespace gpuad

#endif // GPUAD_SWEEP_TEAMFORKS_H
