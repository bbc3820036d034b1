//===- BufferCalls.cpp - Emitting a buffer routine's derivative -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Sweep/BufferCalls.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

BufferCallEmitter::BufferCallEmitter(IRBuilderBase &B, CallBase &Call,
                                     const CallClass &Class)
    : BufferCallSite(B, Class.Spelling.Element), Call(Call),
      Routine(*Class.Routine), Spelling(Class.Spelling) {
  // CBLAS's integers are the call's own (int, or int64 in an ILP64
  // build); Fortran's are in memory, int (LP64, as Debian's BLAS).
  IntTy = B.getInt32Ty();
  if (!byPointer())
    for (auto [K, Arg] : enumerate(Routine.Args))
      if (Arg.Kind == ArgKind::Length)
        IntTy = cast<IntegerType>(Call.getArgOperand(K)->getType());
}

Value *BufferCallEmitter::valueAt(IRBuilderBase &At, unsigned I) {
  Value *Op = Call.getArgOperand(I);
  if (!byPointer() || isBuffer(I))
    return Op;
  Type *Ty = Routine.Args[I].Kind == ArgKind::Scalar ? Element : IntTy;
  return At.CreateLoad(Ty, Op);
}

Value *BufferCallEmitter::emitCall(IRBuilderBase &At, StringRef Name,
                                   ArrayRef<Value *> Args) {
  const BufferRoutine *R = CallTable::bufferRoutineNamed(Name);
  assert(R && R->Args.size() == Args.size() &&
         "a builder called a routine the table does not have, or with the "
         "wrong number of arguments");
  Module &M = *At.GetInsertBlock()->getModule();
  Function &D = *At.GetInsertBlock()->getParent();
  SmallVector<Type *, 8> Params;
  SmallVector<Value *, 8> Passed;
  for (auto [Arg, V] : zip(R->Args, Args)) {
    if (Arg.Kind == ArgKind::Buffer || !byPointer()) {
      Params.push_back(V->getType());
      Passed.push_back(V);
      continue;
    }
    // Fortran: the value in a stack slot of the derivative's entry.
    IRBuilder<> EB(&D.getEntryBlock(), D.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Slot = EB.CreateAlloca(
        V->getType(), M.getDataLayout().getAllocaAddrSpace(), nullptr, "arg");
    At.CreateStore(V, Slot);
    Params.push_back(Slot->getType());
    Passed.push_back(Slot);
  }
  Type *Ret = R->ReturnsScalar ? Element : At.getVoidTy();
  FunctionCallee F =
      M.getOrInsertFunction(CallTable::spellingOf(*R, Spelling),
                            FunctionType::get(Ret, Params, false));
  return At.CreateCall(F, Passed);
}

Value *BufferCallEmitter::call(StringRef Name, ArrayRef<Value *> Args) {
  return emitCall(B, Name, Args);
}

/// `void gpuad.zero.strided.<T>(iN n, ptr x, iN inc)`: x[k * |inc|] = 0 for
/// k in [0, n), the elements BLAS's x with increment inc names.
static Function *zeroStridedFunction(Module &M, Type *Element,
                                     IntegerType *IntTy) {
  std::string Name = "gpuad.zero.strided." +
                     std::string(Element->isDoubleTy() ? "f64" : "f32") + ".i" +
                     std::to_string(IntTy->getBitWidth());
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Function *F = Function::Create(
      FunctionType::get(Type::getVoidTy(C), {IntTy, Ptr, IntTy}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "loop", F);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> B(Entry);
  Value *N = F->getArg(0), *X = F->getArg(1);
  Value *Inc = F->getArg(2);
  Value *Step = B.CreateSExt(
      B.CreateSelect(B.CreateICmpSLT(Inc, ConstantInt::get(IntTy, 0)),
                     B.CreateNeg(Inc), Inc),
      B.getInt64Ty());
  Value *Count = B.CreateSExt(N, B.getInt64Ty());
  B.CreateCondBr(B.CreateICmpSGT(Count, B.getInt64(0)), Loop, Exit);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(B.getInt64Ty(), 2);
  K->addIncoming(B.getInt64(0), Entry);
  B.CreateStore(ConstantFP::get(Element, 0.0),
                B.CreateGEP(Element, X, B.CreateMul(K, Step)));
  Value *Next = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpSLT(Next, Count), Loop, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return F;
}

void BufferCallEmitter::zero(Value *N, Value *Buffer, Value *Inc) {
  Module &M = *B.GetInsertBlock()->getModule();
  B.CreateCall(zeroStridedFunction(M, Element, IntTy), {N, Buffer, Inc});
}

} // namespace gpuad
