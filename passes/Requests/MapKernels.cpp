//===- MapKernels.cpp - gpuad's kernels for Thrust algorithm calls --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/MapKernels.h"

#include "Rules/AlgorithmCalls.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumMapKernels, "Map kernels made for Thrust algorithm calls");

namespace gpuad {

namespace {

/// \p V as operator() takes it: a bool is an i1 in registers, an i8 in
/// memory.
Value *asParameter(IRBuilderBase &B, Value *V, Type *Ty) {
  if (V->getType() == Ty || !V->getType()->isIntegerTy() || !Ty->isIntegerTy())
    return V;
  return B.CreateZExtOrTrunc(V, Ty);
}

/// Why \p Op cannot be called as \p R says, or "".
std::string whyNotCallable(const Function &Op, const AlgorithmCall &R) {
  LLVMContext &C = Op.getContext();
  if (Op.arg_size() != 1 + R.Inputs.size() || Op.isVarArg())
    return "it takes " + std::to_string(Op.arg_size()) + " IR arguments";
  for (auto [K, Code] : enumerate(R.Inputs)) {
    Type *Param = Op.getArg(K + 1)->getType();
    Type *Element = algorithmType(Code, C);
    if (R.ByReference[K] ? !Param->isPointerTy()
                         : Param != Element && !(Param->isIntegerTy() &&
                                                 Element->isIntegerTy()))
      return "its argument " + std::to_string(K + 1) + " is not passed as " +
             "the record says";
  }
  Type *Ret = Op.getReturnType();
  if (R.Returns == "void"
          ? !Ret->isVoidTy()
          : Ret != algorithmType(R.Returns, C) && !Ret->isIntegerTy())
    return "its result is not returned as the record says";
  return "";
}

/// The map kernel of record \p R, or null with \p Why.
Function *makeMapKernel(Module &M, const AlgorithmCall &R, TargetHooks &Target,
                        std::string &Why) {
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Function *Op = nullptr;
  if (R.hasFunctor()) {
    Op = M.getFunction(R.Operator);
    if (!Op || Op->isDeclaration()) {
      Why = "its operator() '" + demangle(R.Operator) +
            "' is not defined in the device code";
      return nullptr;
    }
    Why = whyNotCallable(*Op, R);
    if (!Why.empty()) {
      Why = "its operator() '" + demangle(R.Operator) + "': " + Why;
      return nullptr;
    }
  }
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  SmallVector<Type *, 16> Params(R.numPointers(), Ptr);
  Params.push_back(I64);
  for (auto &[Offset, Code] : R.Leaves)
    Params.push_back(algorithmType(Code, C));
  auto *K =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::ExternalLinkage, R.Kernel, M);
  Target.makeKernel(*K);
  K->addFnAttr(Attribute::NoUnwind);
  K->addFnAttr(Attribute::Convergent);
  if (Op)
    for (StringRef A : {"target-cpu", "target-features"})
      if (Op->hasFnAttribute(A))
        K->addFnAttr(Op->getFnAttribute(A));

  BasicBlock *Entry = BasicBlock::Create(C, "entry", K);
  BasicBlock *Body = BasicBlock::Create(C, "element", K);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", K);
  IRBuilder<> B(Entry);
  unsigned NumIn = R.Inputs.size();
  Value *N = K->getArg(R.numPointers());
  Value *Index = B.CreateAdd(
      B.CreateMul(Target.emitLinearBlockId(B),
                  B.CreateZExt(Target.emitBlockThreadCount(B), I64)),
      B.CreateZExt(Target.emitLinearThreadId(B), I64), "i");
  B.CreateCondBr(B.CreateICmpSLT(Index, N), Body, Exit);

  B.SetInsertPoint(Body);
  SmallVector<Value *, 3> Elements;
  SmallVector<CallInst *, 1> Calls;
  for (unsigned I = 0; I < NumIn; ++I)
    Elements.push_back(B.CreateInBoundsGEP(algorithmType(R.Inputs[I], C),
                                           K->getArg(I), Index));
  Value *Result;
  if (Op) {
    // The functor, rebuilt from its leaves in the thread's own memory.
    Value *Functor =
        B.CreateAlloca(ArrayType::get(B.getInt8Ty(), R.Size),
                       DL.getAllocaAddrSpace(), nullptr, "functor");
    cast<AllocaInst>(Functor)->setAlignment(Align(R.Align));
    for (auto [L, Leaf] : enumerate(R.Leaves))
      B.CreateAlignedStore(
          K->getArg(R.numPointers() + 1 + L),
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Functor, Leaf.first),
          commonAlignment(Align(R.Align), Leaf.first));
    SmallVector<Value *, 3> Args = {B.CreatePointerBitCastOrAddrSpaceCast(
        Functor, Op->getArg(0)->getType())};
    for (unsigned I = 0; I < NumIn; ++I) {
      Type *Param = Op->getArg(I + 1)->getType();
      Args.push_back(
          R.ByReference[I]
              ? B.CreatePointerBitCastOrAddrSpaceCast(Elements[I], Param)
              : asParameter(
                    B, B.CreateLoad(algorithmType(R.Inputs[I], C), Elements[I]),
                    Param));
    }
    CallInst *Call = B.CreateCall(Op, Args);
    Call->setCallingConv(Op->getCallingConv());
    Result = Call;
    // operator() inlined (also at -O0): the pointers it loads from the
    // functor are then the kernel's arguments stored there, which the
    // derivative kernels' checks trace.
    Calls.push_back(Call);
  } else {
    Result = B.CreateLoad(algorithmType(R.Inputs[0], C), Elements[0]);
  }
  Value *Out =
      R.Shape == AlgorithmCall::Form::ForEach ? nullptr : K->getArg(NumIn);
  if (Out) {
    Type *OutTy = algorithmType(R.Output, C);
    Result = asParameter(B, Result, OutTy);
    if (R.sums())
      B.CreateAtomicRMW(OutTy->isFloatingPointTy() ? AtomicRMWInst::FAdd
                                                   : AtomicRMWInst::Add,
                        Out, Result, Align(DL.getTypeStoreSize(OutTy)),
                        AtomicOrdering::Monotonic);
    else
      B.CreateStore(Result, B.CreateInBoundsGEP(OutTy, Out, Index));
  }
  B.CreateBr(Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  for (CallInst *Call : Calls) {
    InlineFunctionInfo IFI;
    InlineFunction(*Call, IFI);
  }
  ++NumMapKernels;
  return K;
}

} // namespace

bool makeMapKernels(Module &M) {
  std::optional<StringMap<AlgorithmCall>> Calls = algorithmCalls();
  if (!Calls || Calls->empty())
    return false;
  Diagnostics Quiet;
  Quiet.holdBack();
  std::unique_ptr<TargetHooks> Target =
      makeTargetHooks(M, GpuadOptions::fromCommandLine(), Quiet);
  if (!Target->isGPU())
    return false;
  bool Changed = false;
  for (const auto &Entry : *Calls) {
    const AlgorithmCall &R = Entry.second;
    if (!R.ok() || M.getFunction(R.Kernel))
      continue;
    std::string Why;
    if (makeMapKernel(M, R, *Target, Why))
      Changed = true;
    else
      M.getContext().emitError("gpuad: cannot run '" + R.Algorithm +
                               "' as a map kernel: " + Why);
  }
  return Changed;
}

bool aggregateMapKernelSums(Module &M, TargetHooks &Target) {
  bool Changed = false;
  for (Function &F : M) {
    StringRef Name = F.getName();
    if (F.isDeclaration() || !Target.isKernel(F) ||
        !(Name.starts_with("__gpuad_map_") ||
          Name.starts_with("__gpuad_fwd___gpuad_map_") ||
          Name.starts_with("__gpuad_rev___gpuad_map_")))
      continue;
    // (Collected first: the warp's sum ends in an atomic add of its own.
    // Adds at a narrower scope than the map kernel's system-wide one are
    // emitAccumulate's already.)
    SmallVector<AtomicRMWInst *, 4> Sums;
    for (Instruction &I : instructions(F))
      if (auto *Add = dyn_cast<AtomicRMWInst>(&I);
          Add && Add->getOperation() == AtomicRMWInst::FAdd &&
          Add->getSyncScopeID() == SyncScope::System && Add->use_empty() &&
          isa<Argument>(getUnderlyingObject(Add->getPointerOperand())))
        Sums.push_back(Add);
    for (AtomicRMWInst *Add : Sums) {
      IRBuilder<> B(Add);
      Target.emitAccumulate(B, Add->getPointerOperand(), Add->getValOperand(),
                            Add->getAlign(), /*ThreadPrivate=*/false);
      Add->eraseFromParent();
      Changed = true;
    }
  }
  return Changed;
}

PreservedAnalyses MapKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  return makeMapKernels(M) ? PreservedAnalyses::none()
                           : PreservedAnalyses::all();
}

} // namespace gpuad
