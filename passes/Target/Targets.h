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
