//===- Options.cpp - gpuad pass parameters --------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/Options.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

#include <optional>
#include <vector>

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
static cl::opt<bool> CallSiteAliasingOpt(
    "gpuad-call-site-aliasing", cl::init(true),
    cl::desc("Specialise reverse derivatives on pointer arguments their call "
             "site proves disjoint"));
static cl::opt<bool> RuntimeAliasCheckOpt(
    "gpuad-runtime-alias-check", cl::init(true),
    cl::desc("Check at run time whether a host reverse derivative's pointer "
             "arguments overlap, and run a restrict version if not"));
static cl::opt<bool> InvariantCallsOpt(
    "gpuad-hoist-invariant-calls", cl::init(true),
    cl::desc("Reverse mode: move pure calls with loop-invariant arguments out "
             "of their loops before differentiating"));
static cl::opt<bool> LastIterationOpt(
    "gpuad-last-iteration-cache", cl::init(true),
    cl::desc("Keep values loops leave behind once, not per iteration (and "
             "of a running maximum only its last pick)"));

// LLVM registers -debug-only in builds with assertions only; a gpuad built
// with GPUAD_ENABLE_ASSERTIONS prints the traces of the debug types named
// here (gpuad, gpuad-types, gpuad-activity, gpuad-tape, gpuad-lanes, ...).
static cl::opt<std::string> DebugOnlyOpt(
    "gpuad-debug-only", cl::init(""),
    cl::desc("Comma-separated debug types whose LLVM_DEBUG traces to print "
             "(gpuad built with GPUAD_ENABLE_ASSERTIONS)"),
    cl::callback([](const std::string &Types) {
      static std::vector<std::string> Names;
      static std::vector<const char *> Pointers;
      Names.clear();
      Pointers.clear();
      for (StringRef Rest = Types; !Rest.empty();) {
        auto [Name, Tail] = Rest.split(',');
        if (!Name.empty())
          Names.push_back(Name.str());
        Rest = Tail;
      }
      for (const std::string &N : Names)
        Pointers.push_back(N.c_str());
      DebugFlag = !Pointers.empty();
      setCurrentDebugTypes(Pointers.data(), Pointers.size());
    }));

static cl::opt<std::string> LaunchDerivativesOpt(
    "gpuad-launch-derivatives", cl::init("auto"),
    cl::desc("Device code: the kernels that get derivative kernels for "
             "launches from differentiated host code (auto, all, none, or "
             "kernel names separated by commas)"));

static cl::opt<bool>
    EmulationOpt("gpuad-emulation", cl::init(false),
                 cl::desc("Compile device code for gpuad's CPU emulator"));

static cl::opt<TapePlacementChoice> TapePlacementOpt(
    "gpuad-tape-placement", cl::init(TapePlacementChoice::Auto),
    cl::desc("Where reverse-mode tapes of compile-time size live"),
    cl::values(clEnumValN(TapePlacementChoice::Auto, "auto",
                          "shared slots, else local, else the tape pool"),
               clEnumValN(TapePlacementChoice::Local, "local",
                          "thread-local memory"),
               clEnumValN(TapePlacementChoice::Shared, "shared",
                          "shared-memory slots where the block size is known"),
               clEnumValN(TapePlacementChoice::Pool, "pool",
                          "the global tape pool the host provides"),
               clEnumValN(TapePlacementChoice::Heap, "heap",
                          "heap arrays (device malloc) for every loop")));

static cl::opt<BatchMappingChoice> BatchMappingOpt(
    "gpuad-batch-mapping", cl::init(BatchMappingChoice::Auto),
    cl::desc("How a width-N derivative in device code carries its N "
             "directions"),
    cl::values(clEnumValN(BatchMappingChoice::Auto, "auto",
                          "lanes where vectors would exceed the register "
                          "budget, else vectors"),
               clEnumValN(BatchMappingChoice::Lanes, "lanes",
                          "the N lanes of a lane group, wherever they can"),
               clEnumValN(BatchMappingChoice::Vector, "vector",
                          "N shadows per thread")));

static std::optional<BatchMappingChoice> parseMapping(StringRef Name) {
  return StringSwitch<std::optional<BatchMappingChoice>>(Name)
      .Case("auto", BatchMappingChoice::Auto)
      .Case("lanes", BatchMappingChoice::Lanes)
      .Case("vector", BatchMappingChoice::Vector)
      .Default(std::nullopt);
}

/// The value of `tape-placement=`, if it names one.
static std::optional<TapePlacementChoice> parsePlacement(StringRef Name) {
  return StringSwitch<std::optional<TapePlacementChoice>>(Name)
      .Case("auto", TapePlacementChoice::Auto)
      .Case("local", TapePlacementChoice::Local)
      .Case("shared", TapePlacementChoice::Shared)
      .Case("pool", TapePlacementChoice::Pool)
      .Case("heap", TapePlacementChoice::Heap)
      .Default(std::nullopt);
}

static cl::opt<unsigned> TapeBudgetOpt(
    "gpuad-tape-budget", cl::init(0),
    cl::desc("MiB the reverse sweep may keep of each time loop's states: "
             "loops beyond it are checkpointed (0: keep everything)"));

GpuadOptions GpuadOptions::fromCommandLine() {
  GpuadOptions O;
  O.Emulation = EmulationOpt;
  O.Cleanup = CleanupOpt;
  O.AssumeNoAliasArgs = AssumeNoAliasOpt;
  O.LastIterationCache = LastIterationOpt;
  O.CallSiteAliasing = CallSiteAliasingOpt;
  O.RuntimeAliasCheck = RuntimeAliasCheckOpt;
  O.HoistInvariantCalls = InvariantCallsOpt;
  O.LibDevice = LibDeviceOpt;
  O.RocmDeviceLibs = RocmLibsOpt;
  O.TapePlacement = TapePlacementOpt;
  O.BatchMapping = BatchMappingOpt;
  O.LaunchDerivatives = LaunchDerivativesOpt;
  O.TapeBudgetMiB = TapeBudgetOpt;
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
    } else if (Key == "hoist-invariant-calls" ||
               Key == "no-hoist-invariant-calls") {
      O.HoistInvariantCalls = Key == "hoist-invariant-calls";
    } else if (Key == "call-site-aliasing" || Key == "no-call-site-aliasing") {
      O.CallSiteAliasing = Key == "call-site-aliasing";
    } else if (Key == "runtime-alias-check" ||
               Key == "no-runtime-alias-check") {
      O.RuntimeAliasCheck = Key == "runtime-alias-check";
    } else if (Key == "tape-placement" && parsePlacement(Value)) {
      O.TapePlacement = *parsePlacement(Value);
    } else if (Key == "batch-mapping" && parseMapping(Value)) {
      O.BatchMapping = *parseMapping(Value);
    } else if (Key == "tape-budget" &&
               !Value.getAsInteger(10, O.TapeBudgetMiB)) {
      // O.TapeBudgetMiB is set.
    } else if (Key == "launch-derivatives") {
      O.LaunchDerivatives = Value.str();
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
