//===- Preprocess.h - Normalised copies of functions to differentiate -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// gpuad never differentiates a user's function in place.  It clones it
/// (`f.gpuad.primal`), drops `optnone`, and runs a small pipeline on the
/// clone -- SROA (mem2reg), EarlyCSE, SimplifyCFG, InstSimplify -- so that an
/// -O0 function with every local in an alloca becomes SSA values the analyses
/// see through.  Emitters clone this normal form into the derivative.  The
/// same object runs the clean-up pipeline on generated functions.  All clones
/// are deleted when the pass ends.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_PREPROCESS_H
#define GPUAD_NORMALIZE_PREPROCESS_H

#include "Normalize/CheckpointedLoops.h"
#include "Rules/AlgorithmCalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

#include <functional>
#include <map>
#include <vector>

namespace gpuad {

class CallTable;

class Preprocessor {
public:
  explicit Preprocessor(CallTable &Calls);
  ~Preprocessor();

  /// Target idioms to rewrite in every clone (TargetHooks::normalize; true:
  /// clean up and call again).
  void setTargetNormalizer(std::function<bool(llvm::Function &)> Fn) {
    TargetNormalizer = std::move(Fn);
  }

  /// Whether normalizedForReverse() moves invariant calls out of loops.
  void setHoistInvariantCalls(bool On) { HoistInvariantCalls = On; }

  /// Rewrites a clone's calls through function pointers (IndirectCalls;
  /// arguments: the clone and the user's function it copies).
  void setIndirectCallRewriter(
      std::function<bool(llvm::Function &, const llvm::Function &)> Fn) {
    IndirectCallRewriter = std::move(Fn);
  }

  /// The normalised clone of \p F (made once).
  llvm::Function &normalized(llvm::Function &F);
  /// The clone reverse mode differentiates: normalised, then with a single
  /// return, loops in simplified form (preheader, one latch, dedicated
  /// exits) and LCSSA, so values leave loops only through exit-block PHIs,
  /// and pure loop-invariant calls moved out of their loops
  /// (InvariantCalls.h).  \p Restrict: per parameter, whether to treat it
  /// as restrict (it gets `noalias`); one clone per distinct \p Restrict.
  llvm::Function &normalizedForReverse(llvm::Function &F,
                                       llvm::ArrayRef<bool> Restrict = {});
  /// The loops normalizedForReverse() outlines to checkpoint them.
  CheckpointedLoops &checkpoints() { return Checkpoints; }

  /// The user function a normalised clone was made from.
  llvm::Function *original(const llvm::Function &Clone) const;

  /// Simplifies a function gpuad generated.
  void cleanup(llvm::Function &F);

  /// Erases every clone made by normalized().
  void eraseClones();

private:
  void run(llvm::FunctionPassManager &FPM, llvm::Function &F);

  llvm::PassBuilder PB;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::Function &makeClone(llvm::Function &F, llvm::StringRef Suffix);

  llvm::DenseMap<llvm::Function *, llvm::Function *> Clones;
  std::function<bool(llvm::Function &)> TargetNormalizer;
  bool HoistInvariantCalls = true;
  CallTable &Calls;
  std::function<bool(llvm::Function &, const llvm::Function &)>
      IndirectCallRewriter;
  std::map<std::pair<llvm::Function *, std::vector<bool>>, llvm::Function *>
      ReverseClones;
  llvm::DenseMap<const llvm::Function *, llvm::Function *> Originals;
  CheckpointedLoops Checkpoints;
  /// The Thrust calls the frontend plugin described (run as map kernels).
  std::optional<llvm::StringMap<AlgorithmCall>> Algorithms;
};

} // namespace gpuad

#endif // GPUAD_NORMALIZE_PREPROCESS_H
