//===- RuntimeBitcode.cpp - gpuad's C runtime, linked into modules --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/RuntimeBitcode.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace gpuad {

static const unsigned char HostBitcode[] = {
#include "HostRuntime.inc"
};
static const unsigned char NVPTXBitcode[] = {
#include "DeviceRuntimeNVPTX.inc"
};
static const unsigned char AMDGPUBitcode[] = {
#include "DeviceRuntimeAMDGPU.inc"
};

static StringRef bitcodeFor(const Triple &T) {
  auto Bytes = [](const auto &Array) {
    return StringRef(reinterpret_cast<const char *>(Array), sizeof(Array));
  };
  if (T.isNVPTX())
    return Bytes(NVPTXBitcode);
  if (T.isAMDGPU())
    return Bytes(AMDGPUBitcode);
  return Bytes(HostBitcode);
}

bool linkRuntime(Module &M) {
  bool Needed = false;
  for (const Function &F : M)
    Needed |= F.isDeclaration() && F.getName().starts_with("gpuad_");
  if (!Needed)
    return true;
  Expected<std::unique_ptr<Module>> Runtime = parseBitcodeFile(
      MemoryBufferRef(bitcodeFor(M.getTargetTriple()), "gpuad runtime"),
      M.getContext());
  if (!Runtime) {
    consumeError(Runtime.takeError());
    return false;
  }
  // The runtime is plain C: it fits any module of its target, whose own
  // processor and features its functions take.
  (*Runtime)->setTargetTriple(M.getTargetTriple());
  (*Runtime)->setDataLayout(M.getDataLayout());
  if (NamedMDNode *Flags = (*Runtime)->getModuleFlagsMetadata())
    (*Runtime)->eraseNamedMetadata(Flags);
  for (Function &F : **Runtime) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
  }
  return !Linker::linkModules(
      M, std::move(*Runtime), Linker::LinkOnlyNeeded,
      [](Module &Into, const StringSet<> &Names) {
        for (const auto &Name : Names)
          if (GlobalValue *GV = Into.getNamedValue(Name.getKey()))
            GV->setLinkage(GlobalValue::InternalLinkage);
      });
}

} // namespace gpuad
