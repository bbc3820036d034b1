//===- ParallelRegions.h - OpenMP's parallel regions as calls ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// clang outlines an OpenMP parallel region into a function, the
/// microtask, that every thread of a team runs:
///
///   __kmpc_fork_call(loc, n, microtask, a1, ..., an)
///     each thread: microtask(&gtid, &btid, a1, ..., an)
///
/// The normalised clone calls the microtask directly, once, tagged as a
/// parallel region (`!gpuad.parallel`, holding `loc`), with placeholder
/// thread-id slots: to the analyses it is the region as one thread runs it,
/// and data flows through it as through any call.  The emitters replace a
/// tagged call that needs a derivative by a fork of the derivative
/// (Sweep/TeamForks.h); one that needs none becomes the runtime's fork
/// again (lowerParallelRegions).
///
/// Reductions: clang's `__kmpc_reduce[_nowait]` lets the runtime choose how
/// the threads' partial values meet: under a lock, by atomics, or in a tree
/// through the region's reduction function, which the analyses never see.
/// Differentiated code takes the lock, one of the runtime's own methods:
/// the call enters a critical section on the reduction's lock and answers
/// 1 (this thread adds its partial to the shared variable), and the end of
/// the reduction leaves it (the blocking form then waits at a barrier).
///
/// Synchronisation is mirrored in the reverse sweep (Rules/OpenMPCalls.h).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_PARALLELREGIONS_H
#define GPUAD_NORMALIZE_PARALLELREGIONS_H

namespace llvm {
class CallBase;
class CallInst;
class Function;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace gpuad {

/// Rewrites \p F's forks of parallel regions into tagged calls of their
/// microtasks, and its reductions into critical sections.  Returns whether
/// it changed anything.
bool normalizeParallelRegions(llvm::Function &F);
/// Whether \p Call is a parallel region's tagged call (its first two
/// operands are the thread-id placeholders).
bool isParallelRegion(const llvm::CallBase &Call);
/// The source location (`ident_t`) of a parallel region's tagged call.
llvm::Value *parallelRegionLocation(const llvm::CallBase &Call);
/// Turns \p F's tagged calls back into forks.
bool lowerParallelRegions(llvm::Function &F);

/// `__kmpc_fork_call(Loc, 1, Microtask, Context)`: every thread of a new
/// team runs `Microtask(&gtid, &btid, Context)`.
llvm::CallInst *emitFork(llvm::IRBuilderBase &B, llvm::Value *Loc,
                         llvm::Function *Microtask, llvm::Value *Context);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_PARALLELREGIONS_H
