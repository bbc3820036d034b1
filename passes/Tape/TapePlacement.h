//===- TapePlacement.h - Where a thread's tape lives ------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A tape whose size has a compile-time bound (every loop around a cached
/// value has a constant maximum trip count) lives in one fixed-size region
/// per thread, and no allocation happens while the derivative runs.  Where
/// that region is, is decided here, within the target's budgets:
///   - shared-memory slots, when every kernel that reaches the derivative
///     has a known maximum block size and the slots fit beside the shared
///     memory the module already uses (a module step after all derivatives
///     exist: placeTapesInSharedMemory);
///   - otherwise the thread's own memory (an alloca: CUDA local memory,
///     AMDGPU scratch, the host stack) within localTapeBudget();
///   - otherwise, on a GPU, the global tape pool: a buffer the host
///     provides once (<gpuad/tape_pool.h>), indexed by global thread id,
///     or the device heap when the host provides none
///     (TapeHeapFallback.cpp); on the host, one heap block per call.
/// Tapes without a bound keep arrays that grow: on a GPU in the pool's
/// arena (TapeArena.cpp; the emitter warns, since the host must give the
/// pool room), on the host on the heap.  Registers are what SROA makes of
/// the slots outside loops; they never reach this file.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TAPE_TAPEPLACEMENT_H
#define GPUAD_TAPE_TAPEPLACEMENT_H

#include "Support/Options.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace llvm {
class AllocaInst;
class Function;
class FunctionType;
class GlobalVariable;
class IRBuilderBase;
class Type;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

class TargetHooks;

/// Where a fixed-size tape region is (Shared only after the module step;
/// Carried: in the tape split halves pass from one to the other, by value).
enum class TapePlace { Local, Shared, Pool, Heap, Carried };
llvm::StringRef placeName(TapePlace P);

/// The pool's symbols: a `{ptr base, i64 bytes_per_thread, i64 generation}`
/// the host sets, and the bytes per thread the module's fixed tapes need
/// (where the arena of growing tapes starts).  A thread's part begins with
/// PoolHeaderBytes of arena bookkeeping.
inline constexpr const char *TapePoolSymbol = "__gpuad_tape_pool";
inline constexpr const char *TapePoolNeedSymbol = "__gpuad_tape_pool_need";
inline constexpr uint64_t PoolHeaderBytes = 16;

/// Memory for tape arrays whose size is known only at run time (loops
/// without a compile-time bound, split tapes too big to carry): on a GPU the
/// per-thread arena in the tape pool (TapeArena.cpp), a stack with holes
/// reclaimed as the blocks above them are freed; on the host, or with
/// -gpuad-tape-placement=heap, the target's allocator (device malloc).
/// Generic pointers.
llvm::Value *emitTapeAlloc(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                           llvm::Function &User, TargetHooks &Target,
                           TapePlacementChoice Choice);
void emitTapeFree(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                  llvm::Function &User, TargetHooks &Target,
                  TapePlacementChoice Choice);
/// Whether tape arrays of unknown size use the arena.
bool usesTapeArena(const TargetHooks &Target, TapePlacementChoice Choice);

// Shared with TapeArena.cpp.
/// The pool's variables (created, internal and zero, when the program does
/// not declare them): `{ptr base, i64 bytes_per_thread, i64 generation}`
/// and the i64 bytes per thread of the fixed tapes.
llvm::GlobalVariable *tapePool(llvm::Module &M, const TargetHooks &Target);
llvm::GlobalVariable *tapePoolNeed(llvm::Module &M, const TargetHooks &Target);
/// The module's internal helper \p Name of type \p FT, with \p User's
/// target attributes: empty when just made (the caller writes its body).
llvm::Function *tapeHelper(llvm::Function &User, llvm::StringRef Name,
                           llvm::FunctionType *FT);
/// The pool's base (generic pointer) and bytes per thread, and whether a
/// thread's part holds \p Bytes at \p Offset.
struct PoolView {
  llvm::Value *Base, *Stride, *Fits;
};
PoolView emitPoolView(llvm::IRBuilderBase &B, llvm::Value *Offset,
                      llvm::Value *Bytes, const TargetHooks &Target);
/// `ptr gpuad.tape.pool.region(i64 offset, i64 bytes)`: this thread's
/// bytes at offset of its part of the pool; a block of the device heap if
/// the pool is missing or too small (released by
/// `void gpuad.tape.pool.release(ptr region, i64 offset, i64 bytes)`).
llvm::Function *poolRegionFunction(llvm::Function &User, TargetHooks &Target);
llvm::Function *poolReleaseFunction(llvm::Function &User, TargetHooks &Target);
/// Whether tape memory the pool cannot give comes from the device heap:
/// always where a reachable heap call costs nothing, else where the program
/// does not declare the pool (so cannot provide it).  Otherwise a kernel
/// without the pool it needs traps.
bool usesHeapFallback(const llvm::Module &M, const TargetHooks &Target);
/// `ptr gpuad.tape.heap.fallback(i64 bytes)`: tape memory from the device
/// heap where the pool cannot give it (TapeHeapFallback.cpp).
llvm::Function *heapFallbackFunction(llvm::Function &User, TargetHooks &Target);
/// Ends the block of a helper of \p User that returns tape memory, where
/// the pool cannot give \p Bytes: returns them from the device heap, or
/// traps with \p Message (usesHeapFallback).
void emitPoolShortfall(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                       llvm::Function &User, TargetHooks &Target,
                       llvm::StringRef Message);
/// Reserves \p Bytes per thread in the pool, after the arena's header;
/// returns their offset.
uint64_t reservePool(llvm::Module &M, uint64_t Bytes,
                     const TargetHooks &Target);

/// Where a region of \p Bytes per thread goes before the shared step.
TapePlace chooseTapePlace(uint64_t Bytes, const TargetHooks &Target,
                          TapePlacementChoice Choice);

/// Emits \p F's region of \p Bytes per thread at \p Place in F's entry block
/// (a heap block is freed before every return) and returns it as a generic
/// pointer.  A local region is an alloca marked for the shared step; a
/// carried one an alloca marked for SplitForm, which puts its contents in
/// the tape of the split halves.
llvm::Value *emitTapeRegion(llvm::Function &F, TapePlace Place, uint64_t Bytes,
                            TargetHooks &Target, TapePlacementChoice Choice);

/// The largest region split halves carry by value in their tape (bigger
/// ones are one heap block per call).
inline constexpr uint64_t MaxCarriedTapeRegion = 512;

/// Whether \p AI is a local tape region carried by value across a split.
bool isCarriedTapeRegion(const llvm::AllocaInst &AI);

/// Whether the module declares the tape pool itself (the program includes
/// <gpuad/tape_pool.h>), so that its host code can provide it.
bool programDeclaresTapePool(const llvm::Module &M);

/// The module step: moves the local tape regions of functions only kernels
/// with a known maximum block size reach into shared-memory slots, where
/// they fit.  Each decision is a remark (-Rpass=gpuad, or
/// -Rpass-analysis=gpuad for the regions that stay).
void placeTapesInSharedMemory(llvm::Module &M, TargetHooks &Target,
                              TapePlacementChoice Choice);

} // namespace gpuad

#endif // GPUAD_TAPE_TAPEPLACEMENT_H
