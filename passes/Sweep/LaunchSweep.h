//===- LaunchSweep.h - Device copies around kernel launches -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A derivative kernel re-runs its kernel, and so writes what the kernel
/// writes.  Where that must not reach the program's memory -- a reverse
/// sweep's adjoint kernel needs the memory as it was before the launch; a
/// width-N tangent runs the kernel once per lane -- it runs on device
/// copies of the allocations its pointer arguments point into: each pointer
/// inside a copied allocation moves to the same offset in the copy.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_LAUNCHSWEEP_H
#define GPUAD_SWEEP_LAUNCHSWEEP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

namespace llvm {
class IRBuilderBase;
class Value;
} // namespace llvm

namespace gpuad {

class GpuRuntimeApi;

/// A device copy of one allocation.
struct DeviceCopy {
  llvm::Value *Base, *Bytes, *Copy;
};

/// Copies the allocation \p P points into, ordered on \p Stream.
DeviceCopy copyAllocation(llvm::IRBuilderBase &At, GpuRuntimeApi &Runtime,
                          llvm::Value *P, llvm::Value *Stream,
                          const llvm::Twine &Purpose);
/// Another copy of what \p From holds.
DeviceCopy copyAgain(llvm::IRBuilderBase &At, GpuRuntimeApi &Runtime,
                     const DeviceCopy &From, llvm::Value *Stream);
/// \p P moved into the copy of the allocation that holds it, if any.
llvm::Value *intoCopies(llvm::IRBuilderBase &B, llvm::Value *P,
                        llvm::ArrayRef<DeviceCopy> Copies);

} // namespace gpuad

#endif // GPUAD_SWEEP_LAUNCHSWEEP_H
