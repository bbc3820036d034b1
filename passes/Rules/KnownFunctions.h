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

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
} // namespace llvm

namespace gpuad {

/// True for calls that read no differentiable data and write no memory a
/// derivative depends on.
bool isKnownInactiveCall(const llvm::CallBase &Call);

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
};

/// The heap function \p Call calls, if any.
std::optional<HeapFn> classifyHeapCall(const llvm::CallBase &Call);
/// The heap function named \p Name, if it is one.
std::optional<HeapFn> classifyHeapFunction(llvm::StringRef Name);

} // namespace gpuad

#endif // GPUAD_RULES_KNOWNFUNCTIONS_H
