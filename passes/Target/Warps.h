//===- Warps.h - Warp operations both GPU targets share ---------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What the NVPTX and AMDGPU hooks share about shuffles and lanes: the
/// general transpose of a shuffle (each lane's adjoint summed where it was
/// read from), the rewrite of 64-bit shuffles split into 32-bit halves into
/// one shuffle of a double, and the test for private memory.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_WARPS_H
#define GPUAD_TARGET_WARPS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Intrinsics.h"

namespace llvm {
class CallBase;
class Function;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

/// The adjoint addressed to this lane, given each lane's adjoint \p Adjoint
/// and source lane \p Source: sum over lanes k of the participating set
/// \p Lanes (a bit mask of \p Width bits) with Source[k] == this lane.
/// \p Read(V, k) reads lane k's V.
llvm::Value *sumAddressedAdjoints(
    llvm::IRBuilderBase &B, llvm::Value *Adjoint, llvm::Value *Source,
    llvm::Value *ThisLane, llvm::Value *Lanes, unsigned Width,
    llvm::function_ref<llvm::Value *(llvm::Value *, unsigned)> Read);

/// A target's shuffle as the 64-bit normalization sees it.
struct ShuffleForm {
  llvm::function_ref<bool(const llvm::CallBase &)> IsShuffle;
  unsigned ValueOperand;
  /// The 64-bit helper standing for two 32-bit shuffles like \p Half.
  llvm::function_ref<llvm::Function *(llvm::Module &,
                                      const llvm::CallBase &Half)>
      Helper;
};

/// A helper `double Name(<Half's operands, value a double>)` whose body
/// \p Body builds from its arguments; inlined after differentiation.
llvm::Function *makeShuffle64Helper(
    llvm::Module &M, llvm::StringRef Name, const llvm::CallBase &Half,
    unsigned ValueOperand,
    llvm::function_ref<llvm::Value *(llvm::IRBuilderBase &, llvm::Function &)>
        Body);

/// Rewrites \p F's 64-bit values shuffled as two 32-bit halves (what CUDA's
/// and HIP's headers do for double and long long) into one call of the
/// form's 64-bit helper, whose derivative is that of one shuffle.  Returns
/// whether \p F changed.
bool normalizeShuffles(llvm::Function &F, const ShuffleForm &Form);

/// Whether \p P, in address space \p Private or generic (0) with
/// \p IsPrivate telling, is private memory.
llvm::Value *isPrivateSpace(llvm::IRBuilderBase &B, llvm::Value *P,
                            unsigned Private, llvm::Intrinsic::ID IsPrivate);

} // namespace gpuad

#endif // GPUAD_TARGET_WARPS_H
