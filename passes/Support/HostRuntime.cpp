//===- HostRuntime.cpp - gpuad's C runtime, linked into host modules ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/HostRuntime.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace gpuad {

static const unsigned char RuntimeBitcode[] = {
#include "HostRuntime.inc"
};

bool linkHostRuntime(Module &M) {
  bool Needed = false;
  for (const Function &F : M)
    Needed |= F.isDeclaration() && F.getName().starts_with("gpuad_");
  if (!Needed)
    return true;
  StringRef Bytes(reinterpret_cast<const char *>(RuntimeBitcode),
                  sizeof(RuntimeBitcode));
  Expected<std::unique_ptr<Module>> Runtime = parseBitcodeFile(
      MemoryBufferRef(Bytes, "gpuad host runtime"), M.getContext());
  if (!Runtime) {
    consumeError(Runtime.takeError());
    return false;
  }
  // The runtime is plain C: it fits any host module's target.
  (*Runtime)->setTargetTriple(M.getTargetTriple());
  (*Runtime)->setDataLayout(M.getDataLayout());
  return !Linker::linkModules(
      M, std::move(*Runtime), Linker::LinkOnlyNeeded,
      [](Module &Into, const StringSet<> &Names) {
        for (const auto &Name : Names)
          if (GlobalValue *GV = Into.getNamedValue(Name.getKey()))
            GV->setLinkage(GlobalValue::InternalLinkage);
      });
}

} // namespace gpuad
