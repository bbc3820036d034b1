//===- Printers.h - print<gpuad-types>, print<gpuad-activity> ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Printer passes that run an analysis on every function a module's requests
/// name, with the requests' activities, and print the result -- so lit tests
/// check the analysis itself rather than guess at it through generated code.
/// The function is analysed as it stands (no preprocessing).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PASS_PRINTERS_H
#define GPUAD_PASS_PRINTERS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace gpuad {

class TypeInfoPrinterPass : public llvm::PassInfoMixin<TypeInfoPrinterPass> {
public:
  explicit TypeInfoPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

class ActivityPrinterPass : public llvm::PassInfoMixin<ActivityPrinterPass> {
public:
  explicit ActivityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace gpuad

#endif // GPUAD_PASS_PRINTERS_H
