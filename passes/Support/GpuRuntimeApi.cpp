//===- GpuRuntimeApi.cpp - gpuad's own calls of the CUDA/HIP runtime ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/GpuRuntimeApi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// cudaMemcpyDefault and hipMemcpyDefault: unified addressing.
static constexpr int MemcpyDefault = 4;

Value *GpuRuntimeApi::call(IRBuilderBase &B, StringRef Name,
                           ArrayRef<Value *> Args) {
  SmallVector<Type *, 6> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  FunctionCallee F = M.getOrInsertFunction(
      (Api + Name).str(), FunctionType::get(B.getInt32Ty(), Types, false));
  return B.CreateCall(F, Args);
}

/// Prints "gpuad: " and \p Parts (strings) on stderr and aborts, at \p B.
static void emitStop(IRBuilderBase &B, Module &M, ArrayRef<Value *> Parts) {
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *Ptr = PointerType::getUnqual(C);
  std::string Format = "gpuad: %s";
  for (size_t K = 1; K < Parts.size(); ++K)
    Format += ": %s";
  SmallVector<Value *, 4> Args = {B.getInt32(2),
                                  B.CreateGlobalString(Format + "\n")};
  Args.append(Parts.begin(), Parts.end());
  B.CreateCall(M.getOrInsertFunction("dprintf",
                                     FunctionType::get(I32, {I32, Ptr}, true)),
               Args);
  B.CreateCall(M.getOrInsertFunction("abort", Type::getVoidTy(C)));
  B.CreateUnreachable();
}

/// `void __gpuad_<api>_check(i32 status, ptr what)`: prints the runtime's
/// error string and aborts when status is not 0.
static Function *checkFunction(Module &M, StringRef Api) {
  std::string Name = ("__gpuad_" + Api + "_check").str();
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *Ptr = PointerType::getUnqual(C);
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), {I32, Ptr}, false),
                       GlobalValue::LinkOnceODRLinkage, Name, M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->addFnAttr(Attribute::NoInline);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Fail = BasicBlock::Create(C, "fail", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpEQ(F->getArg(0), B.getInt32(0)), Done, Fail);
  B.SetInsertPoint(Fail);
  Value *Text = B.CreateCall(
      M.getOrInsertFunction((Api + "GetErrorString").str(), Ptr, I32),
      {F->getArg(0)});
  emitStop(B, M, {F->getArg(1), Text});
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

void GpuRuntimeApi::check(IRBuilderBase &B, Value *Status, const Twine &What) {
  B.CreateCall(
      checkFunction(M, Api),
      {Status, B.CreateGlobalString(What.str(), "gpuad.runtime.what")});
}

Value *GpuRuntimeApi::allocate(IRBuilderBase &B, Value *Bytes,
                               const Twine &Purpose) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Value *Slot = Entry.CreateAlloca(B.getPtrTy(), nullptr, "gpuad.device.block");
  // (At least a byte: a null argument's empty allocation is copied too.)
  Value *Zero = ConstantInt::get(Bytes->getType(), 0);
  Bytes = B.CreateSelect(B.CreateICmpEQ(Bytes, Zero),
                         ConstantInt::get(Bytes->getType(), 1), Bytes);
  check(B, call(B, "Malloc", {Slot, Bytes}),
        "cannot allocate device memory for " + Purpose);
  return B.CreateLoad(B.getPtrTy(), Slot);
}

void GpuRuntimeApi::release(IRBuilderBase &B, Value *P) {
  check(B, call(B, "Free", {P}), "cannot free a device block of its own");
}

void GpuRuntimeApi::copy(IRBuilderBase &B, Value *Dst, Value *Src, Value *Bytes,
                         Value *Stream) {
  check(B,
        call(B, "MemcpyAsync",
             {Dst, Src, Bytes, B.getInt32(MemcpyDefault), Stream}),
        "cannot copy device memory it keeps for a kernel's adjoint");
}

void GpuRuntimeApi::zero(IRBuilderBase &B, Value *P, Value *Bytes,
                         Value *Stream) {
  check(B, call(B, "MemsetAsync", {P, B.getInt32(0), Bytes, Stream}),
        "cannot zero device memory");
}

void GpuRuntimeApi::synchronize(IRBuilderBase &B, Value *Stream) {
  check(B, call(B, "StreamSynchronize", {Stream}),
        "a derivative kernel failed");
}

void GpuRuntimeApi::copyWhenIdle(IRBuilderBase &B, Value *Dst, Value *Src,
                                 Value *Bytes) {
  check(B, call(B, "DeviceSynchronize", {}), "a kernel failed");
  check(B, call(B, "Memcpy", {Dst, Src, Bytes, B.getInt32(MemcpyDefault)}),
        "cannot copy device memory of a checkpointed loop's state");
}

/// `ptr __gpuad_<api>_allocation(ptr p, ptr bytes)`: the base of the device
/// allocation holding p, its size stored to *bytes.
static Function *allocationFunction(Module &M, StringRef Api,
                                    GpuRuntimeApi &Runtime) {
  std::string Name = ("__gpuad_" + Api + "_allocation").str();
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C),
       *Ptr = PointerType::getUnqual(C);
  Function *F = Function::Create(FunctionType::get(Ptr, {Ptr, Ptr}, false),
                                 GlobalValue::LinkOnceODRLinkage, Name, M);
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->addFnAttr(Attribute::NoInline);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  IRBuilder<> B(Entry);
  Value *Base = B.CreateAlloca(Ptr, nullptr, "base");
  // A null pointer (an argument or field left unset) is an empty
  // allocation: copies and shadows of it are null too.
  BasicBlock *Null = BasicBlock::Create(C, "null", F);
  BasicBlock *Ask = BasicBlock::Create(C, "ask", F);
  B.CreateCondBr(B.CreateIsNull(F->getArg(0)), Null, Ask);
  B.SetInsertPoint(Null);
  B.CreateStore(B.getInt64(0), F->getArg(1));
  B.CreateRet(ConstantPointerNull::get(PointerType::getUnqual(C)));
  B.SetInsertPoint(Ask);
  const char *NotDevice =
      "a pointer a differentiated kernel launch writes through is not device "
      "memory of this process (gpuad keeps a copy of the allocation it "
      "points into)";
  Value *Status;
  if (Api == "hip") {
    Status = B.CreateCall(
        M.getOrInsertFunction("hipMemGetAddressRange", I32, Ptr, Ptr, Ptr),
        {Base, F->getArg(1), F->getArg(0)});
  } else {
    // The driver's entry point, found once through the runtime.
    auto *Slot = cast<GlobalVariable>(
        M.getOrInsertGlobal("__gpuad_cuMemGetAddressRange", Ptr));
    Slot->setLinkage(GlobalValue::LinkOnceODRLinkage);
    Slot->setVisibility(GlobalValue::HiddenVisibility);
    Slot->setInitializer(ConstantPointerNull::get(PointerType::getUnqual(C)));
    BasicBlock *Find = BasicBlock::Create(C, "find", F);
    BasicBlock *Query = BasicBlock::Create(C, "query", F);
    B.CreateCondBr(B.CreateIsNull(B.CreateLoad(Ptr, Slot)), Find, Query);
    B.SetInsertPoint(Find);
    Value *Found = B.CreateCall(
        M.getOrInsertFunction("cudaGetDriverEntryPoint", I32, Ptr, Ptr, I64,
                              Ptr),
        {B.CreateGlobalString("cuMemGetAddressRange"), Slot, B.getInt64(0),
         ConstantPointerNull::get(PointerType::getUnqual(C))});
    Runtime.check(B, Found, "cannot find the driver's cuMemGetAddressRange");
    B.CreateBr(Query);
    B.SetInsertPoint(Query);
    FunctionType *Range = FunctionType::get(I32, {Ptr, Ptr, I64}, false);
    Status =
        B.CreateCall(Range, B.CreateLoad(Ptr, Slot),
                     {Base, F->getArg(1), B.CreatePtrToInt(F->getArg(0), I64)});
    // The driver's CUresult is not the runtime's error: say which it is.
    BasicBlock *Fail = BasicBlock::Create(C, "fail", F);
    BasicBlock *Done = BasicBlock::Create(C, "done", F);
    B.CreateCondBr(B.CreateICmpEQ(Status, B.getInt32(0)), Done, Fail);
    B.SetInsertPoint(Fail);
    emitStop(B, M, {B.CreateGlobalString(NotDevice)});
    B.SetInsertPoint(Done);
    B.CreateRet(B.CreateLoad(Ptr, Base));
    return F;
  }
  Runtime.check(B, Status, NotDevice);
  B.CreateRet(B.CreateLoad(Ptr, Base));
  return F;
}

std::pair<Value *, Value *> GpuRuntimeApi::allocationOf(IRBuilderBase &B,
                                                        Value *P) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Value *Size = Entry.CreateAlloca(B.getInt64Ty(), nullptr, "gpuad.alloc.size");
  Value *Base = B.CreateCall(allocationFunction(M, Api, *this), {P, Size});
  return {Base, B.CreateLoad(B.getInt64Ty(), Size)};
}

} // namespace gpuad
