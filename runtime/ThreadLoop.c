/*===- ThreadLoop.c - A checkpointed loop in one GPU thread ---------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "ThreadLoop.h"

#include "Checkpointing.h"

/* The record: this header, then (each part 8-aligned) the snapshots' steps
   and slots, the schedule's scratch, the scalar block and the slots. */
typedef struct Header {
  gpuad_checkpoints schedule; /* its pointers set again on each entry */
  int64_t steps;
  int64_t scalar_bytes; /* rounded up to 8 */
  void (*advance)(void *, int64_t, int64_t);
  void (*reverse_step)(void *, int64_t);
  void *context;
} Header;

static int64_t roundUp(int64_t bytes) { return (bytes + 7) & ~(int64_t)7; }

/* Offsets in the record of its parts. */
enum { StepsAt = (sizeof(Header) + 7) & ~7 };
static int64_t slotsAt(int32_t slots) { return StepsAt + 8 * (int64_t)slots; }
static int64_t scratchAt(int32_t slots) {
  return slotsAt(slots) + roundUp(4 * (int64_t)slots);
}
static int64_t scalarsAt(int32_t slots) {
  return scratchAt(slots) + 8 * (int64_t)slots;
}

typedef struct Layout {
  int64_t *step;
  int32_t *slot, *scratch;
  char *scalars, *snapshots;
} Layout;

static Layout layoutOf(Header *h, int32_t slots, int64_t scalar_bytes) {
  char *base = (char *)h;
  Layout l;
  l.step = (int64_t *)(base + StepsAt);
  l.slot = (int32_t *)(base + slotsAt(slots));
  l.scratch = (int32_t *)(base + scratchAt(slots));
  l.scalars = base + scalarsAt(slots);
  l.snapshots = l.scalars + scalar_bytes;
  return l;
}

/* The record's own layout, its schedule pointing into it. */
static Layout attach(void *record) {
  Header *h = (Header *)record;
  Layout l = layoutOf(h, h->schedule.slots, h->scalar_bytes);
  h->schedule.step = l.step;
  h->schedule.slot = l.slot;
  return l;
}

int64_t gpuad_thread_loop_bytes(int32_t slots, int64_t scalar_bytes) {
  return scalarsAt(slots) + (1 + (int64_t)slots) * roundUp(scalar_bytes);
}

void gpuad_thread_loop_begin(void *record, int64_t steps, int32_t slots,
                             int64_t scalar_bytes) {
  Header *h = (Header *)record;
  h->scalar_bytes = roundUp(scalar_bytes);
  h->steps = 0;
  Layout l = layoutOf(h, slots, h->scalar_bytes);
  gpuad_checkpoints_begin(&h->schedule, steps, slots, l.step, l.slot);
}

void *gpuad_thread_loop_scalars(void *record) {
  return attach(record).scalars;
}

static void copy(char *to, const char *from, int64_t bytes) {
  for (int64_t i = 0; i < bytes; i += 8)
    *(int64_t *)(to + i) = *(const int64_t *)(from + i);
}

static void store(void *record, int32_t slot) {
  Header *h = (Header *)record;
  Layout l = layoutOf(h, h->schedule.slots, h->scalar_bytes);
  copy(l.snapshots + slot * h->scalar_bytes, l.scalars, h->scalar_bytes);
}

static void restore(void *record, int32_t slot) {
  Header *h = (Header *)record;
  Layout l = layoutOf(h, h->schedule.slots, h->scalar_bytes);
  copy(l.scalars, l.snapshots + slot * h->scalar_bytes, h->scalar_bytes);
}

void gpuad_thread_loop_step(void *record, int64_t step) {
  attach(record);
  int32_t slot = gpuad_checkpoints_slot_for(&((Header *)record)->schedule, step);
  if (slot >= 0)
    store(record, slot);
}

void gpuad_thread_loop_end(void *record, int64_t steps) {
  ((Header *)record)->steps = steps;
}

static void advance(void *record, int64_t from, int64_t to) {
  Header *h = (Header *)record;
  h->advance(h->context, from, to);
}

static void reverseStep(void *record, int64_t step) {
  Header *h = (Header *)record;
  h->reverse_step(h->context, step);
}

void gpuad_thread_loop_reverse(void *record,
                               void (*advance_fn)(void *, int64_t, int64_t),
                               void (*reverse_step)(void *, int64_t),
                               void *context) {
  Header *h = (Header *)record;
  Layout l = attach(record);
  h->advance = advance_fn;
  h->reverse_step = reverse_step;
  h->context = context;
  gpuad_checkpoint_ops ops = {record, advance, store, restore, reverseStep};
  gpuad_checkpoints_reverse(&h->schedule, h->steps, &ops, l.scratch);
}
