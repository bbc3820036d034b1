//===- RuntimeBitcode.h - gpuad's C runtime in modules ---------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Some derivatives call gpuad's own C runtime (runtime/: the schedules of
/// checkpointed loops; in device code, the per-thread record of such a
/// loop).  The plugin carries it as bitcode, one build for the host and one
/// per GPU target, and links the functions a module declares into that
/// module, internalised, so a program built with plain `clang
/// -fpass-plugin` needs no extra library.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_RUNTIMEBITCODE_H
#define GPUAD_SUPPORT_RUNTIMEBITCODE_H

namespace llvm {
class Module;
} // namespace llvm

namespace gpuad {

/// Links the definitions of the runtime functions \p M declares (and what
/// they call) into \p M with internal linkage, from the build for \p M's
/// target.  False if the embedded bitcode could not be read or linked (an
/// internal error).
bool linkRuntime(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_SUPPORT_RUNTIMEBITCODE_H
