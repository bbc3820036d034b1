//===- KernelLaunch.cpp - A kernel launch from host code, as data ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/KernelLaunch.h"

#include "Rules/CallTable.h"
#include "Support/DemangledTypes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ModRef.h"

#define DEBUG_TYPE "gpuad-launch"

using namespace llvm;

STATISTIC(NumDerivativeHandles, "Derivative kernels registered by the host");

namespace gpuad {

LaunchParam launchParamKind(Type *Ty, bool ByValue) {
  if (ByValue)
    return LaunchParam::Unsupported;
  if (Ty->isPointerTy())
    return LaunchParam::Pointer;
  if (Ty->isFloatTy() || Ty->isDoubleTy())
    return LaunchParam::Float;
  if (Ty->isIntegerTy())
    return LaunchParam::Const;
  return LaunchParam::Unsupported;
}

std::string launchDerivativeName(StringRef Kernel, LaunchDerivative D) {
  return ((D == LaunchDerivative::Tangent ? "__gpuad_fwd_" : "__gpuad_rev_") +
          Kernel)
      .str();
}

SmallVector<Type *, 8> launchDerivativeParams(ArrayRef<Type *> Params,
                                              LaunchDerivative D,
                                              Type *CellTy) {
  SmallVector<Type *, 8> Types(Params);
  for (Type *T : Params)
    switch (launchParamKind(T, false)) {
    case LaunchParam::Pointer:
      Types.push_back(T);
      break;
    case LaunchParam::Float:
      Types.push_back(D == LaunchDerivative::Tangent ? T : CellTy);
      break;
    case LaunchParam::Const:
      break;
    case LaunchParam::Unsupported:
      return {};
    }
  return Types;
}

// ---- The form --------------------------------------------------------------

/// The stub \p Handle stands for: CUDA's handle is the stub, HIP's a
/// constant holding it.
Function *launchedStub(const Value *Handle) {
  Handle = Handle->stripPointerCasts();
  if (auto *F = dyn_cast<Function>(Handle))
    return const_cast<Function *>(F);
  if (auto *GV = dyn_cast<GlobalVariable>(Handle);
      GV && GV->isConstant() && GV->hasInitializer())
    return const_cast<Function *>(
        dyn_cast<Function>(GV->getInitializer()->stripPointerCasts()));
  return nullptr;
}

std::optional<KernelLaunch> KernelLaunch::match(CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || F->getName() != FormName)
    return std::nullopt;
  return KernelLaunch(Call);
}

Function &KernelLaunch::runtime() const {
  return *cast<Function>(Call->getArgOperand(0));
}

StringRef KernelLaunch::api() const {
  return runtime().getName().starts_with("hip") ? "hip" : "cuda";
}

unsigned KernelLaunch::firstArg() const { return runtime().arg_size(); }

Value *KernelLaunch::handle() const { return Call->getArgOperand(1); }
Function &KernelLaunch::stub() const { return *launchedStub(handle()); }
Value *KernelLaunch::sharedBytes() const {
  return Call->getArgOperand(firstArg() - 2);
}
Value *KernelLaunch::stream() const {
  return Call->getArgOperand(firstArg() - 1);
}
unsigned KernelLaunch::numArgs() const { return Call->arg_size() - firstArg(); }
Value *KernelLaunch::arg(unsigned I) const {
  return Call->getArgOperand(firstArg() + I);
}
LaunchParam KernelLaunch::paramKind(unsigned I) const {
  return launchParamKind(arg(I)->getType(), false);
}

bool KernelLaunch::readsOnly(unsigned I) const {
  std::optional<SmallVector<std::string, 8>> Declared =
      declaredArgumentTypes(stub());
  if (!Declared || I >= Declared->size())
    return false;
  StringRef T = StringRef((*Declared)[I]).trim();
  return T.consume_back("*") && T.trim().ends_with("const");
}

/// The runtime's registration of \p Handle (`__cudaRegisterFunction`,
/// `__hipRegisterFunction`), or null.
static CallBase *registrationOf(Value *Handle) {
  for (User *U : Handle->stripPointerCasts()->users())
    if (auto *Call = dyn_cast<CallBase>(U))
      if (const Function *F = Call->getCalledFunction();
          F && F->getName().ends_with("RegisterFunction") &&
          Call->arg_size() > 3 &&
          Call->getArgOperand(1)->stripPointerCasts() ==
              Handle->stripPointerCasts())
        return Call;
  return nullptr;
}

std::string KernelLaunch::deviceName() const {
  StringRef Name;
  if (CallBase *R = registrationOf(handle()))
    getConstantStringInfo(R->getArgOperand(2), Name);
  return Name.str();
}

std::string KernelLaunch::kernelName() const {
  std::string Device = deviceName();
  if (!Device.empty())
    return demangle(Device);
  return launchedKernelName(stub());
}

std::string launchedKernelName(const Function &Stub) {
  // The stub's name without clang's prefix: the kernel's, demangled.
  std::string Name = demangle(Stub.getName());
  StringRef Prefix = "__device_stub__";
  if (size_t At = Name.find(Prefix); At != std::string::npos)
    Name.erase(At, Prefix.size());
  return Name;
}

CallInst *KernelLaunch::relaunch(IRBuilderBase &B, Value *Handle,
                                 ArrayRef<Value *> Args, Value *SharedBytes,
                                 function_ref<Value *(Value *)> Map) const {
  SmallVector<Value *, 16> Ops = {&runtime(), Handle};
  for (unsigned K = 2; K < firstArg(); ++K)
    Ops.push_back(Map(Call->getArgOperand(K)));
  Ops[firstArg() - 2] = SharedBytes;
  Ops.append(Args.begin(), Args.end());
  CallInst *New =
      B.CreateCall(Call->getFunctionType(), Call->getCalledOperand(), Ops);
  New->setAttributes(Call->getAttributes());
  New->setDebugLoc(Call->getDebugLoc());
  return New;
}

Constant *launchDerivativeHandle(const KernelLaunch &L, LaunchDerivative D) {
  CallBase *Registration = registrationOf(L.handle());
  std::string Device = L.deviceName();
  Module &M = *L.call().getModule();
  std::string Name =
      launchDerivativeName(Device.empty() ? L.stub().getName() : Device, D);
  std::string HandleName = Name + ".gpuad.handle";
  if (GlobalVariable *GV = M.getNamedGlobal(HandleName))
    return GV;
  // A byte of its own: the runtime knows kernels by host address.
  auto *Handle = new GlobalVariable(
      M, Type::getInt8Ty(M.getContext()), /*isConstant=*/true,
      GlobalValue::InternalLinkage,
      ConstantInt::get(Type::getInt8Ty(M.getContext()), 0), HandleName);
  if (!Registration || Device.empty())
    return Handle;
  IRBuilder<> B(Registration->getNextNode());
  Value *Text = B.CreateGlobalString(Name, Name + ".gpuad.name");
  SmallVector<Value *, 10> Ops(Registration->args());
  Ops[1] = Handle;
  Ops[2] = Ops[3] = Text;
  B.CreateCall(Registration->getFunctionType(),
               Registration->getCalledOperand(), Ops);
  ++NumDerivativeHandles;
  return Handle;
}

bool mayLaunchKernels(const Function &F, const CallTable &Calls) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&F};
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    if (std::optional<RuntimeCall> R = Calls.runtimeCall(*G);
        (R && R->K == RuntimeCall::Launch) ||
        G->getName() == NormalizedLaunchName)
      return true;
    if (!Seen.insert(G).second || G->isDeclaration())
      continue;
    for (const BasicBlock &BB : *G)
      for (const Instruction &I : BB) {
        const auto *Call = dyn_cast<CallBase>(&I);
        const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (Callee)
          Work.push_back(Callee);
      }
  }
  return false;
}

} // namespace gpuad
