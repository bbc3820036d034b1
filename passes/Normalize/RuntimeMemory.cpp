//===- RuntimeMemory.cpp - GPU runtime copies as tagged intrinsics --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/RuntimeMemory.h"

#include "Rules/CallTable.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "gpuad-calls"

using namespace llvm;

STATISTIC(NumTagged, "GPU runtime copies and fills made tagged intrinsics");
STATISTIC(NumLowered, "Tagged intrinsics made GPU runtime calls again");

namespace gpuad {

static constexpr const char *Tag = "gpuad.runtime";
/// cudaMemcpyDefault, hipMemcpyDefault: the runtime tells the direction.
static constexpr int MemcpyDefault = 4;

static void setTag(Instruction &I, const char *Api, bool Async) {
  LLVMContext &C = I.getContext();
  SmallVector<Metadata *, 2> Ops = {MDString::get(C, Api)};
  if (Async)
    Ops.push_back(MDString::get(C, "async"));
  I.setMetadata(Tag, MDNode::get(C, Ops));
}

void replaceRuntimeCall(CallBase &Call, Value *Result) {
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Result ? Result
                                   : Constant::getNullValue(Call.getType()));
  // The runtimes' C functions do not throw: an invoke (in a scope with
  // destructors) goes on to its normal destination.
  if (auto *Invoke = dyn_cast<InvokeInst>(&Call)) {
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
    BranchInst::Create(Invoke->getNormalDest(), Invoke->getIterator());
  }
  Call.eraseFromParent();
}

/// cuBLAS's transfers between host and device memory (the same in v2 and
/// the legacy API): a vector is a 1 x n matrix whose leading dimension is
/// its increment.
struct CublasTransfer {
  bool Matrix, Async;
};

static std::optional<CublasTransfer> cublasTransfer(const Function &Callee) {
  StringRef Name = Callee.getName();
  Name.consume_back("_64"); // the 64-bit integer interface
  return StringSwitch<std::optional<CublasTransfer>>(Name)
      .Cases({"cublasSetVector", "cublasGetVector"},
             CublasTransfer{false, false})
      .Cases({"cublasSetVectorAsync", "cublasGetVectorAsync"},
             CublasTransfer{false, true})
      .Cases({"cublasSetMatrix", "cublasGetMatrix"},
             CublasTransfer{true, false})
      .Cases({"cublasSetMatrixAsync", "cublasGetMatrixAsync"},
             CublasTransfer{true, true})
      .Default(std::nullopt);
}

/// `cublasSetMatrix(rows, cols, size, A, lda, B, ldb)` (and the others) as
/// tagged copies: one of every column where a leading dimension exceeds the
/// rows, else one of the whole; the status becomes success.
static void tagCublasTransfer(CallBase &Call, CublasTransfer T) {
  IRBuilder<> B(&Call);
  Type *I64 = B.getInt64Ty();
  auto Int = [&](unsigned I) {
    return B.CreateSExtOrTrunc(Call.getArgOperand(I), I64);
  };
  unsigned First = T.Matrix ? 0 : 1; // the vector's missing row count
  Value *Rows = T.Matrix ? Int(0) : B.getInt64(1);
  Value *Cols = Int(1 - First), *Size = Int(2 - First);
  Value *From = Call.getArgOperand(3 - First), *Lda = Int(4 - First);
  Value *To = Call.getArgOperand(5 - First), *Ldb = Int(6 - First);
  Value *Zero = B.getInt64(0);
  Value *Some =
      B.CreateAnd(B.CreateICmpSGT(Rows, Zero), B.CreateICmpSGT(Cols, Zero));
  Value *Whole =
      B.CreateAnd(B.CreateICmpEQ(Lda, Rows), B.CreateICmpEQ(Ldb, Rows));
  Value *Column = B.CreateMul(Rows, Size);
  Value *Count =
      B.CreateSelect(Some, B.CreateSelect(Whole, B.getInt64(1), Cols), Zero);
  Value *Bytes = B.CreateSelect(Whole, B.CreateMul(Column, Cols), Column);
  auto [Body, J] = SplitBlockAndInsertSimpleForLoop(Count, Call.getIterator());
  IRBuilder<> LB(Body);
  Instruction *Copy =
      LB.CreateMemCpy(LB.CreateGEP(LB.getInt8Ty(), To,
                                   LB.CreateMul(J, LB.CreateMul(Ldb, Size))),
                      MaybeAlign(),
                      LB.CreateGEP(LB.getInt8Ty(), From,
                                   LB.CreateMul(J, LB.CreateMul(Lda, Size))),
                      MaybeAlign(), Bytes);
  Copy->setDebugLoc(Call.getDebugLoc());
  setTag(*Copy, "cuda", T.Async);
  replaceRuntimeCall(Call, nullptr);
}

bool tagRuntimeMemory(Function &F, const CallTable &Calls) {
  bool Changed = false;
  // cuBLAS's transfers first: they split blocks.
  SmallVector<std::pair<CallBase *, CublasTransfer>, 4> Transfers;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (std::optional<CublasTransfer> T = cublasTransfer(*Callee))
          Transfers.push_back({Call, *T});
  for (auto [Call, T] : Transfers) {
    tagCublasTransfer(*Call, T);
    ++NumTagged;
    Changed = true;
  }
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      std::optional<RuntimeCall> R =
          Callee ? Calls.runtimeCall(*Callee) : std::nullopt;
      if (!R || (R->K != RuntimeCall::Copy && R->K != RuntimeCall::CopyAsync &&
                 R->K != RuntimeCall::Set && R->K != RuntimeCall::SetAsync))
        continue;
      IRBuilder<> B(Call);
      Instruction *New;
      if (R->K == RuntimeCall::Copy || R->K == RuntimeCall::CopyAsync)
        New = B.CreateMemCpy(Call->getArgOperand(0), MaybeAlign(),
                             Call->getArgOperand(1), MaybeAlign(),
                             Call->getArgOperand(2));
      else
        New =
            B.CreateMemSet(Call->getArgOperand(0),
                           B.CreateTrunc(Call->getArgOperand(1), B.getInt8Ty()),
                           Call->getArgOperand(2), MaybeAlign());
      New->setDebugLoc(Call->getDebugLoc());
      setTag(*New, R->Api, R->isAsync());
      LLVM_DEBUG(dbgs() << "gpuad-calls: " << *Call << " -> tagged " << *New
                        << "\n");
      replaceRuntimeCall(*Call, nullptr);
      ++NumTagged;
      Changed = true;
    }
  return Changed;
}

std::optional<RuntimeCall> runtimeOf(const Instruction &I) {
  const MDNode *N = I.getMetadata(Tag);
  if (!N || !isa<MemIntrinsic>(I))
    return std::nullopt;
  bool Cuda = cast<MDString>(N->getOperand(0))->getString() == "cuda";
  bool Async = N->getNumOperands() > 1;
  bool Copy = isa<MemTransferInst>(I);
  RuntimeCall::Kind K =
      Copy ? (Async ? RuntimeCall::CopyAsync : RuntimeCall::Copy)
           : (Async ? RuntimeCall::SetAsync : RuntimeCall::Set);
  return RuntimeCall{K, Cuda ? "cuda" : "hip"};
}

void tagLike(Instruction &New, const Instruction &Like) {
  if (MDNode *N = Like.getMetadata(Tag))
    New.setMetadata(Tag, N);
}

void tagRuntime(Instruction &New, const char *Api) {
  setTag(New, Api, /*Async=*/false);
}

bool lowerRuntimeMemory(Function &F) {
  bool Changed = false;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  Type *Ptr = PointerType::getUnqual(C);
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      std::optional<RuntimeCall> R = runtimeOf(I);
      if (!R)
        continue;
      std::string Api = R->Api;
      auto &MI = cast<MemIntrinsic>(I);
      IRBuilder<> B(&I);
      if (R->isAsync())
        B.CreateCall(M.getOrInsertFunction(Api + "DeviceSynchronize", I32));
      Value *Len = B.CreateZExtOrTrunc(MI.getLength(), I64);
      if (auto *MT = dyn_cast<MemTransferInst>(&MI))
        B.CreateCall(
            M.getOrInsertFunction(Api + "Memcpy", I32, Ptr, Ptr, I64, I32),
            {MT->getRawDest(), MT->getRawSource(), Len,
             B.getInt32(MemcpyDefault)});
      else
        B.CreateCall(M.getOrInsertFunction(Api + "Memset", I32, Ptr, I32, I64),
                     {MI.getRawDest(),
                      B.CreateZExt(cast<MemSetInst>(MI).getValue(), I32), Len});
      MI.eraseFromParent();
      ++NumLowered;
      Changed = true;
    }
  return Changed;
}

} // namespace gpuad
