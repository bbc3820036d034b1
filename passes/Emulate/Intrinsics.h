//===- Intrinsics.h - Target intrinsics in emulated device code -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The NVPTX and AMDGPU intrinsics device code uses, as host code: thread
/// and block ids read the emulator's per-thread state, barriers and warp
/// operations call into the emulator (EmuAbi.h), fences become host fences,
/// and arithmetic forms become the host's (approximate forms exact).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMULATE_INTRINSICS_H
#define GPUAD_EMULATE_INTRINSICS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

namespace llvm {
class IRBuilderBase;
class Module;
class Type;
class Value;
} // namespace llvm

namespace gpuad::emu {

/// Lowers every target intrinsic call in \p M; reports an unknown one
/// through \p Error (and returns false).
bool lowerTargetIntrinsics(llvm::Module &M, bool IsAMDGPU,
                           llvm::function_ref<void(const llvm::Twine &)> Error);

/// Removes inline assembly that is only a comment (keeping its tied input
/// or a compiler fence) and translates inline PTX; reports what it cannot
/// run through \p Error (InlineAsm.cpp).
bool lowerInlineAssembly(llvm::Module &M, bool IsAMDGPU,
                         llvm::function_ref<void(const llvm::Twine &)> Error);

/// Reads the running thread's field at \p Offset of the emulator's
/// per-thread state (EmuAbi.h's __gpuad_emu_thread, declared in \p M on
/// first use).
llvm::Value *threadField(llvm::IRBuilderBase &B, llvm::Module &M,
                         uint64_t Offset, llvm::Type *Ty);

} // namespace gpuad::emu

#endif // GPUAD_EMULATE_INTRINSICS_H
