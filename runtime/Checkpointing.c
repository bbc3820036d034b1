/*===- Checkpointing.c - Checkpoint schedules for reversing loops ---------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Checkpointing.h"

/* No C library: the same code runs in device code, per thread. */

/* C(c + r, c): the most steps c slots reverse with no step run forward more
   than r times; saturates at INT64_MAX. */
static int64_t beta(int64_t c, int64_t r) {
  int64_t k = c < r ? c : r, n = c + r;
  int64_t b = 1; /* C(n - k + i - 1, i - 1): b * (n - k + i) divides by i */
  for (int64_t i = 1; i <= k; ++i) {
    if (b > INT64_MAX / (n - k + i))
      return INT64_MAX;
    b = b * (n - k + i) / i;
  }
  return b;
}

/* The fewest repetitions r with beta(c, r) >= l (c >= 2). */
static int64_t repetitions(int64_t l, int64_t c) {
  int64_t r = 0;
  while (beta(c, r) < l)
    ++r;
  return r;
}

/* How many of a segment's l steps (l >= 2) go to its right part, reversed
   first from a slot of their own, with c slots in all (c >= 2).  With r
   repetitions, a split is optimal where the right part has between
   beta(c - 1, r - 1) and beta(c - 1, r) steps and the left part between
   beta(c, r - 2) and beta(c, r - 1) (Griewank): the right part as long as
   both allow. */
static int64_t rightPart(int64_t l, int64_t c) {
  int64_t r = repetitions(l, c);
  int64_t left = r >= 2 ? beta(c, r - 2) : 1;
  int64_t right = beta(c - 1, r);
  if (left < 1)
    left = 1;
  return right < l - left ? right : l - left;
}

int64_t gpuad_checkpoint_forward_steps(int64_t steps, int32_t slots) {
  /* The binomial schedule's own count: advancing to the split, then both
     parts (the left one loops). */
  int64_t total = 0, l = steps;
  while (l > 1) {
    if (slots <= 1)
      return total + l * (l - 1) / 2;
    int64_t right = rightPart(l, slots);
    total += l - right + gpuad_checkpoint_forward_steps(right, slots - 1);
    l -= right;
  }
  return total;
}

/* The free slots, a stack; and the slot the live state equals (-1: none),
   so that a restore into it is skipped. */
typedef struct Slots {
  int32_t *free;
  int32_t count;
  int32_t live;
} Slots;

static void restoreFrom(Slots *pool, int32_t slot,
                        const gpuad_checkpoint_ops *ops) {
  if (pool->live != slot)
    ops->restore(ops->context, slot);
  pool->live = -1; /* what follows changes the state */
}

/* Reverses steps [a, b), the state at a in slot `from`. */
static void reverseSegment(int64_t a, int64_t b, int32_t from, Slots *pool,
                           const gpuad_checkpoint_ops *ops) {
  while (b - a > 1 && pool->count > 0) {
    int64_t m = b - rightPart(b - a, pool->count + 1);
    int32_t slot = pool->free[--pool->count];
    restoreFrom(pool, from, ops);
    ops->advance(ops->context, a, m);
    ops->store(ops->context, slot);
    pool->live = slot;
    reverseSegment(m, b, slot, pool, ops);
    pool->free[pool->count++] = slot;
    b = m;
  }
  /* No slot to spare: from the start each time. */
  for (int64_t i = b - 1; i >= a; --i) {
    restoreFrom(pool, from, ops);
    if (i > a)
      ops->advance(ops->context, a, i);
    ops->reverse_step(ops->context, i);
  }
}

/* The next step the offline schedule stores, after the snapshot at `at`
   with `left` slots (its own included) for the steps after it. */
static int64_t nextSpineStep(int64_t at, int64_t steps, int32_t left) {
  if (left <= 1 || steps - at <= 1)
    return -1;
  return steps - rightPart(steps - at, left);
}

void gpuad_checkpoints_begin(gpuad_checkpoints *cp, int64_t steps,
                             int32_t slots, int64_t *step_storage,
                             int32_t *slot_storage) {
  cp->steps = steps;
  cp->slots = slots < 1 ? 1 : slots;
  cp->used = 0;
  cp->stride = 1;
  cp->next = 0;
  cp->step = step_storage;
  cp->slot = slot_storage;
  for (int32_t s = 0; s < cp->slots; ++s)
    cp->slot[s] = s;
}

/* Online: keeps every other snapshot (step 0's among them), doubling the
   stride.  The kept ones stay in step order; the freed slots join the free
   ones after them. */
static void thin(gpuad_checkpoints *cp) {
  int32_t kept = 0;
  for (int32_t i = 0; i < cp->used; i += 2, ++kept) {
    int64_t step = cp->step[kept];
    int32_t slot = cp->slot[kept];
    cp->step[kept] = cp->step[i];
    cp->slot[kept] = cp->slot[i];
    cp->step[i] = step;
    cp->slot[i] = slot;
  }
  cp->used = kept;
  cp->stride *= 2;
}

/* Stores step's state in the first free slot. */
static int32_t take(gpuad_checkpoints *cp, int64_t step) {
  int32_t slot = cp->slot[cp->used];
  cp->step[cp->used++] = step;
  return slot;
}

int32_t gpuad_checkpoints_slot_for(gpuad_checkpoints *cp, int64_t step) {
  if (step != cp->next)
    return -1;
  if (cp->steps >= 0) {
    /* Offline: the spine of the binomial schedule, slot by slot. */
    int32_t left = cp->slots - cp->used;
    int32_t slot = take(cp, step);
    cp->next = nextSpineStep(step, cp->steps, left);
    return slot;
  }
  if (cp->used == cp->slots) {
    if (cp->slots == 1) { /* step 0's only */
      cp->next = -1;
      return -1;
    }
    thin(cp);
    if (step % cp->stride != 0) {
      cp->next = (step / cp->stride + 1) * cp->stride;
      return -1;
    }
  }
  cp->next = step + cp->stride;
  return take(cp, step);
}

void gpuad_checkpoints_reverse(gpuad_checkpoints *cp, int64_t steps,
                               const gpuad_checkpoint_ops *ops,
                               int32_t *scratch) {
  if (steps <= 0 || cp->used == 0)
    return;
  int32_t *stack = scratch, *held = scratch + cp->slots;
  for (int32_t s = 0; s < cp->slots; ++s)
    held[s] = 0;
  for (int32_t i = 0; i < cp->used; ++i)
    held[cp->slot[i]] = 1;
  Slots pool = {stack, 0, -1};
  int64_t end = steps;
  for (int32_t k = cp->used - 1; k >= 0; --k) {
    /* The slots of snapshots 0..k stay taken; the others are free. */
    pool.count = 0;
    for (int32_t s = 0; s < cp->slots; ++s)
      if (!held[s])
        stack[pool.count++] = s;
    if (cp->step[k] < end)
      reverseSegment(cp->step[k], end, cp->slot[k], &pool, ops);
    end = cp->step[k];
    held[cp->slot[k]] = 0;
  }
}
