//===- Plugin.cpp - Registration of the gpuad pass plugin -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The only place that knows how gpuad's passes are registered.
///
/// `opt -passes=gpuad` (with parameters, `gpuad<no-cleanup>`) and the
/// printers `print<gpuad-types>`, `print<gpuad-activity>` and
/// `print<gpuad-tape>` are parsed here.
/// With `clang -fpass-plugin=`, gpuad adds itself at the OptimizerEarly
/// extension point, which every optimisation level runs, -O0 included:
///   - before it: the always-inliner (-O0) or the whole simplification
///     pipeline (-O1 and up: inlining, SROA, GVN, loop simplification), so
///     the functions to differentiate are in a clean, small form;
///   - after it: the optimizer pipeline (loop vectorisation, unrolling,
///     instcombine, simplifycfg), which also optimises the derivatives, and
///     code generation.
/// At PipelineStart device code gets the map kernels that Thrust algorithm
/// calls of differentiated host code run as (see MapKernels.h), and a guard
/// keeps functions that have derivative rules
/// (libdevice's `__nv_sin`, ocml) from being inlined before gpuad sees them
/// (see RuleFunctionGuard.h), and AMDGPU modules get a body for HIP's
/// `__atomic_work_item_fence` (see HipWorkItemFence.h).
/// It runs for every module clang compiles -- host, nvptx64 and amdgcn --
/// and leaves modules without requests untouched.
//===----------------------------------------------------------------------===//

#include "Normalize/DeadOnReturnStores.h"
#include "Normalize/RuleFunctionGuard.h"
#include "Pass/GpuadPass.h"
#include "Pass/Printers.h"
#include "Requests/LaunchDerivatives.h"
#include "Requests/MapKernels.h"
#include "Reverse/AccumulationOrder.h"
#include "Support/Options.h"
#include "Target/AMDGPU/HipWorkItemFence.h"

#include "Emulate/Emulate.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

bool parseModulePipeline(StringRef Name, ModulePassManager &MPM,
                         ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "print<gpuad-types>") {
    MPM.addPass(gpuad::TypeInfoPrinterPass(outs()));
    return true;
  }
  if (Name == "print<gpuad-activity>") {
    MPM.addPass(gpuad::ActivityPrinterPass(outs()));
    return true;
  }
  if (Name == "print<gpuad-tape>") {
    // Differentiates the module and prints each reverse-mode tape.
    gpuad::GpuadOptions Options = gpuad::GpuadOptions::fromCommandLine();
    Options.TapeLayout = &outs();
    MPM.addPass(gpuad::GpuadPass(std::move(Options)));
    return true;
  }
  if (Name == "gpuad") {
    MPM.addPass(gpuad::GpuadPass());
    return true;
  }
  if (Name == "gpuad-emulate" || Name.starts_with("gpuad-emulate<")) {
    gpuad::emu::RetargetToHostPass::Sanitizers S;
    StringRef Params = Name.drop_front(strlen("gpuad-emulate"));
    if (Params.consume_front("<") && Params.consume_back(">")) {
      SmallVector<StringRef, 2> Parts;
      Params.split(Parts, ';', -1, /*KeepEmpty=*/false);
      for (StringRef P : Parts) {
        if (P == "thread")
          S.Thread = true;
        else if (P == "address")
          S.Address = true;
        else {
          errs() << "gpuad-emulate: unknown parameter '" << P
                 << "' (expected thread or address)\n";
          return false;
        }
      }
    }
    MPM.addPass(gpuad::emu::RetargetToHostPass(S));
    return true;
  }
  if (Name.consume_front("gpuad<") && Name.consume_back(">")) {
    Expected<gpuad::GpuadOptions> Options = gpuad::GpuadOptions::parse(Name);
    if (!Options) {
      errs() << toString(Options.takeError()) << "\n";
      return false;
    }
    MPM.addPass(gpuad::GpuadPass(std::move(*Options)));
    return true;
  }
  return false;
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parseModulePipeline);
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        // First, so the rule-function guard sees them kept too.
        if (gpuad::GpuadOptions::fromCommandLine().Emulation)
          MPM.addPass(gpuad::emu::KeepLibraryCallsPass());
        // The kernels Thrust calls of differentiated host code run as, before
        // the guard: they get derivative kernels.
        MPM.addPass(gpuad::MapKernelsPass());
        MPM.addPass(gpuad::ProtectRuleFunctionsPass([](Module &M) {
          return gpuad::mayMakeLaunchDerivatives(
              M, gpuad::GpuadOptions::fromCommandLine());
        }));
        MPM.addPass(gpuad::DefineWorkItemFencePass());
      });
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(gpuad::GpuadPass());
      });
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(gpuad::AccumulationOrderPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "gpuad-accumulation-order") {
          FPM.addPass(gpuad::AccumulationOrderPass());
          return true;
        }
        if (Name == "gpuad-dead-on-return-stores") {
          FPM.addPass(gpuad::DeadOnReturnStoresPass());
          return true;
        }
        return false;
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpuad", "0.1", registerCallbacks};
}
