//===- TargetHooks.cpp - Target hooks factory -----------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Target/TargetHooks.h"

#include "Target/Targets.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

TargetHooks::~TargetHooks() = default;

std::unique_ptr<TargetHooks> makeTargetHooks(Module &M,
                                             const GpuadOptions &Options,
                                             Diagnostics &Diags) {
  const Triple &T = M.getTargetTriple();
  if (T.isNVPTX())
    return makeNVPTXHooks(M, Options, Diags);
  if (T.isAMDGPU())
    return makeAMDGPUHooks(M, Options, Diags);
  return makeHostHooks(M);
}

Value *emitScalarized(IRBuilderBase &B, ArrayRef<Value *> Args,
                      function_ref<Value *(ArrayRef<Value *>)> EmitScalar) {
  auto *VecTy = dyn_cast<FixedVectorType>(Args[0]->getType());
  if (!VecTy)
    return EmitScalar(Args);
  Value *Result = PoisonValue::get(VecTy);
  SmallVector<Value *, 3> Lane(Args.size());
  for (unsigned I = 0, E = VecTy->getNumElements(); I < E; ++I) {
    for (unsigned A = 0; A < Args.size(); ++A)
      Lane[A] = Args[A]->getType()->isVectorTy()
                    ? B.CreateExtractElement(Args[A], B.getInt32(I))
                    : Args[A];
    Result = B.CreateInsertElement(Result, EmitScalar(Lane), B.getInt32(I));
  }
  return Result;
}

bool calleeHasPrefix(const CallBase &Call, ArrayRef<StringRef> Prefixes) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  StringRef Name = Callee->getName();
  return any_of(Prefixes, [&](StringRef P) { return Name.starts_with(P); });
}

Value *callLibraryMath(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args,
                       StringRef Name,
                       function_ref<Function *(StringRef, FunctionType *)> Get) {
  Type *Ty = Args[0]->getType();
  SmallVector<Type *, 2> Params = {Ty};
  SmallVector<Value *, 2> CallArgs = {Args[0]};
  if (Fn == MathFn::Pow) {
    Params.push_back(Ty);
    CallArgs.push_back(Args[1]);
  } else if (Fn == MathFn::Powi) {
    Params.push_back(B.getInt32Ty());
    CallArgs.push_back(B.CreateSExtOrTrunc(Args[1], B.getInt32Ty()));
  }
  Function *F = Get(Name, FunctionType::get(Ty, Params, false));
  CallInst *Call = B.CreateCall(F, CallArgs);
  Call->setCallingConv(F->getCallingConv());
  return Call;
}

} // namespace gpuad
