/*===- ThreadLoop.h - A checkpointed loop in one GPU thread -----*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * What the derivative of a checkpointed loop in device code calls: a
 * kernel's own loop, run by each thread on its own scalars.  The schedule is
 * Checkpointing.h's; the record is a block of the thread's memory whose size
 * (gpuad_thread_loop_bytes) is fixed when the derivative is compiled, so
 * nothing is allocated.  The generated code keeps it in the tape slots as a
 * value, from the forward sweep to the reverse sweep; it holds no pointer to
 * itself, so it may move between them.  The state is the scalar block only
 * (a loop that writes memory is not checkpointed in device code).
 *
 * Plain C, no C library: compiled to bitcode for each GPU target and linked
 * into the device modules that call it.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_THREADLOOP_H
#define GPUAD_RUNTIME_THREADLOOP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The record's bytes for `slots` snapshots of `scalar_bytes`, a multiple
   of 8. */
int64_t gpuad_thread_loop_bytes(int32_t slots, int64_t scalar_bytes);

/* Starts a run of `steps` steps (-1: known only when the loop ends). */
void gpuad_thread_loop_begin(void *record, int64_t steps, int32_t slots,
                             int64_t scalar_bytes);
/* The block holding the scalar state (the generated code's layout). */
void *gpuad_thread_loop_scalars(void *record);
/* Before step `step` runs, with the scalar block holding its state. */
void gpuad_thread_loop_step(void *record, int64_t step);
/* After the loop: it ran `steps` steps. */
void gpuad_thread_loop_end(void *record, int64_t steps);
/* Reverses every step, last first (the callbacks as gpuad_loop_reverse's). */
void gpuad_thread_loop_reverse(void *record,
                               void (*advance)(void *, int64_t, int64_t),
                               void (*reverse_step)(void *, int64_t),
                               void *context);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_THREADLOOP_H */
