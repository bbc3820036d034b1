//===- ForwardStructure.h - The forward CFG as the reverse sweep sees it -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What the reverse sweep needs to know about the forward sweep it reverses.
/// The primal arrives in loop-simplified LCSSA form with one return
/// (Preprocessor::normalizedForReverse); after the forward sweep this adds,
/// to the forward code:
///   - a canonical induction variable per loop (0, 1, 2, ... in the header):
///     the iteration a cached value belongs to, and what the reverse loop
///     counts down;
///   - in each exit block, the iteration the loop was left in (a PHI of the
///     IVs of the loops being left), which starts their reverse;
///   - in each block with several predecessors (loop headers aside), a PHI
///     saying which predecessor control came from, which the reverse sweep
///     reads to retrace the path.
/// These are ordinary forward values: the tape caches or reuses them like
/// any other.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TAPE_FORWARDSTRUCTURE_H
#define GPUAD_TAPE_FORWARDSTRUCTURE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"

namespace gpuad {

class ForwardStructure {
public:
  /// Builds the structure of \p F's forward code (everything there is when
  /// it is called), adding IVs and PHIs as described above.
  explicit ForwardStructure(llvm::Function &F);

  llvm::DominatorTree &dominators() { return DT; }
  llvm::LoopInfo &loops() { return LI; }
  /// The block holding the single return, or null if the function never
  /// returns.
  llvm::BasicBlock *returnBlock() const { return Return; }
  /// Whether \p BB is forward code that can reach the return.
  bool reachesReturn(const llvm::BasicBlock *BB) const {
    return ReachesReturn.count(BB);
  }
  /// Forward blocks that reach the return, in a fixed order.
  llvm::ArrayRef<llvm::BasicBlock *> blocks() const { return Blocks; }

  /// The canonical IV of \p L, and whether \p V is one.
  llvm::PHINode *iv(const llvm::Loop *L) const { return IVs.lookup(L); }
  const llvm::Loop *loopOfIV(const llvm::Value *V) const {
    return IVLoop.lookup(V);
  }
  /// In exit block \p Exit, the iteration \p L was left in.
  llvm::PHINode *exitIteration(const llvm::Loop *L,
                               const llvm::BasicBlock *Exit) const;
  /// The predecessor-index PHI of \p BB (null for one predecessor and for
  /// loop headers).
  llvm::PHINode *predecessorIndex(const llvm::BasicBlock *BB) const {
    return PredIndex.lookup(BB);
  }
  /// The predecessors of \p BB that reach the return, in the order the
  /// predecessor index numbers them.
  llvm::ArrayRef<llvm::BasicBlock *>
  predecessors(const llvm::BasicBlock *BB) const;

  /// The loop \p V is the exit iteration of (null if it is not one).
  const llvm::Loop *loopOfExitIteration(const llvm::Value *V) const {
    return ExitIterationLoop.lookup(V);
  }

  /// Whether \p I is an instruction this structure added.
  bool isBookkeeping(const llvm::Instruction *I) const {
    return Bookkeeping.count(I);
  }

private:
  void addInductionVariables();
  void addExitIterations();
  void addPredecessorIndices();

  llvm::Function &F;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::BasicBlock *Return = nullptr;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> ReachesReturn;
  llvm::SmallVector<llvm::BasicBlock *, 32> Blocks;
  llvm::DenseMap<const llvm::Loop *, llvm::PHINode *> IVs;
  llvm::DenseMap<const llvm::Value *, const llvm::Loop *> IVLoop;
  llvm::DenseMap<std::pair<const llvm::Loop *, const llvm::BasicBlock *>,
                 llvm::PHINode *>
      ExitIterations;
  llvm::DenseMap<const llvm::Value *, const llvm::Loop *> ExitIterationLoop;
  llvm::DenseMap<const llvm::BasicBlock *, llvm::PHINode *> PredIndex;
  llvm::DenseMap<const llvm::BasicBlock *,
                 llvm::SmallVector<llvm::BasicBlock *, 4>>
      Preds;
  llvm::SmallPtrSet<const llvm::Instruction *, 32> Bookkeeping;
};

} // namespace gpuad

#endif // GPUAD_TAPE_FORWARDSTRUCTURE_H
