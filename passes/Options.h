//===- Options.h - gpuad pass parameters ------------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one place gpuad's knobs live.  They are pass parameters
/// (`-passes='gpuad<no-cleanup;libdevice=/path/libdevice.10.bc>'`); the
/// `-mllvm -gpuad-*` spellings are thin aliases for clang users, read only
/// when the pass is created by the clang extension point.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_OPTIONS_H
#define GPUAD_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpuad {

struct GpuadOptions {
  /// Run gpuad's own clean-up pipeline (SROA, EarlyCSE, InstCombine,
  /// SimplifyCFG) on every generated function.
  bool Cleanup = true;
  /// CUDA libdevice bitcode, used to supply `__nv_*` functions that
  /// derivative rules need and the module lacks.  Empty: search the usual
  /// install locations.
  std::string LibDevice;
  /// Directory of the ROCm device libraries (ocml.bc, oclc_*.bc).  Empty:
  /// search the usual install locations.
  std::string RocmDeviceLibs;

  /// Options as set by `-mllvm -gpuad-*` (defaults otherwise).
  static GpuadOptions fromCommandLine();
  /// Parses the text between `gpuad<` and `>`, starting from the command-line
  /// values; parameters are separated by ';'.
  static llvm::Expected<GpuadOptions> parse(llvm::StringRef Params);
};

} // namespace gpuad

#endif // GPUAD_OPTIONS_H
