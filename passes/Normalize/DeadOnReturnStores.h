//===- DeadOnReturnStores.h - Stores to memory nobody reads -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A parameter marked `dead_on_return` and `noalias` is memory whose
/// contents the caller never reads after the call and that only this
/// parameter reaches.  Where nothing in the function may read it either,
/// every store to it is dead, in loops too, which LLVM's DSE does not
/// remove.  gpuad marks the primal memory of a checkpointed loop's reverse
/// step so (the schedule restores a snapshot before the state is used
/// again): its restrict version then drops the primal's stores, and the
/// values computed only for them.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_DEADONRETURNSTORES_H
#define GPUAD_NORMALIZE_DEADONRETURNSTORES_H

#include "llvm/IR/PassManager.h"

namespace gpuad {

class DeadOnReturnStoresPass
    : public llvm::PassInfoMixin<DeadOnReturnStoresPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace gpuad

#endif // GPUAD_NORMALIZE_DEADONRETURNSTORES_H
