//===- HipWorkItemFence.h - A body for HIP's __atomic_work_item_fence -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// ROCm 5.2's HIP headers (Debian's) implement __syncthreads() and the
/// __threadfence*() family with OpenCL's `__atomic_work_item_fence`, which
/// they expect from hip.amdgcn.bc; Debian's device libraries and clang 22
/// do not supply it under that name, so every HIP program that synchronises
/// fails to link.  At the start of the pipeline this pass gives an AMDGPU
/// module that calls the declaration a body: the fence of the requested
/// order at the AMDGPU sync scope of the requested OpenCL memory scope.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_AMDGPU_HIPWORKITEMFENCE_H
#define GPUAD_TARGET_AMDGPU_HIPWORKITEMFENCE_H

#include "llvm/IR/PassManager.h"

namespace gpuad {

class DefineWorkItemFencePass
    : public llvm::PassInfoMixin<DefineWorkItemFencePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace gpuad

#endif // GPUAD_TARGET_AMDGPU_HIPWORKITEMFENCE_H
