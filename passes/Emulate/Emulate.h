//===- Emulate.h - Device IR to host IR, for the CPU emulator ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Two passes make an NVPTX or AMDGPU module run on the host:
///   - KeepLibraryCallsPass, at the start of the device pipeline
///     (`-mllvm -gpuad-emulation`): the device libraries' functions
///     (libdevice's `__nv_*`, ockl's and ocml's `__ockl_*`/`__ocml_*`) stay
///     calls, so no target instruction they are written in reaches the
///     host; the emulator runtime supplies them;
///   - RetargetToHostPass (`opt -passes=gpuad-emulate`), after the device
///     pipeline: the module becomes a host module.  Kernels get launchers
///     the runtime calls with the launch's argument array; the target's
///     thread-id, barrier, warp and fence intrinsics become reads of the
///     emulator's per-thread state or calls into it (EmuAbi.h); `__shared__`
///     memory becomes the running block's buffer; device variables and
///     functions become internal, and the module registers its kernels and
///     variables by name from a constructor; every memory access of device
///     code is checked (emitted as a call before it).
/// A target intrinsic the emulator does not know is an error naming it.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMULATE_EMULATE_H
#define GPUAD_EMULATE_EMULATE_H

#include "llvm/IR/PassManager.h"

namespace gpuad::emu {

class KeepLibraryCallsPass : public llvm::PassInfoMixin<KeepLibraryCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

class RetargetToHostPass : public llvm::PassInfoMixin<RetargetToHostPass> {
public:
  /// Sanitizers the host build will run (`gpuad-emulate<thread>`,
  /// `<address>`): device functions get the attribute the front end gives
  /// host functions under -fsanitize, or the sanitizer would skip them.
  struct Sanitizers {
    bool Thread = false, Address = false;
  };
  RetargetToHostPass() = default;
  explicit RetargetToHostPass(Sanitizers S) : Sanitize(S) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Sanitizers Sanitize;
};

/// Whether \p Name is a device library function the emulator supplies
/// (libdevice, ocml, ockl, and the assert handlers).
bool isDeviceLibraryFunction(llvm::StringRef Name);

} // namespace gpuad::emu

#endif // GPUAD_EMULATE_EMULATE_H
