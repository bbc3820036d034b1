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

LaunchParam launchParamKind(Type *Ty) {
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

// ---- Aggregates -------------------------------------------------------------

bool AggregateShape::hasFloats() const {
  return any_of(Leaves, [](auto &L) {
    return launchParamKind(L.second) == LaunchParam::Float;
  });
}

/// Aggregates wider than this many leaves (a char buffer) are refused: each
/// leaf is an operand of the launch.
static constexpr unsigned MaxLeaves = 64;

static bool addLeaves(Type *Ty, uint64_t At, const DataLayout &DL,
                      AggregateShape &S, std::string &Why) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    // A union's IR type is one of its members: the bytes may hold another.
    if (ST->hasName() && ST->getName().starts_with("union.")) {
      Why = "it holds a union, whose bytes may be of any member";
      return false;
    }
    const StructLayout *SL = DL.getStructLayout(ST);
    for (auto [I, E] : enumerate(ST->elements()))
      if (!addLeaves(E, At + SL->getElementOffset(I), DL, S, Why))
        return false;
    return true;
  }
  // An array or a vector: its elements, each at its stride.
  Type *Element = nullptr;
  uint64_t Count = 0;
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    Element = AT->getElementType(), Count = AT->getNumElements();
  else if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    Element = VT->getElementType(), Count = VT->getNumElements();
  if (Element) {
    uint64_t Stride = DL.getTypeAllocSize(Element);
    for (uint64_t I = 0; I < Count; ++I)
      if (!addLeaves(Element, At + I * Stride, DL, S, Why))
        return false;
    return true;
  }
  if (launchParamKind(Ty) == LaunchParam::Unsupported) {
    std::string Name;
    raw_string_ostream(Name) << *Ty;
    Why = "it holds a value of type '" + Name + "'";
    return false;
  }
  if (S.Leaves.size() == MaxLeaves) {
    Why = "it has more than " + std::to_string(MaxLeaves) + " scalar fields";
    return false;
  }
  S.Leaves.push_back({At, Ty});
  return true;
}

std::optional<AggregateShape> aggregateShape(Type *Ty, const DataLayout &DL,
                                             std::string &Why) {
  AggregateShape S;
  S.Size = DL.getTypeAllocSize(Ty);
  S.Align = DL.getABITypeAlign(Ty).value();
  if (!addLeaves(Ty, 0, DL, S, Why))
    return std::nullopt;
  return S;
}

void LaunchOperands::scalar(Value *V) {
  LaunchArgument A;
  A.First = Values.size();
  Args.push_back(A);
  Values.push_back(V);
}

void LaunchOperands::aggregate(const LaunchArgument &Like,
                               ArrayRef<Value *> Leaves) {
  assert(Like.Offsets.size() == Leaves.size() && "one value per leaf");
  LaunchArgument A = Like;
  A.First = Values.size();
  A.Count = Leaves.size();
  Args.push_back(A);
  Values.append(Leaves.begin(), Leaves.end());
}

void LaunchOperands::add(const LaunchArgument &Like,
                         function_ref<Value *(unsigned)> Operand) {
  if (!Like.Aggregate)
    return scalar(Operand(Like.First));
  SmallVector<Value *, 8> Leaves;
  for (unsigned I = 0; I < Like.Count; ++I)
    Leaves.push_back(Operand(Like.First + I));
  aggregate(Like, Leaves);
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
void KernelLaunch::setArg(unsigned I, Value *V) {
  Call->setArgOperand(firstArg() + I, V);
}
LaunchParam KernelLaunch::paramKind(unsigned I) const {
  return launchParamKind(arg(I)->getType());
}

/// The metadata saying how a form's operands make up kernel arguments: per
/// argument, `!{}` (a scalar) or `!{size, align, offset...}` (an aggregate).
static constexpr const char *ArgumentsMD = "gpuad.launch.args";

SmallVector<LaunchArgument, 8> KernelLaunch::arguments() const {
  SmallVector<LaunchArgument, 8> Args;
  const MDNode *MD = Call->getMetadata(ArgumentsMD);
  unsigned Next = 0;
  for (unsigned K = 0; MD && K < MD->getNumOperands(); ++K) {
    LaunchArgument A;
    A.First = Next;
    const auto *Node = cast<MDNode>(MD->getOperand(K));
    auto Int = [&](unsigned I) {
      return mdconst::extract<ConstantInt>(Node->getOperand(I))->getZExtValue();
    };
    if (Node->getNumOperands()) {
      A.Aggregate = true;
      A.Size = Int(0);
      A.Align = Int(1);
      for (unsigned I = 2; I < Node->getNumOperands(); ++I)
        A.Offsets.push_back(Int(I));
      A.Count = A.Offsets.size();
    }
    Next += A.Count;
    Args.push_back(A);
  }
  // (No metadata: every operand is a scalar argument.)
  for (; Next < numArgs(); ++Next) {
    LaunchArgument A;
    A.First = Next;
    Args.push_back(A);
  }
  return Args;
}

void KernelLaunch::setArguments(CallInst &Form, ArrayRef<LaunchArgument> Args) {
  if (none_of(Args, [](const LaunchArgument &A) { return A.Aggregate; }))
    return;
  LLVMContext &C = Form.getContext();
  Type *I64 = Type::getInt64Ty(C);
  SmallVector<Metadata *, 8> Nodes;
  for (const LaunchArgument &A : Args) {
    SmallVector<Metadata *, 8> Fields;
    if (A.Aggregate) {
      Fields.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, A.Size)));
      Fields.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, A.Align)));
      for (uint64_t O : A.Offsets)
        Fields.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, O)));
    }
    Nodes.push_back(MDNode::get(C, Fields));
  }
  Form.setMetadata(ArgumentsMD, MDNode::get(C, Nodes));
}

bool KernelLaunch::readsOnly(unsigned I) const {
  std::optional<SmallVector<std::string, 8>> Declared =
      declaredArgumentTypes(stub());
  SmallVector<LaunchArgument, 8> Args = arguments();
  auto In = find_if(Args, [&](const LaunchArgument &A) {
    return I >= A.First && I < A.First + A.Count;
  });
  if (!Declared || In == Args.end() || In->Aggregate)
    return false;
  unsigned Param = In - Args.begin();
  if (Param >= Declared->size())
    return false;
  StringRef T = StringRef((*Declared)[Param]).trim();
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
                                 const LaunchOperands &Args, Value *SharedBytes,
                                 function_ref<Value *(Value *)> Map) const {
  SmallVector<Value *, 16> Ops = {&runtime(), Handle};
  for (unsigned K = 2; K < firstArg(); ++K)
    Ops.push_back(Map(Call->getArgOperand(K)));
  Ops[firstArg() - 2] = SharedBytes;
  Ops.append(Args.values().begin(), Args.values().end());
  CallInst *New =
      B.CreateCall(Call->getFunctionType(), Call->getCalledOperand(), Ops);
  New->setAttributes(Call->getAttributes());
  New->setDebugLoc(Call->getDebugLoc());
  setArguments(*New, Args.arguments());
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
  registerKernelHandle(*Registration, Handle, Name);
  ++NumDerivativeHandles;
  return Handle;
}

void registerKernelHandle(CallBase &Like, Value *Handle, StringRef Name) {
  IRBuilder<> B(Like.getNextNode());
  Value *Text = B.CreateGlobalString(Name, Name + ".gpuad.name");
  SmallVector<Value *, 10> Ops(Like.args());
  Ops[1] = Handle;
  Ops[2] = Ops[3] = Text;
  B.CreateCall(Like.getFunctionType(), Like.getCalledOperand(), Ops);
}

bool isLaunchStub(const Function &F, const CallTable &Calls) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      std::optional<RuntimeCall> R =
          Callee ? Calls.runtimeCall(*Callee) : std::nullopt;
      if (R && R->K == RuntimeCall::Launch && Call->arg_size() > 0 &&
          launchedStub(Call->getArgOperand(0)) == &F)
        return true;
    }
  return false;
}

bool mayLaunchKernels(const Function &F, const CallTable &Calls) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&F};
  while (!Work.empty()) {
    const Function *G = Work.pop_back_val();
    // (Also the launch functions gpuad has no row for: CUB's
    // cudaLaunchKernelExC.)
    if (std::optional<RuntimeCall> R = Calls.runtimeCall(*G);
        (R && R->K == RuntimeCall::Launch) ||
        G->getName() == NormalizedLaunchName ||
        (G->isDeclaration() && G->getName().contains("LaunchKernel")))
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
