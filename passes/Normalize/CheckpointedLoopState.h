//===- CheckpointedLoopState.h - The state of a loop to checkpoint -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What a checkpointed loop's snapshots must hold (Normalize/
/// CheckpointedLoops.h describes the whole): for each access of the loop,
/// its base object and the extent of its offsets over the run; for each
/// kernel launch, the whole device allocation behind each pointer; or why
/// the state cannot be identified.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_CHECKPOINTEDLOOPSTATE_H
#define GPUAD_NORMALIZE_CHECKPOINTEDLOOPSTATE_H

#include "Normalize/CheckpointedLoops.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"

#include <functional>
#include <optional>

namespace llvm {
class DominatorTree;
class StoreInst;
} // namespace llvm

namespace gpuad {

class KernelLaunch;

/// The least and greatest value of an expression over the loop's run.
struct Bounds {
  const llvm::SCEV *Min, *Max;
};

/// Finds the state of the outlined loop \p L: the regions it writes, and
/// those it reads.
class StateFinder {
public:
  /// \p FirstOutput: the first parameter of the outlined loop through
  /// which it stores a value the code after it uses.
  /// \p Name: a buffer as the user knows it.
  StateFinder(llvm::Loop &L, llvm::ScalarEvolution &SE,
              const llvm::DominatorTree &DT, const CallTable &Calls,
              unsigned FirstOutput,
              std::function<std::string(const llvm::Value &)> Name)
      : L(L), SE(SE), DT(DT), Calls(Calls), FirstOutput(FirstOutput),
        Name(std::move(Name)) {}

  /// Visits every instruction of the loop; false (and why()) if its state
  /// cannot be identified.
  bool run();
  const std::string &why() const { return Why; }
  /// Per base object: the extent in bytes from the base that the loop
  /// reads or writes, and whether it writes any of it.
  const llvm::MapVector<llvm::Value *, Bounds> &extents() const {
    return Extents;
  }
  bool writes(const llvm::Value *Base) const { return Written.contains(Base); }
  /// Bases (parameters) whose whole device allocation a kernel reaches.
  const llvm::SetVector<llvm::Value *> &wholeAllocations() const {
    return Whole;
  }
  /// Whether \p Base's memory is copied by the GPU runtime, and which.
  bool onDevice(const llvm::Value *Base) const { return Device.contains(Base); }
  llvm::StringRef deviceApi() const { return Api; }
  /// Parameters the loop reads at offsets no trip count bounds.
  const llvm::SmallVector<unsigned, 2> &unboundedReads() const {
    return UnboundedReads;
  }
  /// The stores of a pointer the code after the loop uses, and the
  /// parameters the pointer can be.
  llvm::SmallVector<CheckpointedLoop::PointerOutput, 2> &pointerOutputs() {
    return PointerOutputs;
  }

private:
  bool visit(llvm::Instruction &I);
  bool visitLaunch(const KernelLaunch &Launch);
  bool addAccess(llvm::Instruction &I, llvm::Value *Ptr, const llvm::SCEV *Size,
                 bool Write);
  bool addExtent(llvm::Value *Base, const llvm::SCEV *Min,
                 const llvm::SCEV *Max, bool Write);
  /// Marks the parameters \p Base can be (itself, or a carried pointer's
  /// buffers) as device memory, written or not; false if it is neither.
  bool addDevice(llvm::Value *Base, bool Write, bool WholeAllocation);
  bool addPointerOutput(llvm::StoreInst &SI);
  std::optional<Bounds> bounds(const llvm::SCEV *E, const llvm::BasicBlock *At);
  std::optional<const llvm::SCEV *> lastIteration(const llvm::Loop &Lk,
                                                  const llvm::BasicBlock *At);
  bool refuse(const llvm::Twine &Msg) {
    Why = Msg.str();
    return false;
  }

  llvm::Loop &L;
  llvm::ScalarEvolution &SE;
  const llvm::DominatorTree &DT;
  const CallTable &Calls;
  unsigned FirstOutput;
  std::function<std::string(const llvm::Value &)> Name;
  llvm::MapVector<llvm::Value *, Bounds> Extents;
  llvm::SmallPtrSet<const llvm::Value *, 4> Written;
  llvm::SetVector<llvm::Value *> Whole;
  llvm::SmallPtrSet<const llvm::Value *, 4> Device;
  std::string Api;
  llvm::SmallVector<unsigned, 2> UnboundedReads;
  llvm::SmallVector<CheckpointedLoop::PointerOutput, 2> PointerOutputs;
  std::string Why;
};

/// The parameters of the outlined loop a pointer \p V in loop \p L can
/// hold: itself, or the buffers a header PHI carries; empty if others.
llvm::SmallVector<unsigned, 2> buffersOf(llvm::Value *V, const llvm::Loop &L);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_CHECKPOINTEDLOOPSTATE_H
