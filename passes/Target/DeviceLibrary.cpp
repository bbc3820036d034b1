//===- DeviceLibrary.cpp - Functions pulled from vendor bitcode -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Target/DeviceLibrary.h"

#include "Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumLinkedLibraries, "Device library files linked after AD");

namespace gpuad {

std::string firstExisting(ArrayRef<std::string> Candidates) {
  for (const std::string &C : Candidates)
    if (!C.empty() && sys::fs::exists(C))
      return C;
  return "";
}

Function *DeviceLibrary::get(StringRef Name, FunctionType *Ty) {
  if (Function *F = M.getFunction(Name))
    return F;
  Function *Decl = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
  Pending.push_back(Name.str());
  return Decl;
}

/// The function attributes a linked body takes from the module: clang gives
/// builtin bitcode the target CPU and features of the compilation.
static void adoptTargetAttributes(Module &M, Function &F) {
  for (Function &Other : M) {
    if (Other.isDeclaration() || &Other == &F)
      continue;
    for (StringRef Kind : {"target-cpu", "target-features"})
      if (Other.hasFnAttribute(Kind))
        F.addFnAttr(Other.getFnAttribute(Kind));
    return;
  }
}

bool DeviceLibrary::linkNeeded(StringRef File, Diagnostics &Diags) {
  SMDiagnostic Err;
  std::unique_ptr<Module> Lib = parseIRFile(File, Err, M.getContext());
  if (!Lib) {
    Diags.error(*M.begin(), DebugLoc(),
                "cannot read device library '" + File +
                    "': " + Err.getMessage());
    return false;
  }
  // The library is target-generic bitcode; adopt the module's target so the
  // linker does not warn about a mismatch.
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  StringSet<> Linked;
  ++NumLinkedLibraries;
  Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded,
                      [&](Module &, const StringSet<> &Names) {
                        for (const auto &N : Names)
                          Linked.insert(N.getKey());
                      });
  for (const auto &N : Linked) {
    GlobalValue *GV = M.getNamedValue(N.getKey());
    if (!GV || GV->isDeclaration())
      continue;
    GV->setLinkage(GlobalValue::InternalLinkage);
    if (auto *F = dyn_cast<Function>(GV))
      adoptTargetAttributes(M, *F);
  }
  return true;
}

bool DeviceLibrary::finalize(Diagnostics &Diags) {
  // Clean-up may have removed the only call to a requested function.
  erase_if(Pending, [&](const std::string &Name) {
    Function *F = M.getFunction(Name);
    if (!F)
      return true;
    if (!F->use_empty())
      return false;
    if (F->isDeclaration())
      F->eraseFromParent();
    return true;
  });
  auto StillMissing = [&] {
    SmallVector<Function *, 8> Missing;
    for (const std::string &Name : Pending)
      if (Function *F = M.getFunction(Name); F && F->isDeclaration())
        Missing.push_back(F);
    return Missing;
  };
  for (const std::string &File : Files) {
    if (StillMissing().empty())
      break;
    if (sys::fs::exists(File) && !linkNeeded(File, Diags))
      return false;
  }
  SmallVector<Function *, 8> Missing = StillMissing();
  for (Function *F : Missing) {
    const Function *UserFn = F;
    for (const User *U : F->users())
      if (const auto *I = dyn_cast<Instruction>(U)) {
        UserFn = I->getFunction();
        break;
      }
    Diags.error(*UserFn, DebugLoc(),
                "derivative code needs '" + F->getName() +
                    "', which is not in the module and was not found in the "
                    "device library (" +
                    HowToSet + ")");
  }
  Pending.clear();
  return Missing.empty();
}

SmallVector<std::string, 4> DeviceLibrary::undefinedGlobals() const {
  SmallVector<std::string, 4> Names;
  for (const GlobalVariable &GV : M.globals())
    if (GV.isDeclaration())
      Names.push_back(GV.getName().str());
  return Names;
}

} // namespace gpuad
