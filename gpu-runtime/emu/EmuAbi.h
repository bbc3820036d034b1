/*===- EmuAbi.h - What retargeted device code and the emulator share -*- C
 * -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Device code retargeted to the host (retarget/, the `gpuad-emulate` pass)
 * talks to the emulator runtime (runtime/) only through what is declared
 * here: per-thread state in one thread-local struct, a few functions for
 * the operations threads do together (barriers, warp shuffles and votes),
 * memory checks, and the table a module registers its kernels and
 * variables with.  C, so both sides agree on the layout.
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_EMU_EMUABI_H
#define GPUAD_EMU_EMUABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The executing GPU thread, thread-local in the emulator (fibers of a block
 * share an OS thread and switch it on every switch).  Byte offsets are
 * fixed: the retargeting pass reads fields at GPUAD_EMU_OFFSET_*. */
typedef struct {
  uint32_t tid[3];     /* threadIdx */
  uint32_t ntid[3];    /* blockDim */
  uint32_t ctaid[3];   /* blockIdx */
  uint32_t nctaid[3];  /* gridDim */
  void *shared;        /* this block's shared memory */
  void *implicit_args; /* AMDGPU: the kernel's hidden arguments */
  void *dispatch;      /* AMDGPU: the dispatch packet */
} gpuad_emu_thread_t;

#define GPUAD_EMU_OFFSET_TID 0
#define GPUAD_EMU_OFFSET_NTID 12
#define GPUAD_EMU_OFFSET_CTAID 24
#define GPUAD_EMU_OFFSET_NCTAID 36
#define GPUAD_EMU_OFFSET_SHARED 48
#define GPUAD_EMU_OFFSET_IMPLICIT_ARGS 56
#define GPUAD_EMU_OFFSET_DISPATCH 64
#define GPUAD_EMU_THREAD_SIZE 72

extern __thread gpuad_emu_thread_t __gpuad_emu_thread;

/* __syncthreads at barrier call site `site` (a site number; threads of a
 * block meeting at different sites is a divergent barrier, an error). */
void __gpuad_emu_syncthreads(uint32_t site);
/* __syncthreads_and / _or / _count: op 0 and, 1 or, 2 count. */
int32_t __gpuad_emu_syncthreads_reduce(uint32_t site, int32_t op, int32_t pred);

/* Warp shuffles of 32-bit values among the lanes in `mask`: mode 0 idx,
 * 1 up, 2 down, 3 xor (butterfly); `c` packs the segment width as CUDA's
 * shfl.sync does (clamp in bits 0-4, segment mask in bits 8-12). */
int32_t __gpuad_emu_shfl(int32_t mode, uint32_t mask, int32_t value,
                         int32_t lane_or_delta, int32_t c);
/* Whether the shuffle's source lane was in range (the `.p` variants). */
int32_t __gpuad_emu_shfl_in_range(int32_t mode, int32_t lane_or_delta,
                                  int32_t c);
/* Votes among the lanes in `mask`: op 0 all, 1 any, 2 uni, 3 ballot. */
uint32_t __gpuad_emu_vote(int32_t op, uint32_t mask, int32_t pred);
/* AMDGPU: a vote of the wavefront's active lanes: those that reach this
 * point of the program (the same call chain) together.  A wavefront has
 * no explicit masks; lanes that diverged to other code are inactive here. */
uint64_t __gpuad_emu_vote64(int32_t op, int32_t pred);
/* The lanes of the warp that have not exited. */
uint32_t __gpuad_emu_activemask(void);
/* This thread's lane in its warp. */
uint32_t __gpuad_emu_laneid(void);
/* The running launch's dynamic shared bytes (PTX %dynamic_smem_size). */
uint32_t __gpuad_emu_dynamic_shared_bytes(void);
/* AMDGPU ds_bpermute: the value of the lane at byte address `addr` / 4
 * (among the active lanes, as for vote64). */
int32_t __gpuad_emu_bpermute(int32_t addr, int32_t value);
/* match.any (all = 0): the lanes of `mask` whose value equals this lane's;
 * match.all (all = 1): `mask`'s live lanes if all values are equal, else 0. */
uint32_t __gpuad_emu_match(int32_t all, uint32_t mask, int64_t value);
/* redux.sync over the lanes in `mask`: op 0 add, 1 min, 2 max, 3 umin,
 * 4 umax, 5 and, 6 or, 7 xor. */
int32_t __gpuad_emu_redux(int32_t op, uint32_t mask, int32_t value);
/* Lets the other threads of the block run first (nanosleep, and polling
 * loads: a thread spinning on a flag lets its writer run). */
void __gpuad_emu_yield(void);
/* PTX exit: the thread ends here (it no longer counts at barriers). */
void __gpuad_emu_exit(void) __attribute__((noreturn));
/* Clocks (%clock64, %globaltimer, s_memtime): host nanoseconds. */
uint64_t __gpuad_emu_clock64(void);
/* The running launch's shared bytes per block (%total_smem_size). */
uint32_t __gpuad_emu_shared_bytes(void);
/* PTX isspacep: space 0 global, 1 shared, 2 local, 3 const, 4 param. */
int32_t __gpuad_emu_isspacep(int32_t space, const void *p);
/* PTX mbarriers (MBarrier.cpp): op 0 init (arg: arrivals), 1 arrive and
 * 2 arrive_drop (arg: count; returns the state before), 3 expect_tx and
 * 4 complete_tx (arg: bytes), 5 test_wait (arg: a state) and 6
 * test_wait.parity (arg: the parity), which return whether that phase has
 * completed. */
uint64_t __gpuad_emu_mbarrier(int32_t op, void *bar, int64_t arg);
/* 16-byte loads and stores with a memory order, single-copy atomic with
 * respect to each other (CUB's look-back pairs {status, value}). */
unsigned __int128 __gpuad_emu_load16(const void *p);
void __gpuad_emu_store16(void *p, unsigned __int128 value);

/* An access of `size` bytes at `p` (write: nonzero); out of every device
 * allocation, this thread's stack and its block's shared memory it stops
 * the program with the kernel's name. */
void __gpuad_emu_check(const void *p, uint64_t size, int32_t write);

/* Device-side malloc/free (tracked, so accesses to the blocks check). */
void *__gpuad_emu_malloc(uint64_t size);
void __gpuad_emu_free(void *p);

/* What a retargeted module registers (from a constructor). */
typedef struct {
  const char *name;            /* mangled kernel name */
  void (*launch)(void **args); /* calls the kernel with *args[i] */
} gpuad_emu_kernel_t;

typedef struct {
  const char *name; /* mangled variable name */
  void *address;
  uint64_t size;
} gpuad_emu_variable_t;

typedef struct {
  uint32_t warp_size; /* 32 (NVPTX) or 64 (AMDGPU) */
  uint32_t num_kernels;
  const gpuad_emu_kernel_t *kernels;
  uint32_t num_variables;
  const gpuad_emu_variable_t *variables;
  uint64_t static_shared_bytes; /* static __shared__ data per block */
  uint32_t arch; /* NVPTX: the sm_NN the device code targets (NN); else 0 */
} gpuad_emu_module_t;

void __gpuad_emu_register_module(const gpuad_emu_module_t *module);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUAD_EMU_EMUABI_H */
