/*===- OpenMP.h - The record of a differentiated parallel region -*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * Reverse mode runs a parallel region's augmented half in one team and its
 * backward half in another (passes/Sweep/TeamForks.h).  A team record
 * carries what joins them: each thread's tape, by the thread's index in
 * the team, and the team's size, which the second team must have too.
 * Slots for as many threads as OpenMP's current limit are made with the
 * record; a larger team (a num_threads clause) gets more as its threads
 * ask, in blocks of 64.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_OPENMP_H
#define GPUAD_RUNTIME_OPENMP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpuad_team gpuad_team;

/* A record for a team whose threads each keep `tape_bytes`. */
gpuad_team *gpuad_omp_team_begin(int64_t tape_bytes);
/* Thread `index`'s tape slot; called by every thread of the first team,
   which records the team's size. */
void *gpuad_omp_team_slot(gpuad_team *team, int32_t index);
/* Before the second team's fork: asks the runtime for a team of the first
   one's size (`loc`: the region's source location). */
void gpuad_omp_team_push(gpuad_team *team, void *loc);
/* In each thread of the second team: stops the program unless the team has
   the first one's size (OMP_DYNAMIC may give fewer threads). */
void gpuad_omp_team_check(gpuad_team *team);
void gpuad_omp_team_end(gpuad_team *team);

/* Critical sections run in some order, and the adjoint of one may depend on
   those after it (a product's, a maximum's): the reverse sweep enters them
   in the opposite order.  Entering one (`lock`: the section's
   kmp_critical_name) takes a ticket, the count of earlier entries on that
   lock; the reverse sweep enters the section with ticket t once every later
   one has left it, and leaves it by counting one down. */
int64_t gpuad_omp_critical_enter(void *loc, int32_t gtid, void *lock);
void gpuad_omp_critical_exit(void *loc, int32_t gtid, void *lock,
                             int64_t ticket);
void gpuad_omp_critical_reverse_enter(void *loc, int32_t gtid, void *lock,
                                      int64_t ticket);
void gpuad_omp_critical_reverse_exit(void *loc, int32_t gtid, void *lock);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_OPENMP_H */
