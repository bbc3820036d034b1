//===- AlgorithmLaunches.cpp - Thrust calls as launches of map kernels ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/AlgorithmLaunches.h"

#include "Rules/KernelLaunch.h"
#include "Support/GpuRuntimeApi.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumAlgorithmLaunches, "Thrust calls run as map kernels");

namespace gpuad {

namespace {

constexpr unsigned BlockThreads = 256;

/// A call of the module to the runtime's kernel registration, or null (a
/// host-only compile registers none).
CallBase *someRegistration(Module &M) {
  for (Function &F : M)
    if (F.getName().ends_with("RegisterFunction"))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallBase>(U);
            Call && Call->getCalledFunction() == &F && Call->arg_size() > 3)
          return Call;
  return nullptr;
}

/// The host handle of \p R's map kernel: a stub of the kernel's parameters
/// (CUDA) or a variable holding it (HIP), registered under the kernel's
/// name beside the module's other kernels.
Value *mapKernelHandle(Module &M, const AlgorithmCall &R, FunctionType *FT,
                       bool Hip) {
  std::string StubName = "__device_stub__" + R.Kernel;
  if (Function *Stub = M.getFunction(StubName))
    return Hip ? static_cast<Value *>(M.getNamedGlobal(R.Kernel)) : Stub;
  LLVMContext &C = M.getContext();
  Function *Stub =
      Function::Create(FT, GlobalValue::InternalLinkage, StubName, M);
  ReturnInst::Create(C, BasicBlock::Create(C, "entry", Stub));
  Value *Handle = Stub;
  if (Hip)
    Handle = new GlobalVariable(M, Stub->getType(), /*isConstant=*/true,
                                GlobalValue::InternalLinkage, Stub, R.Kernel);
  if (CallBase *Registration = someRegistration(M))
    registerKernelHandle(*Registration, Handle, R.Kernel);
  return Handle;
}

/// The runtime's launch function, as clang's stubs call it on x86-64 (each
/// dim3 as an i64 and an i32).
FunctionCallee launchFunction(Module &M, bool Hip) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C),
       *I32 = Type::getInt32Ty(C);
  return M.getOrInsertFunction(
      Hip ? "hipLaunchKernel" : "cudaLaunchKernel",
      FunctionType::get(I32, {Ptr, I64, I32, I64, I32, Ptr, I64, Ptr}, false));
}

/// The call's operands by role: the iterators' pointers, the functor's
/// leaves, the initial value.
struct Operands {
  SmallVector<Value *, 4> Iterators;
  SmallVector<Value *, 8> Leaves;
  Value *Init = nullptr;
};

/// Whether \p Call's operands are as \p R's parameters say the host ABI
/// passed them.
bool operandsMatch(const CallBase &Call, const AlgorithmCall &R) {
  const Module &M = *Call.getModule();
  unsigned Next = 0;
  auto Take = [&](auto &&Fits) {
    return Next < Call.arg_size() && Fits(Call.getArgOperand(Next++));
  };
  auto IsPointer = [](const Value *V) { return V->getType()->isPointerTy(); };
  for (char P : R.Params) {
    bool Ok = true;
    if (P == 'P' || P == 'I')
      Ok = Take(IsPointer);
    else if (P == 'T')
      Ok = Take([&](const Value *V) {
        return V->getType() == algorithmType(R.Output, M.getContext());
      });
    else if (P == 'F' && R.How == AlgorithmCall::Passing::Memory)
      Ok = Take(IsPointer);
    else if (P == 'F' && R.How == AlgorithmCall::Passing::Registers) {
      // One IR argument per eightbyte (x86-64's classification).
      Ok = Triple(M.getTargetTriple()).isX86();
      for (unsigned K = 0; Ok && K < (R.Size + 7) / 8; ++K)
        Ok = Take([&](const Value *V) {
          return M.getDataLayout().getTypeStoreSize(V->getType()) <= 8;
        });
    }
    if (!Ok)
      return false;
  }
  return Next == Call.arg_size();
}

/// \p Call's operands by role (operandsMatch holds): the iterators'
/// pointers, the functor's leaves, the initial value.
Operands readOperands(CallBase &Call, const AlgorithmCall &R,
                      IRBuilderBase &B) {
  Function &F = *Call.getFunction();
  LLVMContext &C = F.getContext();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Operands Out;
  unsigned Next = 0;
  for (char P : R.Params) {
    if (P == 'P')
      ++Next;
    else if (P == 'I')
      Out.Iterators.push_back(Call.getArgOperand(Next++));
    else if (P == 'T')
      Out.Init = Call.getArgOperand(Next++);
    if (P != 'F' || R.How == AlgorithmCall::Passing::Empty)
      continue; // (B, addition: an empty class, no IR argument)
    Value *Bytes;
    if (R.How == AlgorithmCall::Passing::Memory) {
      Bytes = Call.getArgOperand(Next++);
    } else {
      unsigned Pieces = (R.Size + 7) / 8;
      auto *Buffer = Entry.CreateAlloca(
          ArrayType::get(B.getInt8Ty(), 8 * Pieces), nullptr, "functor");
      Buffer->setAlignment(Align(std::max<uint64_t>(R.Align, 8)));
      for (unsigned K = 0; K < Pieces; ++K)
        B.CreateAlignedStore(
            Call.getArgOperand(Next++),
            B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buffer, 8 * K),
            Align(8));
      Bytes = Buffer;
    }
    for (auto &[Offset, Code] : R.Leaves)
      Out.Leaves.push_back(B.CreateAlignedLoad(
          algorithmType(Code, C),
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Bytes, Offset),
          commonAlignment(Align(R.Align), Offset)));
  }
  return Out;
}

/// `cudaLaunchKernel(handle, grid, block, args, 0, stream 0)` of the map
/// kernel with \p Args, as clang's stubs launch.
void launch(IRBuilderBase &B, Module &M, Value *Handle, bool Hip,
            ArrayRef<Value *> Args, Value *N) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  auto *Array =
      Entry.CreateAlloca(ArrayType::get(Ptr, Args.size()), nullptr, "map.args");
  for (auto [K, A] : enumerate(Args)) {
    Value *Slot = Entry.CreateAlloca(A->getType(), nullptr, "map.arg");
    B.CreateStore(A, Slot);
    B.CreateStore(Slot, B.CreateConstInBoundsGEP2_64(Array->getAllocatedType(),
                                                     Array, 0, K));
  }
  // ceil(n / 256) blocks, at least one (an empty range launches threads
  // that do nothing).
  Value *Blocks = B.CreateUDiv(B.CreateAdd(N, B.getInt64(BlockThreads - 1)),
                               B.getInt64(BlockThreads));
  Blocks = B.CreateSelect(B.CreateICmpSLT(Blocks, B.getInt64(1)), B.getInt64(1),
                          Blocks);
  Value *Y1 = B.getInt64(uint64_t(1) << 32);
  Value *Grid = B.CreateOr(B.CreateAnd(Blocks, B.getInt64(0xffffffff)), Y1);
  Value *Block = B.getInt64((uint64_t(1) << 32) | BlockThreads);
  B.CreateCall(launchFunction(M, Hip),
               {Handle, Grid, B.getInt32(1), Block, B.getInt32(1), Array,
                ConstantInt::get(I64, 0),
                ConstantPointerNull::get(cast<PointerType>(Ptr))});
}

bool rewrite(CallBase &Call, const AlgorithmCall &R) {
  Module &M = *Call.getModule();
  LLVMContext &C = M.getContext();
  Type *OutTy = R.Output.empty() ? nullptr : algorithmType(R.Output, C);
  // A sum's value, or the iterator past the range (a pointer).
  if (!Call.use_empty() &&
      Call.getType() != (R.sums() ? OutTy : PointerType::getUnqual(C)))
    return false;
  if (!operandsMatch(Call, R))
    return false;
  IRBuilder<> B(&Call);
  Operands Ops = readOperands(Call, R, B);
  bool Hip = M.getFunction("__hipRegisterFunction") ||
             M.getFunction("hipLaunchKernel");
  GpuRuntimeApi Runtime(M, Hip ? "hip" : "cuda");
  Type *Ptr = B.getPtrTy();
  Type *Element = algorithmType(R.Inputs[0], C);
  Value *First = Ops.Iterators[0], *Last = Ops.Iterators[1];
  Value *N = B.CreatePtrDiff(Element, Last, First, "n");
  // The kernel's arguments: inputs, output, n, leaves.
  SmallVector<Value *, 16> Args = {First};
  switch (R.Shape) {
  case AlgorithmCall::Form::Transform:
    Args.push_back(Ops.Iterators[2]);
    break;
  case AlgorithmCall::Form::Transform2:
    Args.push_back(Ops.Iterators[2]);
    Args.push_back(Ops.Iterators[3]);
    break;
  default:
    break;
  }
  Value *Cell = nullptr, *CellBytes = nullptr;
  if (R.sums()) {
    CellBytes = B.getInt64(M.getDataLayout().getTypeStoreSize(OutTy));
    Cell = Runtime.allocate(B, CellBytes, "the sum of " + R.Algorithm);
    Runtime.zero(B, Cell, CellBytes,
                 ConstantPointerNull::get(cast<PointerType>(Ptr)));
    Args.push_back(Cell);
  }
  Args.push_back(N);
  Args.append(Ops.Leaves.begin(), Ops.Leaves.end());

  SmallVector<Type *, 16> Params;
  for (Value *A : Args)
    Params.push_back(A->getType());
  Value *Handle = mapKernelHandle(
      M, R, FunctionType::get(B.getVoidTy(), Params, false), Hip);
  launch(B, M, Handle, Hip, Args, N);
  Value *Null = ConstantPointerNull::get(cast<PointerType>(Ptr));
  Value *Result = nullptr;
  if (R.sums()) {
    Function &F = *B.GetInsertBlock()->getParent();
    IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
    Value *Sum = Entry.CreateAlloca(OutTy, nullptr, "map.sum");
    Runtime.copy(B, Sum, Cell, CellBytes, Null);
    Runtime.synchronize(B, Null);
    Runtime.release(B, Cell);
    Result = B.CreateLoad(OutTy, Sum);
    if (Ops.Init)
      Result = OutTy->isFloatingPointTy() ? B.CreateFAdd(Ops.Init, Result)
                                          : B.CreateAdd(Ops.Init, Result);
  } else {
    Runtime.synchronize(B, Null);
    // The end of the range written (transform) or visited (for_each).
    Value *End =
        R.Shape == AlgorithmCall::Form::ForEach ? First : Args[R.Inputs.size()];
    Type *EndTy = R.Shape == AlgorithmCall::Form::ForEach ? Element : OutTy;
    Result = B.CreateInBoundsGEP(EndTy, End, N);
  }
  Call.replaceAllUsesWith(Result);
  // (Thrust may throw; the launch does not.)
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call)) {
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
    B.CreateBr(Invoke->getNormalDest());
  }
  Call.eraseFromParent();
  ++NumAlgorithmLaunches;
  return true;
}

} // namespace

bool launchAlgorithmsAsMapKernels(Function &F,
                                  const StringMap<AlgorithmCall> &Calls) {
  // (Host code only: device code's Thrust calls run sequentially in the
  // thread, and are differentiated as code.)
  Triple T(F.getParent()->getTargetTriple());
  if (T.isNVPTX() || T.isAMDGPU())
    return false;
  SmallVector<std::pair<CallBase *, const AlgorithmCall *>, 4> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (auto It = Calls.find(Callee->getName());
              It != Calls.end() && It->second.ok())
            Work.push_back({Call, &It->second});
  bool Changed = false;
  for (auto [Call, R] : Work)
    Changed |= rewrite(*Call, *R);
  return Changed;
}

} // namespace gpuad
