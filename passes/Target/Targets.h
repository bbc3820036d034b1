//===- Targets.h - The concrete target hooks --------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Constructors of the three implementations, and helpers they share.  Only
/// files in passes/Target/ include this header.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_TARGETS_H
#define GPUAD_TARGET_TARGETS_H

#include "Target/TargetHooks.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
} // namespace llvm

namespace gpuad {

std::unique_ptr<TargetHooks> makeHostHooks(llvm::Module &M);
std::unique_ptr<TargetHooks> makeNVPTXHooks(llvm::Module &M,
                                            const GpuadOptions &Options,
                                            Diagnostics &Diags);
std::unique_ptr<TargetHooks> makeAMDGPUHooks(llvm::Module &M,
                                             const GpuadOptions &Options,
                                             Diagnostics &Diags);

/// Applies a scalar library call element by element when the arguments are
/// vectors (device libraries have scalar entry points only).
llvm::Value *
emitScalarized(llvm::IRBuilderBase &B, llvm::ArrayRef<llvm::Value *> Args,
               llvm::function_ref<llvm::Value *(llvm::ArrayRef<llvm::Value *>)>
                   EmitScalar);

/// Whether \p Call calls a function whose name starts with one of
/// \p Prefixes.
bool calleeHasPrefix(const llvm::CallBase &Call,
                     llvm::ArrayRef<llvm::StringRef> Prefixes);

/// Warp shuffles (WarpShuffles.cpp): the operand a target's shuffle copies,
/// and its transpose for reverse mode (see TargetHooks).
std::optional<unsigned> nvptxShuffledOperand(const llvm::CallBase &Call);
llvm::Value *
emitNVPTXShuffleTranspose(llvm::IRBuilderBase &B, const llvm::CallBase &Call,
                          llvm::function_ref<llvm::Value *(unsigned)> Operand,
                          llvm::Value *Adjoint);
/// Rewrites CUDA's 64-bit shuffles (two 32-bit halves) in \p F as one;
/// first inlines the headers' shuffle functions, returning true when it did
/// (the caller cleans up and calls again).
bool normalizeNVPTXShuffles(llvm::Function &F);
/// The same for HIP's (ds_bpermute) shuffles.
bool normalizeAMDGPUShuffles(llvm::Function &F);
std::optional<unsigned> amdgpuShuffledOperand(const llvm::CallBase &Call);
llvm::Value *
emitAMDGPUShuffleTranspose(llvm::IRBuilderBase &B, const llvm::CallBase &Call,
                           llvm::function_ref<llvm::Value *(unsigned)> Operand,
                           llvm::Value *Adjoint);

/// Warp aggregation (WarpShuffles.cpp): whole warp active, the sum over
/// the whole warp, lane 0 (see TargetHooks::emitWholeWarpActive).
llvm::Value *nvptxWholeWarpActive(llvm::IRBuilderBase &B);
llvm::Value *nvptxWarpSum(llvm::IRBuilderBase &B, llvm::Value *V);
llvm::Value *nvptxIsWarpLeader(llvm::IRBuilderBase &B);
llvm::Value *nvptxWarpAllSame(llvm::IRBuilderBase &B, llvm::Value *V);
llvm::Value *amdgpuWholeWarpActive(llvm::IRBuilderBase &B);
llvm::Value *amdgpuWarpSum(llvm::IRBuilderBase &B, llvm::Value *V);
llvm::Value *amdgpuIsWarpLeader(llvm::IRBuilderBase &B);
llvm::Value *amdgpuWarpAllSame(llvm::IRBuilderBase &B, llvm::Value *V);

/// Lane batching (LaneOps.cpp; the lane reads in WarpShuffles.cpp): see
/// TargetHooks::emitLaneIndex and the hooks after it.
bool nvptxCommunicates(const llvm::CallBase &Call);
bool nvptxReadsThreadIndex(const llvm::CallBase &Call);
llvm::Value *nvptxActiveLanes(llvm::IRBuilderBase &B);
void nvptxLaneSync(llvm::IRBuilderBase &B, llvm::Value *Mask);
llvm::Value *nvptxAnyLane(llvm::IRBuilderBase &B, llvm::Value *Pred,
                          llvm::Value *Mask);
llvm::Value *nvptxIsPrivate(llvm::IRBuilderBase &B, llvm::Value *P);
llvm::Value *nvptxReadLane(llvm::IRBuilderBase &B, llvm::Value *V,
                           llvm::Value *Lane, llvm::Value *Mask);
bool amdgpuCommunicates(const llvm::CallBase &Call);
bool amdgpuReadsThreadIndex(const llvm::CallBase &Call);
llvm::Value *amdgpuLaneIndex(llvm::IRBuilderBase &B);
llvm::Value *amdgpuActiveLanes(llvm::IRBuilderBase &B);
void amdgpuLaneSync(llvm::IRBuilderBase &B);
llvm::Value *amdgpuAnyLane(llvm::IRBuilderBase &B, llvm::Value *Pred,
                           llvm::Value *Mask);
llvm::Value *amdgpuIsPrivate(llvm::IRBuilderBase &B, llvm::Value *P);
llvm::Value *amdgpuReadLane(llvm::IRBuilderBase &B, llvm::Value *V,
                            llvm::Value *Lane);

/// The base name of a MathFn in C libraries ("sin", "pow", ...).
llvm::StringRef libraryBaseName(MathFn Fn);

/// Calls \p Name, a device library's scalar entry point for \p Fn on
/// arguments \p Args of type Ty: (Ty), (Ty, Ty) for pow, (Ty, i32) for powi.
/// \p Get declares (or finds) the function.
llvm::Value *callLibraryMath(
    llvm::IRBuilderBase &B, MathFn Fn, llvm::ArrayRef<llvm::Value *> Args,
    llvm::StringRef Name,
    llvm::function_ref<llvm::Function *(llvm::StringRef, llvm::FunctionType *)>
        Get);

} // namespace gpuad

#endif // GPUAD_TARGET_TARGETS_H
