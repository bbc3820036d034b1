//===- KernelLaunches.cpp - Kernel launches as calls with values ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/KernelLaunches.h"

#include "Normalize/RuntimeMemory.h"
#include "Rules/CallTable.h"
#include "Support/DemangledTypes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ModRef.h"

#define DEBUG_TYPE "gpuad-calls"

using namespace llvm;

STATISTIC(NumLaunches, "Kernel launches normalised");

namespace gpuad {

// ---- Normalising and lowering ----------------------------------------------

/// Why gpuad cannot follow runtime launch \p Call's kernel and arguments,
/// or "" when it can: the kernel is known, each parameter is a pointer, a
/// float or an integer, and the stub takes the kernel's parameters one for
/// one (the host ABI splits some structs passed by value into several).
static std::string unfollowable(const CallBase &Call) {
  Function *Stub = launchedStub(Call.getArgOperand(0));
  if (!Stub)
    return "the kernel is a pointer gpuad cannot resolve to a kernel";
  auto Aggregate = [](unsigned No) {
    return ("its argument " + Twine(No + 1) +
            " is passed by value as an aggregate or vector, which "
            "differentiated launches do not take yet")
        .str();
  };
  for (Argument &A : Stub->args())
    if (launchParamKind(A.getType(), A.hasByValAttr()) ==
        LaunchParam::Unsupported)
      return Aggregate(A.getArgNo());
  unsigned Params = Stub->arg_size();
  if (std::optional<SmallVector<std::string, 8>> Declared =
          demangledParameterTypes(Stub->getName());
      Declared && Declared->size() != Params) {
    // The first declared parameter the host ABI passes in pieces.
    for (auto [No, T] : enumerate(*Declared))
      if (!isPassedWhole(T))
        return Aggregate(No);
    return Aggregate(0);
  }
  const auto *Array = dyn_cast<AllocaInst>(
      Call.getArgOperand(Call.arg_size() - 3)->stripPointerCasts());
  if (const auto *Ty =
          Array ? dyn_cast<ArrayType>(Array->getAllocatedType()) : nullptr;
      Ty && Ty->getNumElements() != Params)
    return ("its argument array has " + Twine(Ty->getNumElements()) +
            " entries for a kernel of " + Twine(Params) + " parameters")
        .str();
  return "";
}

std::string whyLaunchNotNormalized(const CallBase &Call) {
  std::string Why = unfollowable(Call);
  return Why.empty() ? "internal error: the launch was not normalised" : Why;
}

bool normalizeKernelLaunches(Function &F, const CallTable &Calls) {
  bool Changed = false;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Form = M.getOrInsertFunction(
      KernelLaunch::FormName,
      FunctionType::get(Type::getInt32Ty(C), {Ptr, Ptr}, /*isVarArg=*/true));
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Runtime = Call ? Call->getCalledFunction() : nullptr;
      std::optional<RuntimeCall> R =
          Runtime ? Calls.runtimeCall(*Runtime) : std::nullopt;
      if (!R || R->K != RuntimeCall::Launch || !unfollowable(*Call).empty())
        continue;
      Function *Stub = launchedStub(Call->getArgOperand(0));
      unsigned N = Call->arg_size();
      IRBuilder<> B(Call);
      SmallVector<Value *, 16> Ops = {Runtime};
      for (unsigned K = 0; K < N; ++K)
        if (K != N - 3)
          Ops.push_back(Call->getArgOperand(K));
      Value *Array = Call->getArgOperand(N - 3);
      for (Argument &A : Stub->args()) {
        Value *Slot = B.CreateLoad(
            Ptr, B.CreateConstInBoundsGEP1_64(Ptr, Array, A.getArgNo()));
        Ops.push_back(B.CreateLoad(A.getType(), Slot));
      }
      CallInst *New = B.CreateCall(Form, Ops);
      New->setDebugLoc(Call->getDebugLoc());
      // The runtime function, the handle and the stream are no memory the
      // launch touches.
      for (unsigned K : {0u, 1u, N - 1}) {
        New->addParamAttr(K, Attribute::ReadNone);
        New->addParamAttr(
            K, Attribute::getWithCaptureInfo(C, CaptureInfo::none()));
      }
      LLVM_DEBUG(dbgs() << "gpuad-calls: " << *Call << " -> " << *New << "\n");
      replaceRuntimeCall(*Call, New);
      ++NumLaunches;
      Changed = true;
    }
  return Changed;
}

bool lowerKernelLaunches(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallBase>(&I);
      std::optional<KernelLaunch> L =
          Call ? KernelLaunch::match(*Call) : std::nullopt;
      if (!L)
        continue;
      Function &Runtime = *cast<Function>(Call->getArgOperand(0));
      unsigned N = Runtime.arg_size();
      IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
      IRBuilder<> B(Call);
      Type *Ptr = B.getPtrTy();
      Value *Array =
          Entry.CreateAlloca(ArrayType::get(Ptr, std::max(1u, L->numArgs())),
                             nullptr, "gpuad.launch.args");
      for (unsigned K = 0; K < L->numArgs(); ++K) {
        Value *V = L->arg(K);
        Value *Slot =
            Entry.CreateAlloca(V->getType(), nullptr, "gpuad.launch.arg");
        B.CreateStore(V, Slot);
        B.CreateStore(Slot, B.CreateConstInBoundsGEP1_64(Ptr, Array, K));
      }
      // Back to (handle, grid and block, args, shared bytes, stream).
      SmallVector<Value *, 8> Ops;
      for (unsigned K = 1; K < N; ++K)
        Ops.push_back(Call->getArgOperand(K));
      Ops.insert(Ops.end() - 2, Array);
      CallInst *New = B.CreateCall(&Runtime, Ops);
      New->setDebugLoc(Call->getDebugLoc());
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

} // namespace gpuad
