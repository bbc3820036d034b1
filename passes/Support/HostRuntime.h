//===- HostRuntime.h - gpuad's C runtime in host modules --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Some derivatives call gpuad's own C runtime (runtime/: the schedules of
/// checkpointed loops).  The plugin carries it as bitcode and links the
/// functions a module declares into that module, internalised, so a program
/// built with plain `clang -fpass-plugin` needs no extra library.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_HOSTRUNTIME_H
#define GPUAD_SUPPORT_HOSTRUNTIME_H

namespace llvm {
class Module;
} // namespace llvm

namespace gpuad {

/// Links the definitions of the runtime functions \p M declares (and what
/// they call) into \p M with internal linkage.  False if the embedded
/// bitcode could not be read or linked (an internal error).
bool linkHostRuntime(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_SUPPORT_HOSTRUNTIME_H
