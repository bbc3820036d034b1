//===- DiffRequest.h - One parsed __enzyme_* call ---------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A DiffRequest is a request call after parsing: the function to
/// differentiate, the mode, width and activities (its DerivativeKey), and the
/// caller's values for every primal and shadow argument.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_DIFFREQUEST_H
#define GPUAD_PLANNER_DIFFREQUEST_H

#include "Support/DerivativeKey.h"

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace gpuad {

/// The caller's values for one parameter of the differentiated function.
struct ArgRequest {
  llvm::Value *Primal = nullptr;
  /// One value per lane for Dup/DupNoNeed, given directly.
  llvm::SmallVector<llvm::Value *, 4> Shadows;
  /// `enzyme_dupv stride, p, base`: lane v's shadow is `base + v*stride`.
  llvm::Value *DupVStride = nullptr;
  llvm::Value *DupVBase = nullptr;
};

/// How a split-mode tape travels between the user's two calls.
enum class TapeTransport {
  Heap,      ///< a pointer to a heap block (the default)
  Allocated, ///< by value, in `enzyme_allocated N` bytes
  Memory,    ///< stored to / loaded from `enzyme_tape p`
};

struct DiffRequest {
  llvm::CallBase *Call = nullptr;
  DerivativeKey Key;
  /// One entry per parameter of Key.Fn.
  llvm::SmallVector<ArgRequest, 8> Args;
  /// Split mode (__enzyme_augmentfwd / __enzyme_reverse): how the tape
  /// travels, the byte count `enzyme_allocated` gives (Allocated, or the
  /// size of Memory's buffer; 0 when not given), the pointer for Memory.
  TapeTransport Tape = TapeTransport::Heap;
  uint64_t AllocatedBytes = 0;
  bool HasAllocatedBytes = false;
  llvm::Value *TapePointer = nullptr;
  /// __enzyme_reverse: the seed of an active return (one per lane) and the
  /// operands that carry the tape (a pointer, or a value in pieces).
  llvm::SmallVector<llvm::Value *, 4> Seeds;
  llvm::SmallVector<llvm::Value *, 4> TapeOperands;
  /// __enzyme_reverse: the type of a tape passed by value through a `byval`
  /// pointer (the C ABI's copy of a large struct), else null.
  llvm::Type *TapeByValType = nullptr;
  /// The memory the result goes to when the call returns through `sret`.
  llvm::Value *ReturnSlot = nullptr;
  /// The type the call declares for its result (the sret type if any).
  llvm::Type *ResultType = nullptr;
};

} // namespace gpuad

#endif // GPUAD_PLANNER_DIFFREQUEST_H
