//===- CheckpointedDerivatives.h - Reversing loops from snapshots -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The split halves of an outlined checkpointed loop (CheckpointedLoops.h),
/// which call the host runtime (runtime/CheckpointedLoop.h):
///  - the augmented half is the loop itself, starting a run record
///    (`gpuad_loop_begin`, the regions, the trip count where known) and
///    announcing each step with its scalar state (`gpuad_loop_step`, which
///    stores a snapshot where the schedule says).  The record is the tape;
///  - the backward half hands the record two callbacks over a context
///    holding its arguments: `advance` runs steps (calls of `Step`) and
///    `reverse_step` runs one step's combined reverse derivative, the
///    scalar state's shadow carrying its adjoint from step to step.  The
///    adjoints of the state the loop started from go to the arguments it
///    started from.
/// A key these cannot serve (width > 1; a ping-pong buffer without a
/// shadow) gets the ordinary derivative of the outlined loop, full tape.
///
/// In device code the record is the thread's own (runtime/ThreadLoop.h,
/// `gpuad_thread_loop_*`): a local block of fixed size, returned by value
/// as the tape, so the caller's tape slots hold it (registers, local,
/// shared memory or the pool), and copied into a local again by the
/// backward half.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_CHECKPOINTEDDERIVATIVES_H
#define GPUAD_PLANNER_CHECKPOINTEDDERIVATIVES_H

#include "Support/DerivativeKey.h"
#include "Support/DerivativeSignature.h"

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace gpuad {

struct CheckpointedLoop;
class DerivativeContext;

/// The tape of the halves: the record, a pointer to the host runtime's or
/// in device code the thread's record itself.
llvm::Type *checkpointRecordType(const CheckpointedLoop &CL);

/// Whether the halves below can serve \p Key; if not, and \p Key is a
/// reverse one, a `-Rpass-missed=gpuad` remark at the loop says why (the
/// loop keeps its full tape in that derivative).
bool canCheckpoint(const CheckpointedLoop &CL, const DerivativeKey &Key);

void emitCheckpointedAugmented(const CheckpointedLoop &CL,
                               const DerivativeKey &Key, llvm::Function &D,
                               const DerivativeSignature &Sig);
void emitCheckpointedBackward(DerivativeContext &Ctx,
                              const CheckpointedLoop &CL,
                              const DerivativeKey &Key, llvm::Function &D,
                              const DerivativeSignature &Sig);

} // namespace gpuad

#endif // GPUAD_PLANNER_CHECKPOINTEDDERIVATIVES_H
