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
///     provides once (<gpuad/tape_pool.h>), indexed by global thread id;
///     on the host, one heap block per call.
/// Tapes without a bound keep heap arrays (device malloc on a GPU; the
/// emitter warns).  Registers are what SROA makes of the slots outside
/// loops; they never reach this file.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TAPE_TAPEPLACEMENT_H
#define GPUAD_TAPE_TAPEPLACEMENT_H

#include "Options.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace llvm {
class AllocaInst;
class Function;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

class TargetHooks;

/// Where a fixed-size tape region is (Shared only after the module step;
/// Carried: in the tape split halves pass from one to the other, by value).
enum class TapePlace { Local, Shared, Pool, Heap, Carried };
llvm::StringRef placeName(TapePlace P);

/// The pool's symbols: a `{ptr base, i64 bytes_per_thread}` the host sets,
/// and the bytes per thread the module's pooled tapes need.
inline constexpr const char *TapePoolSymbol = "__gpuad_tape_pool";
inline constexpr const char *TapePoolNeedSymbol = "__gpuad_tape_pool_need";

/// Where a region of \p Bytes per thread goes before the shared step.
TapePlace chooseTapePlace(uint64_t Bytes, const TargetHooks &Target,
                          TapePlacementChoice Choice);

/// Emits \p F's region of \p Bytes per thread at \p Place in F's entry block
/// (a heap block is freed before every return) and returns it as a generic
/// pointer.  A local region is an alloca marked for the shared step; a
/// carried one an alloca marked for SplitForm, which puts its contents in
/// the tape of the split halves.
llvm::Value *emitTapeRegion(llvm::Function &F, TapePlace Place, uint64_t Bytes,
                            TargetHooks &Target);

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
