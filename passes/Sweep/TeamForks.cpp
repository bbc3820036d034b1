//===- TeamForks.cpp - Derivatives of OpenMP parallel regions -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Sweep/TeamForks.h"

#include "Normalize/ParallelRegions.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

CallInst *emitTeamCall(IRBuilderBase &B, Value *Loc, Function *Callee,
                       ArrayRef<Value *> Args, unsigned GtidOperand,
                       unsigned BtidOperand, ArrayRef<Value *> Along,
                       BeforeTeamCall Before, AfterTeamCall After) {
  LLVMContext &C = B.getContext();
  Module &M = *B.GetInsertBlock()->getModule();
  // The record: the arguments the caller gives (not the thread ids, not
  // those the thread fills), then the values passed along.
  SmallVector<unsigned, 16> Given;
  SmallVector<Type *, 16> Fields;
  for (auto [K, A] : enumerate(Args))
    if (A && K != GtidOperand && K != BtidOperand) {
      Given.push_back(K);
      Fields.push_back(A->getType());
    }
  for (Value *V : Along)
    Fields.push_back(V->getType());
  StructType *RecordTy = StructType::get(C, Fields);

  Function &Caller = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&Caller.getEntryBlock(),
                    Caller.getEntryBlock().getFirstInsertionPt());
  Value *Record = Entry.CreateAlloca(RecordTy, nullptr, "omp.team.record");
  unsigned Field = 0;
  for (unsigned K : Given)
    B.CreateStore(Args[K], B.CreateStructGEP(RecordTy, Record, Field++));
  for (Value *V : Along)
    B.CreateStore(V, B.CreateStructGEP(RecordTy, Record, Field++));

  // The wrapper every thread runs: (gtid*, btid*, record*).
  Type *Ptr = PointerType::get(C, 0);
  Function *Wrapper = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr}, false),
      GlobalValue::InternalLinkage, Callee->getName() + ".team", M);
  Wrapper->addFnAttr(Attribute::NoUnwind);
  for (unsigned P : {0u, 1u})
    Wrapper->addParamAttr(P, Attribute::NoAlias);
  IRBuilder<> W(BasicBlock::Create(C, "entry", Wrapper));
  Value *InRecord = Wrapper->getArg(2);
  SmallVector<Value *, 16> CallArgs(Args.size());
  CallArgs[GtidOperand] = Wrapper->getArg(0);
  CallArgs[BtidOperand] = Wrapper->getArg(1);
  Field = 0;
  for (unsigned K : Given) {
    CallArgs[K] = W.CreateLoad(Fields[Field],
                               W.CreateStructGEP(RecordTy, InRecord, Field));
    ++Field;
  }
  SmallVector<Value *, 4> Seen;
  for (unsigned I = 0; I < Along.size(); ++I, ++Field)
    Seen.push_back(W.CreateLoad(Fields[Field],
                                W.CreateStructGEP(RecordTy, InRecord, Field)));
  Value *Index = W.CreateLoad(W.getInt32Ty(), Wrapper->getArg(1), "omp.tid");
  Before(W, Index, Seen, CallArgs);
  CallInst *Result = W.CreateCall(Callee, CallArgs);
  Result->setCallingConv(Callee->getCallingConv());
  After(W, Index, Seen, Result);
  W.CreateRetVoid();
  return emitFork(B, Loc, Wrapper, Record);
}

} // namespace gpuad
