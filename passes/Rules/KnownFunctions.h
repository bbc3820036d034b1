//===- KnownFunctions.h - Library calls with known behaviour ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// External functions gpuad knows without seeing their bodies: the ones that
/// never affect a derivative (I/O, timing, assertions, LLVM's annotation
/// intrinsics) and the heap allocation families, whose shadows gpuad manages.
/// Math functions are not here: they are rows of the derivative rule table.
/// Target-specific intrinsics (thread ids, barriers) are the target hooks'.
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

/// True for calls that read no differentiable data and write no memory a
/// derivative depends on.
bool isKnownInactiveCall(const llvm::CallBase &Call);
/// The function attribute that makes calls of a function gpuad generated
/// inactive.
inline constexpr const char *InactiveAttr = "gpuad-inactive";

/// True for library calls, compiled outside the program, that only move
/// pointers and integers inside the structures they are given: libstdc++'s
/// red-black tree links (std::map, std::set) and the members of std::string
/// the library instantiates.  The derivative makes the same call on the
/// shadows, so shadow structures keep mirroring the primal ones.
bool isStructureCall(const llvm::CallBase &Call);

enum class HeapFn {
  Malloc,        ///< malloc(size), operator new(size[, ...])
  Calloc,        ///< calloc(n, size)
  Realloc,       ///< realloc(p, size)
  Free,          ///< free(p), operator delete(p[, ...])
  PosixMemalign, ///< posix_memalign(&p, align, size)
  AlignedAlloc,  ///< aligned_alloc(align, size)
  /// A user's allocator and deallocator (Enzyme's
  /// __enzyme_allocation_like: attribute "enzyme_allocator" = size argument,
  /// "enzyme_deallocator" = the deallocator's arguments, metadata
  /// enzyme_deallocator_fn).
  UserAlloc,
  UserFree,
};

/// The heap function \p Call calls, if any.
std::optional<HeapFn> classifyHeapCall(const llvm::CallBase &Call);
/// The heap function named \p Name, if it is one.
std::optional<HeapFn> classifyHeapFunction(llvm::StringRef Name);

/// The argument a free-like call (free, realloc, a user's deallocator)
/// releases.
unsigned releasedArgument(const llvm::CallBase &Call);
/// A user allocator's size argument.
unsigned userAllocationSize(const llvm::Function &Alloc);
/// A user allocator's deallocator and what it is passed: allocator argument
/// numbers, -1 for the allocated pointer.
llvm::Function *userDeallocator(const llvm::Function &Alloc);
llvm::SmallVector<int, 4> userDeallocatorArguments(const llvm::Function &Alloc);

/// Which C memory function ("memcpy", "memmove", "memset") \p F defines
/// under a C++ name, or "" if none: HIP's device headers define
/// `static void *memcpy(void *, const void *, size_t)` as a byte loop, whose
/// calls gpuad differentiates as the intrinsic (the guard keeps them calls).
llvm::StringRef headerMemoryFunction(const llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_RULES_KNOWNFUNCTIONS_H
