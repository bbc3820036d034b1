//===- Options.cpp - gpuad pass parameters --------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace gpuad {

// Aliases for clang users (`-mllvm -gpuad-...`); the pass parameters are the
// primary spelling.
static cl::opt<bool> CleanupOpt("gpuad-cleanup", cl::init(true),
                                cl::desc("Simplify functions gpuad generates"));
static cl::opt<std::string>
    LibDeviceOpt("gpuad-libdevice", cl::init(""),
                 cl::desc("Path of CUDA's libdevice.10.bc"));
static cl::opt<std::string>
    RocmLibsOpt("gpuad-rocm-device-libs", cl::init(""),
                cl::desc("Directory holding ROCm's ocml.bc"));

static cl::opt<bool> AssumeNoAliasOpt(
    "gpuad-assume-noalias-args", cl::init(false),
    cl::desc("Treat pointer parameters of differentiated functions as "
             "restrict (reverse mode)"));
static cl::opt<bool> LastIterationOpt(
    "gpuad-last-iteration-cache", cl::init(true),
    cl::desc("Keep values loops leave behind once, not per iteration"));

static cl::opt<bool> EmulationOpt(
    "gpuad-emulation", cl::init(false),
    cl::desc("Compile device code for gpuad's CPU emulator"));

GpuadOptions GpuadOptions::fromCommandLine() {
  GpuadOptions O;
  O.Emulation = EmulationOpt;
  O.Cleanup = CleanupOpt;
  O.AssumeNoAliasArgs = AssumeNoAliasOpt;
  O.LastIterationCache = LastIterationOpt;
  O.LibDevice = LibDeviceOpt;
  O.RocmDeviceLibs = RocmLibsOpt;
  return O;
}

Expected<GpuadOptions> GpuadOptions::parse(StringRef Params) {
  GpuadOptions O = fromCommandLine();
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    auto [Key, Value] = Param.split('=');
    if (Key == "cleanup" || Key == "no-cleanup") {
      O.Cleanup = Key == "cleanup";
    } else if (Key == "assume-noalias-args") {
      O.AssumeNoAliasArgs = true;
    } else if (Key == "last-iteration-cache" ||
               Key == "no-last-iteration-cache") {
      O.LastIterationCache = Key == "last-iteration-cache";
    } else if (Key == "libdevice") {
      O.LibDevice = Value.str();
    } else if (Key == "rocm-device-libs") {
      O.RocmDeviceLibs = Value.str();
    } else {
      return make_error<StringError>("invalid gpuad pass parameter '" + Param +
                                         "'",
                                     inconvertibleErrorCode());
    }
  }
  return O;
}

} // namespace gpuad
