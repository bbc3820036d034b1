/*===- CheckpointedLoop.h - One run of a checkpointed loop ------*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * What the derivative of a checkpointed loop calls (Checkpointing.h has the
 * schedule).  A loop's state is its scalar state -- the values its header
 * PHIs carry from one iteration to the next, laid out by the generated code
 * in a block the record owns -- and regions of memory the loop writes.  The
 * forward sweep announces each iteration (a step) before it runs; the
 * record copies the state into a snapshot where the schedule says.  The
 * reverse sweep hands the record two callbacks, one that runs steps on the
 * current state and one that reverses a step, and gets every step reversed,
 * last first, with the regions holding the loop's final state again at the
 * end.  Snapshots are allocated as they are first used, so a run that needs
 * fewer than the budget allows holds fewer.
 *
 * A region may live on a GPU (a loop of kernel launches): the generated code
 * then hands the record the runtime's own allocation and copy for it, and
 * that region's part of every snapshot is device memory.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_CHECKPOINTEDLOOP_H
#define GPUAD_RUNTIME_CHECKPOINTEDLOOP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpuad_checkpointed_loop gpuad_checkpointed_loop;

/* Starts a run of `steps` steps (-1: known only when the loop ends) whose
   state is `scalar_bytes` of scalars and `regions` memory regions (set with
   gpuad_loop_region before the first step).  The snapshots: `snapshots` if
   positive, else as many states as fit in `budget_bytes` besides the one
   the reverse sweep keeps of the final state (at least one). */
gpuad_checkpointed_loop *gpuad_loop_begin(int64_t steps, int32_t snapshots,
                                          int64_t budget_bytes,
                                          int64_t scalar_bytes,
                                          int32_t regions);
void gpuad_loop_region(gpuad_checkpointed_loop *loop, int32_t index,
                       void *base, int64_t bytes);
/* How a device region is kept: `allocate` and `release` device blocks,
   `copy` bytes between device and host memory either way (each finishes
   what is queued on the device before it copies). */
typedef struct gpuad_device_memory {
  void *(*allocate)(int64_t bytes);
  void (*release)(void *block);
  void (*copy)(void *to, const void *from, int64_t bytes);
} gpuad_device_memory;
/* Region `index` lives on the device; `memory` outlives the run. */
void gpuad_loop_device_region(gpuad_checkpointed_loop *loop, int32_t index,
                              void *base, int64_t bytes,
                              const gpuad_device_memory *memory);
/* The block holding the scalar state (the generated code's layout). */
void *gpuad_loop_scalars(gpuad_checkpointed_loop *loop);
/* Before step `step` runs, with the scalar block holding its state. */
void gpuad_loop_step(gpuad_checkpointed_loop *loop, int64_t step);
/* After the loop: it ran `steps` steps. */
void gpuad_loop_end(gpuad_checkpointed_loop *loop, int64_t steps);
/* Reverses every step, then frees the record.  `advance(context, from, to)`
   runs steps [from, to) on the current state; `reverse_step(context, step)`
   runs step `step` keeping its tape, then its adjoint. */
void gpuad_loop_reverse(gpuad_checkpointed_loop *loop,
                        void (*advance)(void *, int64_t, int64_t),
                        void (*reverse_step)(void *, int64_t), void *context);

/* What the run used, for reports and tests: snapshots held at most, bytes
   of one state, steps run forward by the reverse sweep. */
typedef struct gpuad_loop_stats {
  int32_t snapshots;
  int64_t state_bytes;
  int64_t steps;
  int64_t recomputed_steps;
} gpuad_loop_stats;
/* The statistics of the last loop reversed in this process (also printed
   to stderr by each reversal when GPUAD_CHECKPOINT_REPORT is set). */
gpuad_loop_stats gpuad_last_loop_stats(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_CHECKPOINTEDLOOP_H */
