/*===- CheckpointedLoop.c - One run of a checkpointed loop ----------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "CheckpointedLoop.h"
#include "Checkpointing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Region {
  void *base;
  int64_t bytes;
  const gpuad_device_memory *device; /* null: host memory */
} Region;

struct gpuad_checkpointed_loop {
  gpuad_checkpoints schedule;
  int64_t steps;
  int64_t scalar_bytes, state_bytes;
  int32_t regions;
  Region *region;
  void *scalars;
  /* Per slot, allocated when first stored: the scalars and host regions,
     and the device regions' block. */
  void **snapshot;
  void **device_snapshot;
  int64_t device_bytes;
  const gpuad_device_memory *device;
  int64_t *schedule_steps;
  int32_t *schedule_slots;
  int32_t started;
  int32_t snapshots_wanted;
  int64_t budget_bytes;
  /* The reverse sweep's callbacks. */
  void (*advance)(void *, int64_t, int64_t);
  void (*reverse_step)(void *, int64_t);
  void *context;
  gpuad_loop_stats stats;
};

static gpuad_loop_stats last_stats;

static void *allocate(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "gpuad: out of memory for a checkpointed loop's "
                    "snapshots (%zu bytes)\n",
            bytes);
    abort();
  }
  return p;
}

gpuad_checkpointed_loop *gpuad_loop_begin(int64_t steps, int32_t snapshots,
                                          int64_t budget_bytes,
                                          int64_t scalar_bytes,
                                          int32_t regions) {
  gpuad_checkpointed_loop *loop =
      (gpuad_checkpointed_loop *)calloc(1, sizeof(gpuad_checkpointed_loop));
  if (!loop)
    abort();
  loop->steps = steps;
  loop->snapshots_wanted = snapshots;
  loop->budget_bytes = budget_bytes;
  loop->scalar_bytes = scalar_bytes;
  loop->regions = regions;
  loop->region = (Region *)allocate(sizeof(Region) * (size_t)regions);
  loop->scalars = allocate((size_t)scalar_bytes);
  return loop;
}

void gpuad_loop_region(gpuad_checkpointed_loop *loop, int32_t index,
                       void *base, int64_t bytes) {
  loop->region[index].base = base;
  loop->region[index].bytes = bytes > 0 ? bytes : 0;
  loop->region[index].device = 0;
}

void gpuad_loop_device_region(gpuad_checkpointed_loop *loop, int32_t index,
                              void *base, int64_t bytes,
                              const gpuad_device_memory *memory) {
  gpuad_loop_region(loop, index, base, bytes);
  loop->region[index].device = memory;
  loop->device = memory;
}

void *gpuad_loop_scalars(gpuad_checkpointed_loop *loop) {
  return loop->scalars;
}

/* The schedule's slots, once the state's size is known (the first step). */
static void start(gpuad_checkpointed_loop *loop) {
  int64_t state = loop->scalar_bytes;
  for (int32_t i = 0; i < loop->regions; ++i) {
    state += loop->region[i].bytes;
    if (loop->region[i].device)
      loop->device_bytes += loop->region[i].bytes;
  }
  loop->state_bytes = state;
  int64_t slots = loop->snapshots_wanted;
  if (slots <= 0) {
    int64_t per = state > 0 ? state : 1;
    slots = loop->budget_bytes / per - 1; /* one state: the final one */
  }
  if (loop->steps >= 0 && slots > loop->steps)
    slots = loop->steps;
  if (slots < 1)
    slots = 1;
  if (slots > (1 << 24))
    slots = 1 << 24;
  loop->snapshot = (void **)calloc((size_t)slots, sizeof(void *));
  loop->device_snapshot = (void **)calloc((size_t)slots, sizeof(void *));
  loop->schedule_steps = (int64_t *)allocate(sizeof(int64_t) * (size_t)slots);
  loop->schedule_slots = (int32_t *)allocate(sizeof(int32_t) * (size_t)slots);
  if (!loop->snapshot || !loop->device_snapshot)
    abort();
  gpuad_checkpoints_begin(&loop->schedule, loop->steps, (int32_t)slots,
                          loop->schedule_steps, loop->schedule_slots);
  loop->started = 1;
}

/* Copies the regions into the blocks `host` and `device` (out) or back
   from them: each region at its place in its block. */
static void copyRegions(gpuad_checkpointed_loop *loop, char *host,
                        char *device, int out) {
  for (int32_t i = 0; i < loop->regions; ++i) {
    const Region *r = &loop->region[i];
    size_t bytes = (size_t)r->bytes;
    if (r->device) {
      if (out)
        r->device->copy(device, r->base, r->bytes);
      else
        r->device->copy(r->base, device, r->bytes);
      device += bytes;
    } else {
      if (out)
        memcpy(host, r->base, bytes);
      else
        memcpy(r->base, host, bytes);
      host += bytes;
    }
  }
}

static void store(void *context, int32_t slot) {
  gpuad_checkpointed_loop *loop = (gpuad_checkpointed_loop *)context;
  if (!loop->snapshot[slot]) {
    loop->snapshot[slot] =
        allocate((size_t)(loop->state_bytes - loop->device_bytes));
    if (loop->device_bytes)
      loop->device_snapshot[slot] = loop->device->allocate(loop->device_bytes);
    ++loop->stats.snapshots;
  }
  char *to = (char *)loop->snapshot[slot];
  memcpy(to, loop->scalars, (size_t)loop->scalar_bytes);
  copyRegions(loop, to + loop->scalar_bytes,
              (char *)loop->device_snapshot[slot], 1);
}

static void restore(void *context, int32_t slot) {
  gpuad_checkpointed_loop *loop = (gpuad_checkpointed_loop *)context;
  char *from = (char *)loop->snapshot[slot];
  memcpy(loop->scalars, from, (size_t)loop->scalar_bytes);
  copyRegions(loop, from + loop->scalar_bytes,
              (char *)loop->device_snapshot[slot], 0);
}

void gpuad_loop_step(gpuad_checkpointed_loop *loop, int64_t step) {
  if (!loop->started)
    start(loop);
  int32_t slot = gpuad_checkpoints_slot_for(&loop->schedule, step);
  if (slot >= 0)
    store(loop, slot);
}

void gpuad_loop_end(gpuad_checkpointed_loop *loop, int64_t steps) {
  loop->steps = steps;
}

static void advance(void *context, int64_t from, int64_t to) {
  gpuad_checkpointed_loop *loop = (gpuad_checkpointed_loop *)context;
  loop->stats.recomputed_steps += to - from;
  loop->advance(loop->context, from, to);
}

static void reverseStep(void *context, int64_t step) {
  gpuad_checkpointed_loop *loop = (gpuad_checkpointed_loop *)context;
  ++loop->stats.recomputed_steps; /* the step runs once more, taped */
  loop->reverse_step(loop->context, step);
}

void gpuad_loop_reverse(gpuad_checkpointed_loop *loop,
                        void (*advance_fn)(void *, int64_t, int64_t),
                        void (*reverse_step)(void *, int64_t), void *context) {
  if (loop->started) {
    loop->advance = advance_fn;
    loop->reverse_step = reverse_step;
    loop->context = context;
    /* The reverse sweep leaves the regions as the loop's end left them. */
    char *final = (char *)allocate((size_t)(
        loop->state_bytes - loop->scalar_bytes - loop->device_bytes));
    char *final_device =
        loop->device_bytes ? (char *)loop->device->allocate(loop->device_bytes)
                           : 0;
    copyRegions(loop, final, final_device, 1);
    gpuad_checkpoint_ops ops = {loop, advance, store, restore, reverseStep};
    int32_t *scratch =
        (int32_t *)allocate(2 * sizeof(int32_t) * (size_t)loop->schedule.slots);
    gpuad_checkpoints_reverse(&loop->schedule, loop->steps, &ops, scratch);
    free(scratch);
    copyRegions(loop, final, final_device, 0);
    free(final);
    for (int32_t s = 0; s < loop->schedule.slots; ++s) {
      free(loop->snapshot[s]);
      if (loop->device_snapshot[s])
        loop->device->release(loop->device_snapshot[s]);
    }
    if (final_device)
      loop->device->release(final_device);
  }
  loop->stats.state_bytes = loop->state_bytes;
  loop->stats.steps = loop->steps;
  last_stats = loop->stats;
  if (getenv("GPUAD_CHECKPOINT_REPORT"))
    fprintf(stderr,
            "gpuad: checkpointed loop: %lld steps, state %lld B, %d "
            "snapshots (%lld B), %lld steps run again (%.2f per step)\n",
            (long long)loop->steps, (long long)loop->state_bytes,
            loop->stats.snapshots,
            (long long)loop->stats.snapshots * loop->state_bytes,
            (long long)loop->stats.recomputed_steps,
            loop->steps > 0
                ? (double)loop->stats.recomputed_steps / (double)loop->steps
                : 0.0);
  free(loop->snapshot);
  free(loop->device_snapshot);
  free(loop->schedule_steps);
  free(loop->schedule_slots);
  free(loop->region);
  free(loop->scalars);
  free(loop);
}

gpuad_loop_stats gpuad_last_loop_stats(void) { return last_stats; }
