/*===- Checkpointing.h - Checkpoint schedules for reversing loops -*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * The schedule of a checkpointed loop's reverse sweep.  Reversing a loop of
 * T steps needs each step's state; keeping all T is the full tape.  With c
 * snapshot slots instead (slot 0 holding the state before step 0), the
 * forward sweep stores c - 1 more states, and the reverse sweep restores
 * them and re-runs steps forward to reach each state again:
 *
 *  - binomial checkpointing (Griewank & Walther, "Algorithm 799: revolve")
 *    where T is known when the loop starts: a segment [a, b) of l steps,
 *    reversed with its start in a slot and c slots in all, is split at
 *    m = b - min(beta(c - 1, r), l - 1), r the fewest repetitions with
 *    beta(c, r) = C(c + r, c) >= l; the steps [m, b) are reversed first,
 *    their start stored in a slot of their own, then [a, m).  No step runs
 *    forward more than r times, and the total is the fewest possible;
 *  - online thinning where T is known only when the loop ends: the forward
 *    sweep stores every d-th state, and when the slots are full drops every
 *    other one and doubles d; the reverse sweep reverses the segments
 *    between stored states, last first, each binomially with the slots
 *    left free.
 *
 * The runtime knows nothing of the state: the generated code passes
 * callbacks that advance it, copy it into and out of slots, and reverse
 * one step (run it keeping its tape, then its adjoint).  The C interface
 * is what generated code calls.  It allocates nothing and uses no C
 * library, so the same code runs per thread in device code
 * (ThreadLoop.h).
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_CHECKPOINTING_H
#define GPUAD_RUNTIME_CHECKPOINTING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the schedule does to the loop's state. */
typedef struct gpuad_checkpoint_ops {
  void *context;
  /* Runs steps [from, to) on the current state, which is step from's. */
  void (*advance)(void *context, int64_t from, int64_t to);
  /* Copies the current state into slot, or slot's into the current one. */
  void (*store)(void *context, int32_t slot);
  void (*restore)(void *context, int32_t slot);
  /* With the current state step's: runs the step keeping what its adjoint
     needs, then the adjoint (the state after it is not needed again). */
  void (*reverse_step)(void *context, int64_t step);
} gpuad_checkpoint_ops;

/* The snapshots of one run of a checkpointed loop. */
typedef struct gpuad_checkpoints {
  int64_t steps;  /* known at the start; -1: online */
  int32_t slots;  /* c: slot 0 holds the state before step 0 */
  int32_t used;   /* snapshots stored, in step order */
  int64_t stride; /* online: the distance between stored steps */
  int64_t next;   /* the step whose state is stored next; -1: none */
  int64_t *step;  /* per snapshot: its step */
  int32_t *slot;  /* per snapshot: its slot; after them, the free slots */
} gpuad_checkpoints;

/* The fewest steps the forward sweeps of a binomial reversal of `steps`
   steps with `slots` slots run, counting the first pass through them. */
int64_t gpuad_checkpoint_forward_steps(int64_t steps, int32_t slots);

/* Starts a loop's snapshots: `steps` (or -1 when unknown) steps, `slots`
   slots (at least 1); `step_storage` and `slot_storage` hold `slots`
   entries each.  Slot 0 is to hold the state before step 0. */
void gpuad_checkpoints_begin(gpuad_checkpoints *cp, int64_t steps,
                             int32_t slots, int64_t *step_storage,
                             int32_t *slot_storage);

/* Before step `step` runs: the slot to store the current state in, or -1.
   Step 0 always gets slot 0. */
int32_t gpuad_checkpoints_slot_for(gpuad_checkpoints *cp, int64_t step);

/* The reverse sweep of the `steps` steps the loop ran (its state now the
   state after the last): reverses every step, last first.  `scratch` holds
   2 * slots entries. */
void gpuad_checkpoints_reverse(gpuad_checkpoints *cp, int64_t steps,
                               const gpuad_checkpoint_ops *ops,
                               int32_t *scratch);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_CHECKPOINTING_H */
