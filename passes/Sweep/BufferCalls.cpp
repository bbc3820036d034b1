//===- BufferCalls.cpp - Emitting a buffer routine's derivative -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Sweep/BufferCalls.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

BufferCallEmitter::BufferCallEmitter(IRBuilderBase &B, CallBase &Call,
                                     const CallClass &Class,
                                     TargetHooks &Target)
    : BufferCallSite(B, Class.Spelling.Element, *Class.Routine, Class.Spelling),
      Call(Call), Target(Target) {
  // CBLAS's integers are the call's own (int, or int64 in an ILP64
  // build), as are cuBLAS's (int); Fortran's are in memory, int (LP64, as
  // Debian's BLAS).
  IntTy = B.getInt32Ty();
  if (!byPointer())
    for (auto [K, Arg] : enumerate(Routine.Args))
      if (Arg.Kind == ArgKind::Length)
        IntTy = cast<IntegerType>(operand(K)->getType());
}

Value *BufferCallEmitter::operand(unsigned I) const {
  std::optional<unsigned> Op = Routine.operand(I, Spelling.Convention);
  return Op ? Call.getArgOperand(*Op) : nullptr;
}

/// The type of argument \p Arg's value in a Fortran call, which passes it
/// by pointer.
static Type *fortranValueType(const CallArgument &Arg, Type *Element,
                              IntegerType *IntTy) {
  switch (Arg.Kind) {
  case ArgKind::Scalar:
    return Element;
  case ArgKind::Transpose:
  case ArgKind::Uplo:
  case ArgKind::Diag:
  case ArgKind::Side:
    // A character: reading more would read past it.
    return Type::getInt8Ty(Element->getContext());
  default:
    return IntTy;
  }
}

Value *BufferCallEmitter::valueAt(IRBuilderBase &At, unsigned I) {
  Value *Op = operand(I);
  if (!Op)
    return At.getInt32(blas_flag::ColumnMajor);
  if (cublas() && Routine.Args[I].Kind == ArgKind::Scalar)
    return scalarHelper(At, "read", Call.getArgOperand(0), modeAtCall(), Op);
  if (!byPointer() || isBuffer(I) || Routine.Args[I].Kind == ArgKind::Pivots)
    return Op;
  return At.CreateLoad(fortranValueType(Routine.Args[I], Element, IntTy), Op);
}

Value *BufferCallEmitter::span(IRBuilderBase &At, unsigned I,
                               function_ref<Value *(unsigned)> ValueOf) {
  const CallArgument &Arg = Routine.Args[I];
  auto NonNegative = [&](Value *V) {
    Value *Zero = ConstantInt::get(V->getType(), 0);
    return At.CreateSelect(At.CreateICmpSGT(V, Zero), V, Zero);
  };
  Value *Length = ValueOf(Arg.Length);
  Value *Transposed =
      Arg.Transpose < 0
          ? nullptr
          : saysTransposed(At, ValueOf(Arg.Transpose), Spelling.Convention);
  if (Arg.Kind == ArgKind::Vector)
    return NonNegative(
        Transposed ? At.CreateSelect(Transposed, ValueOf(Arg.Width), Length)
                   : Length);
  // A matrix stored Rows x Columns: from its first element to its last.
  Value *Rows = Length, *Columns = ValueOf(Arg.Width);
  if (Transposed)
    std::tie(Rows, Columns) =
        std::pair(At.CreateSelect(Transposed, Columns, Rows),
                  At.CreateSelect(Transposed, Rows, Columns));
  if (Arg.Side >= 0) // square: m x m on the left, n x n on the right
    Rows = Columns =
        At.CreateSelect(saysFlag(At, ValueOf(Arg.Side), Spelling.Convention,
                                 blas_flag::Left, 'L'),
                        Rows, Columns);
  Value *RowMajor = At.getFalse();
  for (auto [K, A] : enumerate(Routine.Args))
    if (A.Kind == ArgKind::Layout)
      RowMajor = saysRowMajor(At, ValueOf(K), Spelling.Convention);
  Value *Inner = At.CreateSelect(RowMajor, Columns, Rows);
  Value *Outer = At.CreateSelect(RowMajor, Rows, Columns);
  Value *One = ConstantInt::get(Inner->getType(), 1);
  Value *Last = At.CreateAdd(
      At.CreateMul(At.CreateSub(Outer, One), ValueOf(Arg.Increment)), Inner);
  Value *Zero = ConstantInt::get(Inner->getType(), 0);
  Value *Empty =
      At.CreateOr(At.CreateICmpSLE(Inner, Zero), At.CreateICmpSLE(Outer, Zero));
  return At.CreateSelect(Empty, Zero, Last);
}

Value *BufferCallEmitter::emitCall(IRBuilderBase &At, StringRef Name,
                                   ArrayRef<Value *> Args, Value *Handle) {
  const BufferRoutine *R = CallTable::bufferRoutineNamed(Name);
  assert(R && R->Args.size() == Args.size() &&
         "a builder called a routine the table does not have, or with the "
         "wrong number of arguments");
  Module &M = *At.GetInsertBlock()->getModule();
  Function &D = *At.GetInsertBlock()->getParent();
  SmallVector<Type *, 8> Params;
  SmallVector<Value *, 8> Passed;
  BufferSpelling Callee = calleeSpelling();
  bool ByPointer = Callee.Convention == BufferSpelling::Fortran;
  bool Cublas = Callee.Convention == BufferSpelling::Cublas;
  auto Slot = [&](Type *Ty) {
    IRBuilder<> EB(&D.getEntryBlock(), D.getEntryBlock().getFirstInsertionPt());
    return EB.CreateAlloca(Ty, M.getDataLayout().getAllocaAddrSpace(), nullptr,
                           "arg");
  };
  if (Cublas) {
    Value *H = Handle ? Handle : handle();
    Params.push_back(H->getType());
    Passed.push_back(H);
  }
  for (auto [Arg, V] : zip(R->Args, Args)) {
    if (Arg.Kind == ArgKind::Layout &&
        !BufferSpelling::passesLayout(Callee.Convention))
      continue; // column major
    if (Arg.isBuffer() || Arg.Kind == ArgKind::Pivots ||
        (Cublas ? Arg.Kind != ArgKind::Scalar : !ByPointer)) {
      Params.push_back(V->getType());
      Passed.push_back(V);
      continue;
    }
    // Fortran's values and cuBLAS's scalars (host pointers: the derivative
    // switched the handle to them) in a stack slot of the derivative's
    // entry.
    AllocaInst *S = Slot(V->getType());
    At.CreateStore(V, S);
    Params.push_back(S->getType());
    Passed.push_back(S);
  }
  // cuBLAS's trmm is out of place (C = alpha op(A) B); B as C is BLAS's
  // in-place trmm.
  if (Cublas && StringRef(R->Name) == "trmm") {
    Params.append({Params[Params.size() - 2], Params.back()});
    Passed.append({Passed[Passed.size() - 2], Passed.back()});
  }
  AllocaInst *Result = nullptr;
  if (Cublas && R->ReturnsScalar) {
    Result = Slot(Element);
    Params.push_back(Result->getType());
    Passed.push_back(Result);
  }
  Type *Ret = Cublas             ? At.getInt32Ty()
              : R->ReturnsScalar ? Element
                                 : At.getVoidTy();
  FunctionCallee F = M.getOrInsertFunction(
      CallTable::spellingOf(*R, Callee), FunctionType::get(Ret, Params, false));
  CallInst *C = At.CreateCall(F, Passed);
  return Result ? static_cast<Value *>(At.CreateLoad(Element, Result)) : C;
}

/// A call of the runtime's \p Name, declared from its arguments' types.
static CallInst *callRuntime(IRBuilderBase &At, StringRef Name, Type *Ret,
                             ArrayRef<Value *> Args) {
  SmallVector<Type *, 4> Params;
  for (Value *V : Args)
    Params.push_back(V->getType());
  Module &M = *At.GetInsertBlock()->getModule();
  return At.CreateCall(
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false)), Args);
}

Value *BufferCallEmitter::pointerModeAt(IRBuilderBase &At, Value *Handle) {
  return callRuntime(At, "gpuad_cublas_pointer_mode", At.getInt32Ty(),
                     {Handle});
}

Value *BufferCallEmitter::scalarHelper(IRBuilderBase &At, StringRef Op,
                                       Value *Handle, Value *Mode, Value *Ptr,
                                       ArrayRef<Value *> Args) {
  SmallVector<Value *, 4> Passed = {Handle, Mode, Ptr};
  append_range(Passed, Args);
  bool Returns = Op == "read" || Op == "take";
  return callRuntime(
      At,
      ("gpuad_cublas_" + Op + (Element->isDoubleTy() ? "_f64" : "_f32")).str(),
      Returns ? Element : At.getVoidTy(), Passed);
}

Value *BufferCallEmitter::vectorSpan(Value *N, Value *Inc) {
  Type *I64 = B.getInt64Ty();
  Value *Count = B.CreateSExt(N, I64), *Step = B.CreateSExt(Inc, I64);
  Step = B.CreateSelect(B.CreateICmpSLT(Step, B.getInt64(0)), B.CreateNeg(Step),
                        Step);
  return B.CreateSelect(
      B.CreateICmpSGT(Count, B.getInt64(0)),
      B.CreateAdd(B.CreateMul(B.CreateSub(Count, B.getInt64(1)), Step),
                  B.getInt64(1)),
      B.getInt64(0));
}

Value *BufferCallEmitter::stage(Value *Device, Value *Elements) {
  for (auto &[D, Host, Bytes] : StagedBlocks)
    if (D == Device)
      return Host; // one copy of a buffer passed twice
  const DataLayout &DL = Call.getModule()->getDataLayout();
  Value *Bytes = B.CreateMul(B.CreateSExt(Elements, B.getInt64Ty()),
                             B.getInt64(DL.getTypeAllocSize(Element)));
  Value *Host = callRuntime(B, "gpuad_cublas_stage_in", B.getPtrTy(),
                            {deviceHandle(), Device, Bytes});
  StagedBlocks.push_back({Device, Host, Bytes});
  return Host;
}

void BufferCallEmitter::unstage() {
  Value *H = deviceHandle();
  for (auto &[Device, Host, Bytes] : StagedBlocks)
    callRuntime(B, "gpuad_cublas_stage_out", B.getVoidTy(),
                {H, Device, Host, Bytes});
  StagedBlocks.clear();
  Staging = false;
}

Value *BufferCallEmitter::deviceHandle() {
  if (cublas())
    return handle();
  return onDevice() ? ConstantPointerNull::get(B.getPtrTy()) : nullptr;
}

void BufferCallEmitter::useHostScalars() {
  if (!cublas() || SavedMode)
    return;
  SavedMode =
      callRuntime(B, "gpuad_cublas_host_scalars", B.getInt32Ty(), {handle()});
}

Value *BufferCallEmitter::allocate(IRBuilderBase &At, Value *Bytes,
                                   Value *Handle) {
  if (!onDevice())
    return Target.emitAlloc(At, Bytes);
  if (!Handle) // the legacy API: the default stream
    Handle = ConstantPointerNull::get(At.getPtrTy());
  return callRuntime(At, "gpuad_cublas_alloc", At.getPtrTy(), {Handle, Bytes});
}

void BufferCallEmitter::release(IRBuilderBase &At, Value *Block,
                                Value *Handle) {
  if (!onDevice())
    return Target.emitFree(At, Block);
  if (!Handle)
    Handle = ConstantPointerNull::get(At.getPtrTy());
  callRuntime(At, "gpuad_cublas_free", At.getVoidTy(), {Handle, Block});
}

Value *BufferCallEmitter::call(StringRef Name, ArrayRef<Value *> Args) {
  useHostScalars();
  return emitCall(B, Name, Args);
}

void BufferCallEmitter::zero(Value *N, Value *Buffer, Value *Inc) {
  if (onDevice()) {
    // Device memory: a strided memset on the handle's stream.
    Type *I32 = B.getInt32Ty();
    callRuntime(B, "gpuad_cublas_zero", B.getVoidTy(),
                {deviceHandle(), B.CreateSExtOrTrunc(N, I32), Buffer,
                 B.CreateSExtOrTrunc(Inc, I32),
                 B.getInt32(Element->getPrimitiveSizeInBits() / 8)});
    return;
  }
  eachElement("zero", N, {{Buffer, Inc}}, {}, /*Sums=*/false,
              [&](IRBuilderBase &LB, ArrayRef<Value *> Elements,
                  ArrayRef<Value *>) -> Value * {
                LB.CreateStore(ConstantFP::get(Element, 0.0), Elements[0]);
                return nullptr;
              });
}

/// Element \p K of a vector \p X of \p Count elements at increment \p Inc
/// (i64s), in BLAS's order: x[k inc], or from the end, x[(n - 1 - k) |inc|].
static Value *vectorElement(IRBuilderBase &B, Type *Element, Value *X,
                            Value *Inc, Value *Count, Value *K) {
  Value *Backward = B.CreateICmpSLT(Inc, B.getInt64(0));
  Value *Position = B.CreateSelect(
      Backward, B.CreateSub(B.CreateSub(Count, B.getInt64(1)), K), K);
  Value *Step = B.CreateSelect(Backward, B.CreateNeg(Inc), Inc);
  return B.CreateGEP(Element, X, B.CreateMul(Position, Step));
}

Value *BufferCallEmitter::eachElement(
    StringRef Name, Value *N, ArrayRef<std::pair<Value *, Value *>> Vectors,
    ArrayRef<Value *> Scalars, bool Sums, ElementBody Body) {
  if (onDevice() && !Staging) {
    // The loop runs on host copies of the vectors' device memory.
    Staging = true;
    SmallVector<std::pair<Value *, Value *>, 4> Staged;
    for (auto [V, Inc] : Vectors)
      Staged.push_back({stage(V, vectorSpan(N, Inc)), Inc});
    Value *R = eachElement(Name, N, Staged, Scalars, Sums, Body);
    unstage();
    return R;
  }
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &C = M.getContext();
  std::string FnName =
      ("gpuad.each." + Name + "." + (Element->isDoubleTy() ? "f64" : "f32") +
       ".i" + Twine(IntTy->getBitWidth()))
          .str();
  SmallVector<Value *, 8> Args = {B.CreateSExtOrTrunc(N, IntTy)};
  for (auto [V, Inc] : Vectors)
    Args.append({V, B.CreateSExtOrTrunc(Inc, IntTy)});
  append_range(Args, Scalars);
  Function *F = M.getFunction(FnName);
  if (!F) {
    SmallVector<Type *, 8> Params;
    for (Value *A : Args)
      Params.push_back(A->getType());
    F = Function::Create(
        FunctionType::get(Sums ? Element : Type::getVoidTy(C), Params, false),
        GlobalValue::InternalLinkage, FnName, M);
    F->addFnAttr(Attribute::AlwaysInline);
    BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
    BasicBlock *Loop = BasicBlock::Create(C, "loop", F);
    BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
    IRBuilder<> EB(Entry);
    Value *Count = EB.CreateSExt(F->getArg(0), EB.getInt64Ty());
    EB.CreateCondBr(EB.CreateICmpSGT(Count, EB.getInt64(0)), Loop, Exit);
    IRBuilder<> LB(Loop);
    PHINode *K = LB.CreatePHI(LB.getInt64Ty(), 2);
    K->addIncoming(LB.getInt64(0), Entry);
    PHINode *Sum = Sums ? LB.CreatePHI(Element, 2) : nullptr;
    if (Sum)
      Sum->addIncoming(ConstantFP::get(Element, 0.0), Entry);
    SmallVector<Value *, 4> Elements;
    for (unsigned V = 0; V < Vectors.size(); ++V)
      Elements.push_back(vectorElement(
          LB, Element, F->getArg(1 + 2 * V),
          LB.CreateSExt(F->getArg(2 + 2 * V), LB.getInt64Ty()), Count, K));
    SmallVector<Value *, 2> ScalarParams;
    for (unsigned I = 0; I < Scalars.size(); ++I)
      ScalarParams.push_back(F->getArg(1 + 2 * Vectors.size() + I));
    Value *Result = Body(LB, Elements, ScalarParams);
    Value *NextSum = Sum ? LB.CreateFAdd(Sum, Result) : nullptr;
    if (Sum)
      Sum->addIncoming(NextSum, Loop);
    Value *Next = LB.CreateAdd(K, LB.getInt64(1));
    K->addIncoming(Next, Loop);
    LB.CreateCondBr(LB.CreateICmpSLT(Next, Count), Loop, Exit);
    IRBuilder<> XB(Exit);
    if (Sum) {
      PHINode *Total = XB.CreatePHI(Element, 2);
      Total->addIncoming(ConstantFP::get(Element, 0.0), Entry);
      Total->addIncoming(NextSum, Loop);
      XB.CreateRet(Total);
    } else {
      XB.CreateRetVoid();
    }
  }
  return B.CreateCall(F, Args);
}

Value *BufferCallEmitter::eachTriangleElement(
    StringRef Name, Value *N, Value *Upper, Value *Strict,
    ArrayRef<StridedMatrix> Matrices,
    ArrayRef<std::pair<Value *, Value *>> Rows,
    ArrayRef<std::pair<Value *, Value *>> Columns, ArrayRef<Value *> Scalars,
    bool Sums, ElementBody Body) {
  if (onDevice() && !Staging) {
    // The loop runs on host copies of the matrices' and vectors' device
    // memory.
    Staging = true;
    SmallVector<StridedMatrix, 4> StagedMatrices;
    for (const StridedMatrix &M : Matrices) {
      Value *Zero = ConstantInt::get(N->getType(), 0);
      Value *Last = B.CreateSub(N, ConstantInt::get(N->getType(), 1));
      Value *Span = B.CreateSelect(
          B.CreateICmpSGT(N, Zero),
          B.CreateAdd(
              B.CreateMul(Last, B.CreateSExtOrTrunc(M.RowStride, N->getType())),
              B.CreateAdd(B.CreateMul(Last, B.CreateSExtOrTrunc(M.ColumnStride,
                                                                N->getType())),
                          ConstantInt::get(N->getType(), 1))),
          Zero);
      StagedMatrices.push_back(
          {stage(M.Base, Span), M.RowStride, M.ColumnStride});
    }
    SmallVector<std::pair<Value *, Value *>, 2> StagedRows, StagedColumns;
    for (auto [V, Inc] : Rows)
      StagedRows.push_back({stage(V, vectorSpan(N, Inc)), Inc});
    for (auto [V, Inc] : Columns)
      StagedColumns.push_back({stage(V, vectorSpan(N, Inc)), Inc});
    Value *R =
        eachTriangleElement(Name, N, Upper, Strict, StagedMatrices, StagedRows,
                            StagedColumns, Scalars, Sums, Body);
    unstage();
    return R;
  }
  Module &Mod = *B.GetInsertBlock()->getModule();
  LLVMContext &C = Mod.getContext();
  std::string FnName = ("gpuad.triangle." + Name + "." +
                        (Element->isDoubleTy() ? "f64" : "f32") + ".i" +
                        Twine(IntTy->getBitWidth()))
                           .str();
  auto Int = [&](Value *V) { return B.CreateSExtOrTrunc(V, IntTy); };
  SmallVector<Value *, 16> Args = {Int(N), Upper, Strict};
  for (const StridedMatrix &M : Matrices)
    Args.append({M.Base, Int(M.RowStride), Int(M.ColumnStride)});
  for (auto [V, Inc] : concat<const std::pair<Value *, Value *>>(Rows, Columns))
    Args.append({V, Int(Inc)});
  append_range(Args, Scalars);
  Function *F = Mod.getFunction(FnName);
  if (!F) {
    SmallVector<Type *, 16> Params;
    for (Value *A : Args)
      Params.push_back(A->getType());
    F = Function::Create(
        FunctionType::get(Sums ? Element : Type::getVoidTy(C), Params, false),
        GlobalValue::InternalLinkage, FnName, Mod);
    F->addFnAttr(Attribute::AlwaysInline);
    BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
    BasicBlock *Column = BasicBlock::Create(C, "column", F);
    BasicBlock *Row = BasicBlock::Create(C, "row", F);
    BasicBlock *NextColumn = BasicBlock::Create(C, "next.column", F);
    BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
    IRBuilder<> EB(Entry);
    Type *I64 = EB.getInt64Ty();
    auto Arg64 = [&](unsigned I) { return EB.CreateSExt(F->getArg(I), I64); };
    Value *Count = Arg64(0), *IsUpper = F->getArg(1);
    Value *IsStrict = EB.CreateZExt(F->getArg(2), I64);
    unsigned NextArg = 3;
    SmallVector<std::array<Value *, 3>, 2> Mats;
    for (unsigned K = 0; K < Matrices.size(); ++K, NextArg += 3)
      Mats.push_back(
          {F->getArg(NextArg), Arg64(NextArg + 1), Arg64(NextArg + 2)});
    SmallVector<std::pair<Value *, Value *>, 2> RowVs, ColumnVs;
    for (unsigned K = 0; K < Rows.size(); ++K, NextArg += 2)
      RowVs.push_back({F->getArg(NextArg), Arg64(NextArg + 1)});
    for (unsigned K = 0; K < Columns.size(); ++K, NextArg += 2)
      ColumnVs.push_back({F->getArg(NextArg), Arg64(NextArg + 1)});
    SmallVector<Value *, 2> ScalarParams;
    for (unsigned K = 0; K < Scalars.size(); ++K)
      ScalarParams.push_back(F->getArg(NextArg + K));
    Value *Zero = ConstantFP::get(Element, 0.0);
    EB.CreateCondBr(EB.CreateICmpSGT(Count, EB.getInt64(0)), Column, Exit);
    // Column j: rows [0, j - strict] (upper) or [j + strict, n - 1].
    IRBuilder<> CB(Column);
    PHINode *J = CB.CreatePHI(I64, 2, "j");
    J->addIncoming(CB.getInt64(0), Entry);
    PHINode *ColumnSum = Sums ? CB.CreatePHI(Element, 2) : nullptr;
    if (ColumnSum)
      ColumnSum->addIncoming(Zero, Entry);
    Value *First =
        CB.CreateSelect(IsUpper, CB.getInt64(0), CB.CreateAdd(J, IsStrict));
    Value *End = CB.CreateSelect(
        IsUpper, CB.CreateAdd(CB.CreateSub(J, IsStrict), CB.getInt64(1)),
        Count);
    CB.CreateCondBr(CB.CreateICmpSLT(First, End), Row, NextColumn);
    IRBuilder<> RB(Row);
    PHINode *I = RB.CreatePHI(I64, 2, "i");
    I->addIncoming(First, Column);
    PHINode *RowSum = Sums ? RB.CreatePHI(Element, 2) : nullptr;
    if (RowSum)
      RowSum->addIncoming(ColumnSum, Column);
    SmallVector<Value *, 8> Elements;
    for (auto [Base, RS, CS] : Mats)
      Elements.push_back(
          RB.CreateGEP(Element, Base,
                       RB.CreateAdd(RB.CreateMul(I, RS), RB.CreateMul(J, CS))));
    for (auto [V, Inc] : RowVs)
      Elements.push_back(vectorElement(RB, Element, V, Inc, Count, I));
    for (auto [V, Inc] : ColumnVs)
      Elements.push_back(vectorElement(RB, Element, V, Inc, Count, J));
    Value *Result = Body(RB, Elements, ScalarParams);
    Value *NextRowSum = RowSum ? RB.CreateFAdd(RowSum, Result) : nullptr;
    if (RowSum)
      RowSum->addIncoming(NextRowSum, Row);
    Value *NextI = RB.CreateAdd(I, RB.getInt64(1));
    I->addIncoming(NextI, Row);
    RB.CreateCondBr(RB.CreateICmpSLT(NextI, End), Row, NextColumn);
    IRBuilder<> NB(NextColumn);
    PHINode *Done = nullptr;
    if (Sums) {
      Done = NB.CreatePHI(Element, 2);
      Done->addIncoming(ColumnSum, Column);
      Done->addIncoming(NextRowSum, Row);
      ColumnSum->addIncoming(Done, NextColumn);
    }
    Value *NextJ = NB.CreateAdd(J, NB.getInt64(1));
    J->addIncoming(NextJ, NextColumn);
    NB.CreateCondBr(NB.CreateICmpSLT(NextJ, Count), Column, Exit);
    IRBuilder<> XB(Exit);
    if (Sums) {
      PHINode *Total = XB.CreatePHI(Element, 2);
      Total->addIncoming(Zero, Entry);
      Total->addIncoming(Done, NextColumn);
      XB.CreateRet(Total);
    } else {
      XB.CreateRetVoid();
    }
  }
  return B.CreateCall(F, Args);
}

/// `gpuad.columns.<routine>.iN(i32 layout, iN rows, iN columns, args...)`:
/// level-1 routine \p R over each column (row, in row major) of matrices;
/// \p Args are R's own less its length, a matrix and its leading dimension
/// in place of each vector and increment.  Sums R's results.
Function *BufferCallEmitter::columnsFunction(const BufferRoutine &R,
                                             ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  std::string Name = "gpuad.columns." +
                     CallTable::spellingOf(R, calleeSpelling()) + ".i" +
                     std::to_string(IntTy->getBitWidth());
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 8> Params = {Type::getInt32Ty(C), IntTy, IntTy};
  for (Value *V : Args)
    Params.push_back(V->getType());
  if (cublas()) // the handle, last
    Params.push_back(PointerType::get(C, 0));
  Type *Ret = R.ReturnsScalar ? Element : Type::getVoidTy(C);
  Function *F = Function::Create(FunctionType::get(Ret, Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(C, "loop", F);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> EB(Entry);
  Value *RowMajor = saysRowMajor(EB, F->getArg(0), BufferSpelling::C);
  Value *Inner = EB.CreateSelect(RowMajor, F->getArg(2), F->getArg(1));
  Value *Outer = EB.CreateSExt(
      EB.CreateSelect(RowMajor, F->getArg(1), F->getArg(2)), EB.getInt64Ty());
  Value *Zero = ConstantInt::get(IntTy, 0);
  EB.CreateCondBr(EB.CreateAnd(EB.CreateICmpSGT(Inner, Zero),
                               EB.CreateICmpSGT(Outer, EB.getInt64(0))),
                  Loop, Exit);
  IRBuilder<> LB(Loop);
  PHINode *J = LB.CreatePHI(LB.getInt64Ty(), 2);
  J->addIncoming(LB.getInt64(0), Entry);
  PHINode *Sum = R.ReturnsScalar ? LB.CreatePHI(Element, 2) : nullptr;
  if (Sum)
    Sum->addIncoming(ConstantFP::get(Element, 0.0), Entry);
  // R's arguments for column J: the parameter of each argument but the
  // length (argument K's parameter is 3 + K - 1).
  SmallVector<Value *, 8> CallArgs;
  for (auto [K, Arg] : enumerate(R.Args)) {
    switch (Arg.Kind) {
    case ArgKind::Length:
      CallArgs.push_back(Inner);
      break;
    case ArgKind::Increment:
      CallArgs.push_back(ConstantInt::get(IntTy, 1));
      break;
    case ArgKind::Vector: {
      Value *Ld = LB.CreateSExt(F->getArg(2 + Arg.Increment), LB.getInt64Ty());
      CallArgs.push_back(
          LB.CreateGEP(Element, F->getArg(2 + K), LB.CreateMul(J, Ld)));
      break;
    }
    default:
      CallArgs.push_back(F->getArg(2 + K));
    }
  }
  Value *Result = emitCall(LB, R.Name, CallArgs,
                           cublas() ? F->getArg(F->arg_size() - 1) : nullptr);
  Value *Next = LB.CreateAdd(J, LB.getInt64(1));
  J->addIncoming(Next, Loop);
  Value *NextSum = Sum ? LB.CreateFAdd(Sum, Result) : nullptr;
  if (Sum)
    Sum->addIncoming(NextSum, Loop);
  LB.CreateCondBr(LB.CreateICmpSLT(Next, Outer), Loop, Exit);
  IRBuilder<> XB(Exit);
  if (!Sum) {
    XB.CreateRetVoid();
    return F;
  }
  PHINode *Total = XB.CreatePHI(Element, 2);
  Total->addIncoming(ConstantFP::get(Element, 0.0), Entry);
  Total->addIncoming(NextSum, Loop);
  XB.CreateRet(Total);
  return F;
}

Value *BufferCallEmitter::eachColumn(StringRef Name, Value *Layout, Value *Rows,
                                     Value *Columns, ArrayRef<Value *> Args) {
  const BufferRoutine *R = CallTable::bufferRoutineNamed(Name);
  assert(R && R->Args.size() == Args.size() + 1 &&
         R->Args.front().Kind == ArgKind::Length &&
         "eachColumn takes a level-1 routine's arguments less its length");
  SmallVector<Value *, 8> Passed = {Layout, Rows, Columns};
  append_range(Passed, Args);
  if (cublas()) {
    useHostScalars();
    Passed.push_back(handle());
  }
  return B.CreateCall(columnsFunction(*R, Args), Passed);
}

Value *BufferCallEmitter::temporary(Value *Count) {
  Value *Zero = ConstantInt::get(Count->getType(), 0);
  Value *Elements =
      B.CreateSExt(B.CreateSelect(B.CreateICmpSGT(Count, Zero), Count, Zero),
                   B.getInt64Ty());
  const DataLayout &DL = Call.getModule()->getDataLayout();
  Value *Bytes =
      B.CreateMul(Elements, B.getInt64(DL.getTypeAllocSize(Element)));
  Value *Block = allocate(B, Bytes, deviceHandle());
  Temporaries.push_back(Block);
  return Block;
}

void BufferCallEmitter::swapRows(Value *Columns, Value *A, Value *Ld,
                                 Value *Pivots, Value *Count, bool Inverse) {
  if (onDevice())
    return unsupported("row interchanges in device memory");
  // LAPACK's own <p>laswp_ (the program links LAPACK: it called it), every
  // argument by pointer; the inverse one interchange at a time, last first,
  // in a helper (laswp's negative increment is not read alike by every
  // LAPACK).
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  unsigned AS = M.getDataLayout().getAllocaAddrSpace();
  FunctionCallee Laswp = M.getOrInsertFunction(
      Element->isDoubleTy() ? "dlaswp_" : "slaswp_",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr},
                        false));
  std::string Name = (Twine("gpuad.swap.rows.") + (Inverse ? "inverse." : "") +
                      (Element->isDoubleTy() ? "f64" : "f32") + ".i" +
                      Twine(IntTy->getBitWidth()))
                         .str();
  Function *F = M.getFunction(Name);
  if (!F) {
    // (columns, A, ld, pivots, count)
    F = Function::Create(FunctionType::get(Type::getVoidTy(C),
                                           {IntTy, Ptr, IntTy, Ptr, IntTy},
                                           false),
                         GlobalValue::InternalLinkage, Name, M);
    auto *Entry = BasicBlock::Create(C, "entry", F);
    IRBuilder<> FB(Entry);
    auto Slot = [&](Value *V) {
      AllocaInst *S = FB.CreateAlloca(IntTy, AS, nullptr, "arg");
      FB.CreateStore(V, S);
      return S;
    };
    Value *Cols = Slot(F->getArg(0)), *LdSlot = Slot(F->getArg(2));
    Value *Count = F->getArg(4);
    Value *One = ConstantInt::get(IntTy, 1);
    if (!Inverse) {
      FB.CreateCall(Laswp, {Cols, F->getArg(1), LdSlot, Slot(One), Slot(Count),
                            F->getArg(3), Slot(One)});
      FB.CreateRetVoid();
    } else {
      Value *K = FB.CreateAlloca(IntTy, AS, nullptr, "k");
      Value *Inc = Slot(One);
      auto *Loop = BasicBlock::Create(C, "swap", F);
      auto *Done = BasicBlock::Create(C, "done", F);
      FB.CreateCondBr(FB.CreateICmpSGT(Count, ConstantInt::get(IntTy, 0)), Loop,
                      Done);
      FB.SetInsertPoint(Loop);
      PHINode *I = FB.CreatePHI(IntTy, 2, "i");
      I->addIncoming(Count, Entry);
      FB.CreateStore(I, K);
      FB.CreateCall(Laswp,
                    {Cols, F->getArg(1), LdSlot, K, K, F->getArg(3), Inc});
      Value *Next = FB.CreateSub(I, One);
      I->addIncoming(Next, Loop);
      FB.CreateCondBr(FB.CreateICmpSGT(Next, ConstantInt::get(IntTy, 0)), Loop,
                      Done);
      FB.SetInsertPoint(Done);
      FB.CreateRetVoid();
    }
  }
  auto Int = [&](Value *V) { return B.CreateSExtOrTrunc(V, IntTy); };
  B.CreateCall(F, {Int(Columns), A, Int(Ld), Pivots, Int(Count)});
}

void BufferCallEmitter::copyMatrix(Value *Rows, Value *Columns,
                                   StridedMatrix From, StridedMatrix To) {
  if (onDevice())
    return unsupported("an element-wise copy of device memory");
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &C = M.getContext();
  std::string Name =
      ("gpuad.copy.matrix." + Twine(Element->isDoubleTy() ? "f64" : "f32") +
       ".i" + Twine(IntTy->getBitWidth()))
          .str();
  Function *F = M.getFunction(Name);
  if (!F) {
    // (rows, columns, from, row stride, column stride, to, ...): column by
    // column, each element.
    Type *Ptr = PointerType::get(C, 0);
    F = Function::Create(
        FunctionType::get(Type::getVoidTy(C),
                          {IntTy, IntTy, Ptr, IntTy, IntTy, Ptr, IntTy, IntTy},
                          false),
        GlobalValue::InternalLinkage, Name, M);
    auto *Entry = BasicBlock::Create(C, "entry", F);
    auto *Column = BasicBlock::Create(C, "column", F);
    auto *Element_ = BasicBlock::Create(C, "element", F);
    auto *NextColumn = BasicBlock::Create(C, "next.column", F);
    auto *Done = BasicBlock::Create(C, "done", F);
    IRBuilder<> FB(Entry);
    Value *Zero = ConstantInt::get(IntTy, 0), *One = ConstantInt::get(IntTy, 1);
    Value *NRows = F->getArg(0), *NCols = F->getArg(1);
    FB.CreateCondBr(FB.CreateAnd(FB.CreateICmpSGT(NRows, Zero),
                                 FB.CreateICmpSGT(NCols, Zero)),
                    Column, Done);
    FB.SetInsertPoint(Column);
    PHINode *J = FB.CreatePHI(IntTy, 2, "j");
    J->addIncoming(Zero, Entry);
    FB.CreateBr(Element_);
    FB.SetInsertPoint(Element_);
    PHINode *I = FB.CreatePHI(IntTy, 2, "i");
    I->addIncoming(Zero, Column);
    auto At = [&](unsigned Base) {
      Value *Offset = FB.CreateAdd(FB.CreateMul(I, F->getArg(Base + 1)),
                                   FB.CreateMul(J, F->getArg(Base + 2)));
      return FB.CreateGEP(Element, F->getArg(Base),
                          FB.CreateSExt(Offset, FB.getInt64Ty()));
    };
    FB.CreateStore(FB.CreateLoad(Element, At(2)), At(5));
    Value *NextI = FB.CreateAdd(I, One);
    I->addIncoming(NextI, Element_);
    FB.CreateCondBr(FB.CreateICmpSLT(NextI, NRows), Element_, NextColumn);
    FB.SetInsertPoint(NextColumn);
    Value *NextJ = FB.CreateAdd(J, One);
    J->addIncoming(NextJ, NextColumn);
    FB.CreateCondBr(FB.CreateICmpSLT(NextJ, NCols), Column, Done);
    FB.SetInsertPoint(Done);
    FB.CreateRetVoid();
  }
  auto Int = [&](Value *V) { return B.CreateSExtOrTrunc(V, IntTy); };
  B.CreateCall(F, {Int(Rows), Int(Columns), From.Base, Int(From.RowStride),
                   Int(From.ColumnStride), To.Base, Int(To.RowStride),
                   Int(To.ColumnStride)});
}

void BufferCallEmitter::require(Value *Ok, StringRef Message) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee F = M.getOrInsertFunction(
      "gpuad_require",
      FunctionType::get(B.getVoidTy(), {B.getInt32Ty(), B.getPtrTy()}, false));
  B.CreateCall(F, {B.CreateZExt(Ok, B.getInt32Ty()),
                   B.CreateGlobalString(Message, "gpuad.require")});
}

void BufferCallEmitter::releaseTemporaries() {
  for (Value *Block : Temporaries)
    release(B, Block, deviceHandle());
  Temporaries.clear();
  if (!SavedMode)
    return;
  callRuntime(B, "gpuad_cublas_restore_scalars", B.getVoidTy(),
              {handle(), SavedMode});
  SavedMode = nullptr;
}

} // namespace gpuad
