//===- ThreadPrivacy.h - Memory only one GPU thread touches -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// On a GPU, reverse mode adds adjoints into shadow memory that other threads
/// may update too, so the add is atomic -- unless the memory is the
/// thread's own.  Stack memory always is.  Memory behind a kernel parameter
/// is when every access to it in the function is to the thread's slot:
///
///   address = base + s * gid + c,   0 <= c,  c + access size <= s
///
/// with the same uniform base (a parameter) and stride s for all accesses,
/// and gid = threadIdx.x + blockIdx.x * blockDim.x, which differs between
/// any two threads of a one-dimensional launch (the target says how it
/// spells the three).  The slots of different threads are disjoint, so
/// their read-add-writes cannot race -- provided no other differentiated
/// memory overlaps the parameter's (it is noalias, or no other memory that
/// may alias it has a shadow), since a second pointer into the same array
/// would reach other threads' slots.  Anything else -- a neighbour's slot,
/// a grid-stride loop, an access the analysis cannot decompose, a call that
/// receives the pointer -- keeps the memory shared.  A function that reads
/// a y or z coordinate gets no private slots at all; one that reads only x
/// is assumed to run in a one-dimensional launch.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_THREADPRIVACY_H
#define GPUAD_ANALYSIS_THREADPRIVACY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>

namespace llvm {
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace gpuad {

class TargetHooks;

class ThreadPrivacy {
public:
  /// \p Insts: the function's instructions; \p ClassOf: the memory class of
  /// a pointer (-1: unknown), equal for pointers into the same memory.
  /// \p MayOverlap: whether memory behind two pointers of different
  /// classes may overlap; \p HasShadow: whether a pointer's memory has a
  /// shadow (only shadow accesses can race with the reverse sweep's).
  ThreadPrivacy(
      llvm::ArrayRef<llvm::Instruction *> Insts,
      std::function<int(const llvm::Value *)> ClassOf,
      std::function<bool(const llvm::Value *, const llvm::Value *)> MayOverlap,
      std::function<bool(const llvm::Value *)> HasShadow,
      const TargetHooks &Target, const llvm::DataLayout &DL);

  /// Whether the memory behind \p Ptr is touched only through this
  /// thread's slot.
  bool isPrivate(const llvm::Value *Ptr) const;

  /// A pointer as a slot of the thread's linear index, if it is one.
  struct Slot {
    const llvm::Value *Base;
    int64_t Stride;
    int64_t Offset;
  };
  std::optional<Slot> slotOf(const llvm::Value *Ptr, uint64_t Size) const;

private:
  const TargetHooks &Target;
  const llvm::DataLayout &DL;
  std::function<int(const llvm::Value *)> ClassOf;
  /// Per class: the common slot shape, or nullopt once an access breaks it.
  llvm::DenseMap<int, std::optional<Slot>> Classes;
};

} // namespace gpuad

#endif // GPUAD_ANALYSIS_THREADPRIVACY_H
