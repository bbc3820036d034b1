//===- TargetHooks.h - What gpuad needs to know about a target --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one target interface.  Nothing outside passes/Target/ names an
/// `nvvm.`/`amdgcn.` intrinsic, a device library or an address-space number.
/// A module gets its hooks from makeTargetHooks(), by triple: the host (any
/// CPU), NVPTX (CUDA) or AMDGPU (HIP).
///
/// Today the hooks supply the elementary functions derivative rules need
/// (MathProvider) and the target's inactive intrinsics.  Reverse mode adds
/// barriers, atomics with scopes, shared memory and warp operations here.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_TARGETHOOKS_H
#define GPUAD_TARGET_TARGETHOOKS_H

#include "Rules/DerivativeRules.h"

#include <memory>

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace gpuad {

class Diagnostics;
struct GpuadOptions;

class TargetHooks : public MathProvider {
public:
  ~TargetHooks() override;

  /// A short name for messages ("host", "nvptx", "amdgpu").
  virtual llvm::StringRef name() const = 0;
  virtual bool isGPU() const = 0;
  /// Target intrinsics that never carry derivatives (thread and block ids,
  /// barriers, fences, dispatch pointers).
  virtual bool isInactiveCall(const llvm::CallBase &Call) const = 0;
  /// Called once after all derivatives of the module are generated, to
  /// supply library functions the derivative code uses (e.g. libdevice's
  /// `__nv_cos` for the derivative of `__nv_sin`).  Returns false after
  /// reporting an error.
  virtual bool finalize() { return true; }
};

std::unique_ptr<TargetHooks> makeTargetHooks(llvm::Module &M,
                                             const GpuadOptions &Options,
                                             Diagnostics &Diags);

} // namespace gpuad

#endif // GPUAD_TARGET_TARGETHOOKS_H
