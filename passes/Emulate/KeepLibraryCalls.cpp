//===- KeepLibraryCalls.cpp - Device library functions stay calls ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Emulate/Emulate.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace gpuad::emu {

bool isDeviceLibraryFunction(StringRef Name) {
  // clang's own __nv_cvta_*_impl (address-space casts in its CUDA headers)
  // are plain IR, not libdevice's.
  if (Name.starts_with("__nv_cvta_"))
    return false;
  return Name.starts_with("__nv_") || Name.starts_with("__ocml_") ||
         Name.starts_with("__ockl_") || Name.starts_with("__irif_") ||
         Name == "__assertfail" || Name == "__assert_fail";
}

PreservedAnalyses KeepLibraryCallsPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  // Not inlined, and kept in llvm.compiler.used so interprocedural passes
  // leave their signatures alone: the host supplies the functions by name.
  SmallVector<GlobalValue *, 32> Kept;
  for (Function &F : M) {
    if (F.isDeclaration() || !isDeviceLibraryFunction(F.getName()))
      continue;
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    Kept.push_back(&F);
  }
  if (Kept.empty())
    return PreservedAnalyses::all();
  appendToCompilerUsed(M, Kept);
  return PreservedAnalyses::none();
}

} // namespace gpuad::emu
