/*===- OpenMP.c - The record of a differentiated parallel region ----------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "OpenMP.h"
#include "Require.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* libomp's entry points (the program links libomp: it forks regions). */
int omp_get_max_threads(void);
int omp_get_num_threads(void);
int32_t __kmpc_global_thread_num(void *loc);
void __kmpc_push_num_threads(void *loc, int32_t gtid, int32_t threads);
void __kmpc_critical(void *loc, int32_t gtid, void *lock);
void __kmpc_end_critical(void *loc, int32_t gtid, void *lock);
int sched_yield(void);

enum { Block = 64, Blocks = 4096 };

struct gpuad_team {
  int64_t tape_bytes;
  _Atomic int32_t size;
  int32_t inline_slots;
  /* Blocks of slots past the inline ones, made when first asked for. */
  _Atomic(char *) *_Atomic more;
  char slots[];
};

static void *allocate(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p)
    gpuad_fail("out of memory for a parallel region's tapes (%zu bytes)", bytes);
  return p;
}

gpuad_team *gpuad_omp_team_begin(int64_t tape_bytes) {
  int32_t threads = omp_get_max_threads();
  if (threads < 1)
    threads = 1;
  gpuad_team *team = (gpuad_team *)allocate(sizeof(gpuad_team) +
                                            (size_t)tape_bytes * threads);
  team->tape_bytes = tape_bytes;
  team->inline_slots = threads;
  return team;
}

void *gpuad_omp_team_slot(gpuad_team *team, int32_t index) {
  atomic_store_explicit(&team->size, omp_get_num_threads(),
                        memory_order_relaxed);
  if (index < team->inline_slots)
    return team->slots + (size_t)team->tape_bytes * index;
  int64_t past = index - team->inline_slots;
  if (past >= (int64_t)Block * Blocks)
    gpuad_fail("a team of more than %ld threads (thread %ld) runs a differentiated "
         "parallel region",
         (long)team->inline_slots + (long)Block * Blocks, (long)index);
  _Atomic(char *) *more = atomic_load(&team->more);
  if (!more) {
    _Atomic(char *) *made = allocate(sizeof(*more) * Blocks);
    if (atomic_compare_exchange_strong(&team->more, &more, made))
      more = made;
    else
      free(made);
  }
  _Atomic(char *) *at = &more[past / Block];
  char *block = atomic_load(at);
  if (!block) {
    char *made = allocate((size_t)team->tape_bytes * Block);
    if (atomic_compare_exchange_strong(at, &block, made))
      block = made;
    else
      free(made);
  }
  return block + (size_t)team->tape_bytes * (past % Block);
}

void gpuad_omp_team_push(gpuad_team *team, void *loc) {
  __kmpc_push_num_threads(loc, __kmpc_global_thread_num(loc),
                          atomic_load(&team->size));
}

void gpuad_omp_team_check(gpuad_team *team) {
  int32_t size = atomic_load_explicit(&team->size, memory_order_relaxed);
  if (omp_get_num_threads() != size)
    gpuad_fail("the reverse of a parallel region got a team of %ld threads, but "
         "the region ran with %ld (each thread reverses its own part: is "
         "OMP_DYNAMIC set, or a thread limit?)",
         (long)omp_get_num_threads(), (long)size);
}

void gpuad_omp_team_end(gpuad_team *team) {
  _Atomic(char *) *more = atomic_load(&team->more);
  if (more) {
    for (int i = 0; i < Blocks; ++i)
      free(atomic_load(&more[i]));
    free(more);
  }
  free(team);
}

/* Each lock's count of entries, in a table keyed by the lock's address. */
enum { Locks = 1024 };
static struct {
  _Atomic(void *) lock;
  _Atomic int64_t entries;
} counters[Locks];

static _Atomic int64_t *entriesOf(void *lock) {
  uintptr_t h = ((uintptr_t)lock >> 4) * 0x9E3779B97F4A7C15ull;
  for (unsigned probe = 0; probe < Locks; ++probe) {
    unsigned i = (unsigned)((h >> 20) + probe) % Locks;
    void *seen = atomic_load(&counters[i].lock);
    if (seen == lock)
      return &counters[i].entries;
    if (!seen && (atomic_compare_exchange_strong(&counters[i].lock, &seen,
                                                 lock) ||
                  seen == lock))
      return &counters[i].entries;
  }
  gpuad_fail("more than %d critical sections' locks in differentiated code", Locks);
  return 0;
}

int64_t gpuad_omp_critical_enter(void *loc, int32_t gtid, void *lock) {
  __kmpc_critical(loc, gtid, lock);
  return atomic_fetch_add(entriesOf(lock), 1);
}

void gpuad_omp_critical_exit(void *loc, int32_t gtid, void *lock,
                             int64_t ticket) {
  (void)ticket;
  __kmpc_end_critical(loc, gtid, lock);
}

void gpuad_omp_critical_reverse_enter(void *loc, int32_t gtid, void *lock,
                                      int64_t ticket) {
  (void)loc, (void)gtid;
  _Atomic int64_t *entries = entriesOf(lock);
  while (atomic_load_explicit(entries, memory_order_acquire) != ticket + 1)
    sched_yield();
}

void gpuad_omp_critical_reverse_exit(void *loc, int32_t gtid, void *lock) {
  (void)loc, (void)gtid;
  atomic_fetch_sub_explicit(entriesOf(lock), 1, memory_order_release);
}
