//===- KnownFunctions.h - Library calls with known behaviour ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The heap functions gpuad manages shadows for, and what a user's own
/// allocator and deallocator say about themselves (Enzyme's attributes).
/// Which function is which is the call table's answer (CallTable.h,
/// CallRules.def).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_KNOWNFUNCTIONS_H
#define GPUAD_RULES_KNOWNFUNCTIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace gpuad {

/// The function attribute that makes calls of a function gpuad generated
/// inactive.
inline constexpr const char *InactiveAttr = "gpuad-inactive";

enum class HeapFn {
  Malloc,        ///< malloc(size), operator new(size[, ...])
  Calloc,        ///< calloc(n, size)
  Realloc,       ///< realloc(p, size)
  Free,          ///< free(p), operator delete(p[, ...])
  PosixMemalign, ///< posix_memalign(&p, align, size)
  AlignedAlloc,  ///< aligned_alloc(align, size)
  /// cudaMalloc(&p, size[, ...]), hipMalloc: device memory through an
  /// out-pointer (CallTable::deviceMemory names its API); also pinned host
  /// memory (cudaMallocHost, cudaHostAlloc, hipHostMalloc), which is not a
  /// runtime row: its shadow is zeroed on the host.
  DeviceMalloc,
  /// A user's allocator and deallocator (Enzyme's
  /// __enzyme_allocation_like: attribute "enzyme_allocator" = size argument,
  /// "enzyme_deallocator" = the deallocator's arguments, metadata
  /// enzyme_deallocator_fn).
  UserAlloc,
  UserFree,
};

/// The library functions that release a heap block: Plain takes the
/// pointer ("free" is the target's free); Aligned, where the block is an
/// aligned one, also takes the alignment (argument 1 of the allocation).
struct HeapRelease {
  llvm::StringRef Plain;
  llvm::StringRef Aligned;
};

/// The argument a free-like call (free, realloc, a user's deallocator)
/// releases.
unsigned releasedArgument(const llvm::CallBase &Call);
/// A user allocator's size argument.
unsigned userAllocationSize(const llvm::Function &Alloc);
/// A user allocator's deallocator and what it is passed: allocator argument
/// numbers, -1 for the allocated pointer.
llvm::Function *userDeallocator(const llvm::Function &Alloc);
llvm::SmallVector<int, 4> userDeallocatorArguments(const llvm::Function &Alloc);

} // namespace gpuad

#endif // GPUAD_RULES_KNOWNFUNCTIONS_H
