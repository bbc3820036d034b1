//===- DerivativeContext.cpp - Module-wide state of one gpuad run ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Core/DerivativeContext.h"

#include "Forward/ForwardEmitter.h"
#include "Reverse/ReverseEmitter.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumDerivatives, "Number of derivative functions generated");

namespace gpuad {

DerivativeContext::DerivativeContext(Module &M, GpuadOptions Opts)
    : M(M), Options(std::move(Opts)),
      Target(makeTargetHooks(M, Options, Diags)) {}

DerivativeContext::~DerivativeContext() = default;

/// Replaces the body of a derivative whose emission failed by `ret poison`,
/// so the module stays valid while the reported errors stop the build.
static void stubOut(Function &D) {
  D.deleteBody();
  BasicBlock *Entry = BasicBlock::Create(D.getContext(), "entry", &D);
  IRBuilder<> B(Entry);
  if (D.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(PoisonValue::get(D.getReturnType()));
}

Function *DerivativeContext::getOrCreate(const DerivativeKey &Key) {
  auto It = Generated.find(Key);
  if (It != Generated.end())
    return It->second;
  if (Key.Mode != DiffMode::Forward && Key.Mode != DiffMode::ReverseCombined)
    return nullptr;

  DerivativeSignature Sig = Key.Mode == DiffMode::Forward
                                ? DerivativeSignature::forward(Key)
                                : DerivativeSignature::reverse(Key);
  Function *D = Function::Create(Sig.Type, GlobalValue::InternalLinkage,
                                 Key.Fn->getAddressSpace(),
                                 Key.Fn->getName() + "." + Key.suffix(), &M);
  Generated[Key] = D;
  Signatures[D] = Sig;
  ++NumDerivatives;
  bool Ok = Key.Mode == DiffMode::Forward
                ? ForwardEmitter(*this, Key, *D, Signatures[D]).run()
                : ReverseEmitter(*this, Key, *D, Signatures[D], /*Split=*/false)
                      .run();
  if (!Ok)
    stubOut(*D);
  return D;
}

const DerivativeSignature &
DerivativeContext::signatureOf(const Function &Derivative) const {
  auto It = Signatures.find(&Derivative);
  assert(It != Signatures.end() && "not a generated derivative");
  return It->second;
}

GlobalVariable *DerivativeContext::zeroShadowOf(GlobalVariable &GV) {
  GlobalVariable *&Shadow = ZeroShadows[&GV];
  if (!Shadow)
    Shadow = new GlobalVariable(
        M, GV.getValueType(), /*isConstant=*/true,
        GlobalValue::InternalLinkage,
        Constant::getNullValue(GV.getValueType()),
        GV.getName() + ".gpuad.zero", nullptr, GV.getThreadLocalMode(),
        GV.getAddressSpace());
  return Shadow;
}

/// Whether \p F calls itself directly (the always-inliner cannot inline it).
static bool isDirectlyRecursive(const Function &F) {
  for (const User *U : F.users())
    if (const auto *I = dyn_cast<Instruction>(U); I && I->getFunction() == &F)
      return true;
  return false;
}

bool DerivativeContext::finish() {
  if (Options.Cleanup)
    for (auto &[Key, D] : Generated)
      if (!D->isDeclaration())
        Pre.cleanup(*D);
  Target->finalize();
  Pre.eraseClones();
  bool Inline = false;
  if (Target->isGPU())
    for (auto &[Key, D] : Generated)
      if (!D->isDeclaration() && !isDirectlyRecursive(*D) &&
          !D->hasFnAttribute(Attribute::NoInline)) {
        D->addFnAttr(Attribute::AlwaysInline);
        Inline = true;
      }
  return Inline;
}

} // namespace gpuad
