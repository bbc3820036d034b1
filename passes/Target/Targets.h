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

/// The base name of a MathFn in C libraries ("sin", "pow", ...).
llvm::StringRef libraryBaseName(MathFn Fn);

} // namespace gpuad

#endif // GPUAD_TARGET_TARGETS_H
