//===- GpuadPass.h - The gpuad module pass ----------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The pass behind `-passes=gpuad` and the clang extension point: finds the
/// `__enzyme_*` requests of a module, generates the derivatives they ask for,
/// replaces each request by a call, and removes the ABI's marker globals.
/// A module without requests is left untouched.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PASS_GPUADPASS_H
#define GPUAD_PASS_GPUADPASS_H

#include "Support/Options.h"

#include "llvm/IR/PassManager.h"

namespace gpuad {

class GpuadPass : public llvm::PassInfoMixin<GpuadPass> {
public:
  explicit GpuadPass(GpuadOptions Options = GpuadOptions::fromCommandLine())
      : Options(std::move(Options)) {}

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  GpuadOptions Options;
};

} // namespace gpuad

#endif // GPUAD_PASS_GPUADPASS_H
