//===- CheckpointedDerivatives.cpp - Reversing loops from snapshots -------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Planner/CheckpointedDerivatives.h"

#include "Normalize/CheckpointedLoops.h"
#include "Planner/DerivativeContext.h"
#include "Planner/RuntimeDisjointness.h"
#include "Support/FunctionAttributes.h"
#include "Support/GpuRuntimeApi.h"

#include "ThreadLoop.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace gpuad {

namespace {

/// The runtime's entry points (runtime/CheckpointedLoop.h; in device code
/// runtime/ThreadLoop.h, whose record the generated code provides).
struct LoopRuntime {
  LoopRuntime(Module &M, bool PerThread) {
    LLVMContext &C = M.getContext();
    Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C),
         *I32 = Type::getInt32Ty(C), *Void = Type::getVoidTy(C);
    auto Get = [&](StringRef Name, Type *Ret, ArrayRef<Type *> Params) {
      return M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
    };
    if (PerThread) {
      Begin = Get("gpuad_thread_loop_begin", Void, {Ptr, I64, I32, I64});
      Scalars = Get("gpuad_thread_loop_scalars", Ptr, {Ptr});
      Step = Get("gpuad_thread_loop_step", Void, {Ptr, I64});
      End = Get("gpuad_thread_loop_end", Void, {Ptr, I64});
      Reverse = Get("gpuad_thread_loop_reverse", Void, {Ptr, Ptr, Ptr, Ptr});
      return;
    }
    Begin = Get("gpuad_loop_begin", Ptr, {I64, I32, I64, I64, I32});
    Region = Get("gpuad_loop_region", Void, {Ptr, I32, Ptr, I64});
    DeviceRegion =
        Get("gpuad_loop_device_region", Void, {Ptr, I32, Ptr, I64, Ptr});
    Scalars = Get("gpuad_loop_scalars", Ptr, {Ptr});
    Step = Get("gpuad_loop_step", Void, {Ptr, I64});
    End = Get("gpuad_loop_end", Void, {Ptr, I64});
    Reverse = Get("gpuad_loop_reverse", Void, {Ptr, Ptr, Ptr, Ptr});
  }
  FunctionCallee Begin, Region, DeviceRegion, Scalars, Step, End, Reverse;
};

/// A local of type \p T at the entry of \p B's function, addressed as a
/// generic pointer (AMDGPU's locals live in an address space of their own).
Value *genericLocal(IRBuilderBase &B, Type *T, const Twine &Name) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  Value *Slot = Entry.CreateAlloca(T, nullptr, Name);
  return B.CreatePointerBitCastOrAddrSpaceCast(
      Slot, PointerType::get(B.getContext(), 0));
}

/// `__gpuad_<api>_loop_memory`: the runtime's allocation, release and copy
/// of device memory as the record takes them (gpuad_device_memory), each a
/// small function emitted once per module.
Constant *deviceMemory(Module &M, StringRef Api) {
  std::string Name = ("__gpuad_" + Api + "_loop_memory").str();
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C),
       *Void = Type::getVoidTy(C);
  GpuRuntimeApi Runtime(M, Api);
  auto Make = [&](StringRef Suffix, Type *Ret, ArrayRef<Type *> Params,
                  function_ref<Value *(IRBuilderBase &, Function &)> Body) {
    Function *F = Function::Create(FunctionType::get(Ret, Params, false),
                                   GlobalValue::LinkOnceODRLinkage,
                                   Name + "." + Suffix, M);
    F->setVisibility(GlobalValue::HiddenVisibility);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    if (Value *R = Body(B, *F))
      B.CreateRet(R);
    else
      B.CreateRetVoid();
    return F;
  };
  Function *Allocate =
      Make("allocate", Ptr, {I64}, [&](IRBuilderBase &B, Function &F) {
        return Runtime.allocate(B, F.getArg(0),
                                "a checkpointed loop's snapshot");
      });
  Function *Release =
      Make("release", Void, {Ptr}, [&](IRBuilderBase &B, Function &F) {
        Runtime.release(B, F.getArg(0));
        return nullptr;
      });
  Function *Copy =
      Make("copy", Void, {Ptr, Ptr, I64}, [&](IRBuilderBase &B, Function &F) {
        Runtime.copyWhenIdle(B, F.getArg(0), F.getArg(1), F.getArg(2));
        return nullptr;
      });
  Constant *Ops = ConstantStruct::getAnon({Allocate, Release, Copy});
  auto *GV = new GlobalVariable(M, Ops->getType(), /*isConstant=*/true,
                                GlobalValue::LinkOnceODRLinkage, Ops, Name);
  GV->setVisibility(GlobalValue::HiddenVisibility);
  return GV;
}

/// The outlined loop's header (the entry block's successor) and latch.
std::pair<BasicBlock *, BasicBlock *> headerAndLatch(Function &F) {
  BasicBlock *Entry = &F.getEntryBlock();
  BasicBlock *Header = Entry->getSingleSuccessor();
  for (BasicBlock *Pred : predecessors(Header))
    if (Pred != Entry)
      return {Header, Pred};
  return {Header, nullptr};
}

/// The backward half's arguments, kept in a context block for the
/// callbacks, and the adjoints they accumulate.
class StepContext {
public:
  StepContext(const CheckpointedLoop &CL, Function &Bwd,
              const DerivativeSignature &Sig)
      : CL(CL), Sig(Sig) {
    // Pointers are kept generic: the layout must not depend on address
    // spaces whose pointer sizes differ (AMDGPU's 32-bit scratch pointers
    // become 64-bit ones on the emulator).  (The thread's record, a tape
    // by value, is reached through the record's field instead.)
    LLVMContext &C = Bwd.getContext();
    Type *Generic = PointerType::get(C, 0);
    for (Argument &A : Bwd.args())
      Types.push_back(int(A.getArgNo()) == Sig.TapeParam ? Generic
                                                         : A.getType());
    LoopField = Types.size();
    Types.push_back(Generic); // the record
    Types.push_back(Generic); // scalars' shadow
    AdjointField = Types.size();
    for (unsigned ArgNo : Sig.AdjointArgs)
      Types.push_back(CL.Loop->getArg(ArgNo)->getType());
    SmallVector<Type *, 16> Fields;
    for (Type *T : Types)
      Fields.push_back(T->isPointerTy() ? Generic : T);
    Ty = StructType::get(C, Fields);
  }

  StructType *type() const { return Ty; }
  Value *field(IRBuilderBase &B, Value *Ctx, unsigned K) const {
    return B.CreateStructGEP(Ty, Ctx, K);
  }
  Value *load(IRBuilderBase &B, Value *Ctx, unsigned K) const {
    Value *V = B.CreateLoad(Ty->getElementType(K), field(B, Ctx, K));
    return B.CreatePointerBitCastOrAddrSpaceCast(V, Types[K]);
  }
  void store(IRBuilderBase &B, Value *Ctx, unsigned K, Value *V) const {
    B.CreateStore(
        B.CreatePointerBitCastOrAddrSpaceCast(V, Ty->getElementType(K)),
        field(B, Ctx, K));
  }
  Value *primal(IRBuilderBase &B, Value *Ctx, unsigned ArgNo) const {
    return load(B, Ctx, Sig.PrimalParam[ArgNo]);
  }
  Value *shadow(IRBuilderBase &B, Value *Ctx, unsigned ArgNo) const {
    int P = Sig.ShadowParam[ArgNo];
    return P < 0 ? nullptr : load(B, Ctx, P);
  }
  Value *record(IRBuilderBase &B, Value *Ctx) const {
    return load(B, Ctx, LoopField);
  }
  Value *scalarShadow(IRBuilderBase &B, Value *Ctx) const {
    return load(B, Ctx, LoopField + 1);
  }
  /// The buffer carried pointer \p J (of CL.PointerPhis) holds now, or its
  /// shadow.
  Value *carried(IRBuilderBase &B, Value *Ctx, Value *Scalars, unsigned J,
                 bool Shadow) const {
    unsigned Phi = CL.PointerPhis[J];
    Value *Index =
        B.CreateLoad(B.getInt32Ty(), CL.scalarAddress(B, Scalars, Phi));
    SmallVector<Value *, 2> Buffers;
    for (unsigned ArgNo : CL.PointerParams[Phi])
      Buffers.push_back(Shadow ? shadow(B, Ctx, ArgNo) : primal(B, Ctx, ArgNo));
    return bufferAt(B, Index, Buffers);
  }
  unsigned recordField() const { return LoopField; }
  unsigned adjointField(unsigned K) const { return AdjointField + K; }

private:
  const CheckpointedLoop &CL;
  const DerivativeSignature &Sig;
  SmallVector<Type *, 16> Types; ///< per field, its value's own type
  StructType *Ty;
  unsigned LoopField, AdjointField;
};

Function *makeCallback(Function &Bwd, StringRef Suffix,
                       ArrayRef<Type *> Params) {
  LLVMContext &C = Bwd.getContext();
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), Params, false),
                       GlobalValue::InternalLinkage,
                       Bwd.getName() + "." + Suffix, Bwd.getParent());
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

/// `advance(context, from, to)`: the steps [from, to) on the current state.
Function *makeAdvance(const CheckpointedLoop &CL, Function &Bwd,
                      const StepContext &SC, const LoopRuntime &RT) {
  LLVMContext &C = Bwd.getContext();
  Type *I64 = Type::getInt64Ty(C);
  Function *F =
      makeCallback(Bwd, "advance", {PointerType::get(C, 0), I64, I64});
  Value *Ctx = F->getArg(0), *From = F->getArg(1), *To = F->getArg(2);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Body = BasicBlock::Create(C, "step", F);
  BasicBlock *Exit = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < CL.Loop->arg_size(); ++I)
    Args.push_back(SC.primal(B, Ctx, I));
  Value *Scalars = B.CreateCall(RT.Scalars, {SC.record(B, Ctx)});
  B.CreateCondBr(B.CreateICmpSLT(From, To), Body, Exit);
  B.SetInsertPoint(Body);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  // The carried pointers change from step to step.
  for (unsigned J = 0; J < CL.PointerPhis.size(); ++J)
    Args.push_back(SC.carried(B, Ctx, Scalars, J, /*Shadow=*/false));
  Args.push_back(B.CreateStructGEP(CL.Scalars, Scalars, 0));
  Args.push_back(B.CreateStructGEP(CL.Scalars, Scalars, 1));
  B.CreateCall(CL.Step, Args);
  Value *Next = B.CreateAdd(I, B.getInt64(1));
  I->addIncoming(From, Entry);
  I->addIncoming(Next, Body);
  B.CreateCondBr(B.CreateICmpSLT(Next, To), Body, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return F;
}

/// `reverse_step(context, step)`: the step's combined reverse derivative
/// on the current state, its adjoints added to the context's.
Function *makeReverseStep(DerivativeContext &Ctx, const CheckpointedLoop &CL,
                          const DerivativeKey &Key, Function &Bwd,
                          const StepContext &SC, const LoopRuntime &RT) {
  LLVMContext &C = Bwd.getContext();
  Function *F = makeCallback(Bwd, "reverse_step",
                             {PointerType::get(C, 0), Type::getInt64Ty(C)});
  Value *Context = F->getArg(0);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Scalars = B.CreateCall(RT.Scalars, {SC.record(B, Context)});
  Value *ScalarShadow = SC.scalarShadow(B, Context);
  DerivativeKey StepKey;
  StepKey.Fn = CL.Step;
  StepKey.Mode = DiffMode::ReverseCombined;
  StepKey.Team = Key.Team;
  for (ArgActivity A : Key.Args)
    StepKey.Args.push_back(A == ArgActivity::DupNoNeed ? ArgActivity::Dup : A);
  StepKey.Args.append(CL.PointerPhis.size(), ArgActivity::Dup);
  StepKey.Args.push_back(ArgActivity::Dup);
  StepKey.Args.push_back(ArgActivity::Const);
  // The buffers are parameters: where the step's derivative may load them
  // again instead of keeping what it read is checked at run time.
  if (Ctx.options().RuntimeAliasCheck) {
    DisjointnessPlan P = planRuntimeDisjointness(Ctx, StepKey);
    if (P.possible())
      StepKey.Alias =
          P.Pairs.empty() ? AliasVersion::Restrict : AliasVersion::Checked;
  }
  Function *D = Ctx.getOrCreate(StepKey);
  const DerivativeSignature &DS = Ctx.signatureOf(*D);
  // What the step leaves in the loop's memory is never read: the schedule
  // restores a snapshot before anything runs on the state again (and the
  // loop's final state after the last step), so the primal's stores that
  // the reverse sweep does not read back are dead.
  for (Function *V : Ctx.implementations(StepKey)) {
    const DerivativeSignature &VS = Ctx.signatureOf(*V);
    for (unsigned I = 0; I < StepKey.Args.size(); ++I)
      if (Argument *A = V->getArg(VS.PrimalParam[I]);
          A->getType()->isPointerTy())
        A->addAttr(Attribute::DeadOnReturn);
  }
  SmallVector<Value *, 16> Args(DS.Type->getNumParams());
  unsigned Carried = CL.Loop->arg_size();
  for (unsigned I = 0; I < Carried; ++I) {
    Args[DS.PrimalParam[I]] = SC.primal(B, Context, I);
    if (DS.ShadowParam[I] >= 0)
      Args[DS.ShadowParam[I]] = SC.shadow(B, Context, I);
  }
  for (unsigned J = 0; J < CL.PointerPhis.size(); ++J) {
    Args[DS.PrimalParam[Carried + J]] =
        SC.carried(B, Context, Scalars, J, /*Shadow=*/false);
    Args[DS.ShadowParam[Carried + J]] =
        SC.carried(B, Context, Scalars, J, /*Shadow=*/true);
  }
  unsigned State = Carried + CL.PointerPhis.size();
  Args[DS.PrimalParam[State]] = B.CreateStructGEP(CL.Scalars, Scalars, 0);
  Args[DS.ShadowParam[State]] = ScalarShadow;
  Args[DS.PrimalParam[State + 1]] = B.CreateStructGEP(CL.Scalars, Scalars, 1);
  CallInst *Result = B.CreateCall(D, Args);
  for (unsigned K = 0; K < DS.AdjointArgs.size(); ++K) {
    Value *Slot = SC.field(B, Context, SC.adjointField(K));
    Value *Adjoint = DS.adjointOf(B, Result, K);
    B.CreateStore(B.CreateFAdd(B.CreateLoad(Adjoint->getType(), Slot), Adjoint),
                  Slot);
  }
  B.CreateRetVoid();
  return F;
}

} // namespace

/// Whether the memory behind parameter \p ArgNo may change between the
/// halves (DerivativeKey::Overwritten; empty: all may).
static bool mayChange(const DerivativeKey &Key, unsigned ArgNo) {
  return Key.Overwritten.empty() || Key.Overwritten[ArgNo];
}

/// The regions a run under \p Key keeps: what the loop writes, and what it
/// reads that may change before the backward half.
static SmallVector<const CheckpointedLoop::Region *, 4>
keptRegions(const CheckpointedLoop &CL, const DerivativeKey &Key) {
  SmallVector<const CheckpointedLoop::Region *, 4> Kept;
  for (const CheckpointedLoop::Region &R : CL.Regions)
    if (R.ReadOnlyParam < 0 || mayChange(Key, R.ReadOnlyParam))
      Kept.push_back(&R);
  return Kept;
}

Type *checkpointRecordType(const CheckpointedLoop &CL) {
  LLVMContext &C = CL.Loop->getContext();
  if (!CL.ThreadSlots)
    return PointerType::get(C, 0);
  int64_t Bytes = gpuad_thread_loop_bytes(
      CL.ThreadSlots, CL.Loop->getDataLayout().getTypeAllocSize(CL.Scalars));
  return ArrayType::get(Type::getInt64Ty(C), Bytes / 8);
}

/// Why the halves cannot serve \p Key (a reverse key); empty if they can.
static std::string refusal(const CheckpointedLoop &CL,
                           const DerivativeKey &Key) {
  if (Key.Width != 1)
    return "it is a batched derivative (width " + std::to_string(Key.Width) +
           "): snapshots and reverse steps are made at width 1 only";
  // A thread's snapshots hold its scalars only (the live-outs' slots are
  // read before the backward half runs).
  if (CL.ThreadSlots &&
      any_of(keptRegions(CL, Key),
             [](const CheckpointedLoop::Region *R) { return !R->Output; }))
    return "a thread's snapshots hold its scalars only, and this loop's "
           "state includes memory";
  // A buffer the loop writes that has no shadow: where its memory carries
  // derivatives all the same (a constant argument's scratch shadow), the
  // step's derivative could not see them; the full tape can.
  if (any_of(CL.WrittenParams, [&](unsigned ArgNo) {
        return Key.Args[ArgNo] == ArgActivity::Const;
      }))
    return "it writes a buffer this derivative gives no shadow (a constant "
           "argument), whose memory may carry derivatives all the same";
  // Memory read anywhere that may change: only the full tape keeps it.
  if (any_of(CL.UnboundedReads,
             [&](unsigned ArgNo) { return mayChange(Key, ArgNo); }))
    return "it reads memory at offsets no trip count bounds that may "
           "change before the reverse sweep";
  auto Shadowed = [&](ArrayRef<unsigned> Buffers) {
    return none_of(Buffers, [&](unsigned ArgNo) {
      return Key.Args[ArgNo] == ArgActivity::Const;
    });
  };
  if (!all_of(CL.PointerParams, Shadowed) ||
      !all_of(CL.PointerOutputs, [&](const CheckpointedLoop::PointerOutput &O) {
        return Key.Args[O.Out] == ArgActivity::Const || Shadowed(O.Buffers);
      }))
    return "a buffer it carries in a pointer has no shadow in this "
           "derivative (a constant argument)";
  return "";
}

bool canCheckpoint(const CheckpointedLoop &CL, const DerivativeKey &Key) {
  if (!isReverse(Key.Mode))
    return false;
  std::string Why = refusal(CL, Key);
  if (Why.empty())
    return true;
  OptimizationRemarkEmitter ORE(CL.Loop);
  ORE.emit([&] {
    return OptimizationRemarkMissed("gpuad", "NotCheckpointed", CL.Loc,
                                    &CL.Loop->getEntryBlock())
           << "loop not checkpointed in this derivative (it keeps its full "
              "tape there): "
           << Why;
  });
  return false;
}

void emitCheckpointedAugmented(const CheckpointedLoop &CL,
                               const DerivativeKey &Key, Function &D,
                               const DerivativeSignature &Sig) {
  Function &C = *CL.Loop;
  ValueToValueMapTy VMap;
  for (Argument &A : C.args())
    VMap[&A] = D.getArg(Sig.PrimalParam[A.getArgNo()]);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&D, &C, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  recopyFunctionAttributes(C, D);
  D.setLinkage(GlobalValue::InternalLinkage);
  LoopRuntime RT(*D.getParent(), CL.ThreadSlots);
  auto Mapped = [&](Value *V) { return MapValue(V, VMap); };

  BasicBlock *Entry = &D.getEntryBlock();
  auto [Header, Latch] = headerAndLatch(D);
  IRBuilder<> B(Entry->getTerminator());
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  const DataLayout &DL = D.getDataLayout();
  Value *Steps = CL.Steps ? Mapped(CL.Steps) : B.getInt64(-1);
  uint64_t ScalarBytes = DL.getTypeAllocSize(CL.Scalars);
  Value *Record;
  if (CL.ThreadSlots) {
    Record = genericLocal(B, checkpointRecordType(CL), "record");
    B.CreateCall(RT.Begin, {Record, Steps, B.getInt32(CL.ThreadSlots),
                            B.getInt64(ScalarBytes)});
  } else {
    Value *Snapshots = CL.Snapshots
                           ? B.CreateSExtOrTrunc(Mapped(CL.Snapshots), I32)
                           : B.getInt32(0);
    SmallVector<const CheckpointedLoop::Region *, 4> Regions =
        keptRegions(CL, Key);
    Record = B.CreateCall(
        RT.Begin, {Steps, Snapshots, B.getInt64(CL.BudgetBytes),
                   B.getInt64(ScalarBytes), B.getInt32(Regions.size())});
    for (auto [K, R] : enumerate(Regions)) {
      Value *Start = Mapped(R->Start), *Bytes = nullptr;
      if (R->WholeAllocation)
        std::tie(Start, Bytes) =
            GpuRuntimeApi(*D.getParent(), CL.DeviceApi).allocationOf(B, Start);
      else
        Bytes = Mapped(R->Bytes);
      SmallVector<Value *, 5> Args = {Record, B.getInt32(K), Start,
                                      B.CreateSExtOrTrunc(Bytes, I64)};
      if (R->Device)
        Args.push_back(deviceMemory(*D.getParent(), CL.DeviceApi));
      B.CreateCall(R->Device ? RT.DeviceRegion : RT.Region, Args);
    }
  }
  Value *Scalars = B.CreateCall(RT.Scalars, {Record});

  // Each step announced with its state, before it runs.
  SmallVector<PHINode *, 8> Phis;
  for (PHINode &P : Header->phis())
    Phis.push_back(&P);
  B.SetInsertPoint(Header, Header->begin());
  PHINode *StepNo = B.CreatePHI(I64, 2, "step");
  B.SetInsertPoint(Header, Header->getFirstInsertionPt());
  for (auto [K, P] : enumerate(Phis)) {
    Value *V = P;
    if (P->getType()->isPointerTy()) {
      SmallVector<Value *, 2> Buffers;
      for (unsigned ArgNo : CL.PointerParams[K])
        Buffers.push_back(D.getArg(Sig.PrimalParam[ArgNo]));
      V = bufferIndex(B, P, Buffers);
    }
    B.CreateStore(V, CL.scalarAddress(B, Scalars, K));
  }
  B.CreateCall(RT.Step, {Record, StepNo});
  B.SetInsertPoint(Latch->getTerminator());
  StepNo->addIncoming(B.getInt64(0), Entry);
  StepNo->addIncoming(B.CreateAdd(StepNo, B.getInt64(1)), Latch);

  // A pointer the code after the loop uses gets its shadow.
  for (const CheckpointedLoop::PointerOutput &O : CL.PointerOutputs) {
    int OutShadow = Sig.ShadowParam[O.Out];
    if (OutShadow < 0)
      continue;
    auto *Store = cast<StoreInst>(VMap[O.Store]);
    B.SetInsertPoint(Store->getNextNode());
    Value *P = Store->getValueOperand();
    Value *Shadow = D.getArg(Sig.ShadowParam[O.Buffers.front()]);
    for (unsigned ArgNo : drop_begin(O.Buffers))
      Shadow =
          B.CreateSelect(B.CreateICmpEQ(P, D.getArg(Sig.PrimalParam[ArgNo])),
                         D.getArg(Sig.ShadowParam[ArgNo]), Shadow);
    B.CreateStore(Shadow, D.getArg(OutShadow));
  }

  for (ReturnInst *R : Returns) {
    B.SetInsertPoint(R);
    B.CreateCall(RT.End, {Record, B.CreateAdd(StepNo, B.getInt64(1))});
    Value *Primal = Sig.PrimalField >= 0 ? R->getReturnValue() : nullptr;
    Value *Tape = CL.ThreadSlots
                      ? B.CreateLoad(checkpointRecordType(CL), Record)
                      : Record;
    B.CreateRet(Sig.packAugmented(B, Tape, Primal, nullptr));
    R->eraseFromParent();
  }
}

void emitCheckpointedBackward(DerivativeContext &Ctx,
                              const CheckpointedLoop &CL,
                              const DerivativeKey &Key, Function &D,
                              const DerivativeSignature &Sig) {
  LLVMContext &C = D.getContext();
  LoopRuntime RT(*D.getParent(), CL.ThreadSlots);
  StepContext SC(CL, D, Sig);
  IRBuilder<> B(BasicBlock::Create(C, "entry", &D));
  Value *Context = genericLocal(B, SC.type(), "context");
  for (Argument &A : D.args())
    if (int(A.getArgNo()) != Sig.TapeParam)
      SC.store(B, Context, A.getArgNo(), &A);
  Value *Record = D.getArg(Sig.TapeParam);
  if (CL.ThreadSlots) {
    Value *Local = genericLocal(B, Record->getType(), "record");
    B.CreateStore(Record, Local);
    Record = Local;
  }
  SC.store(B, Context, SC.recordField(), Record);
  Value *ScalarShadow = genericLocal(B, CL.Active, "scalars.shadow");
  B.CreateStore(Constant::getNullValue(CL.Active), ScalarShadow);
  SC.store(B, Context, SC.recordField() + 1, ScalarShadow);
  for (unsigned K = 0; K < Sig.AdjointArgs.size(); ++K) {
    Type *T = CL.Loop->getArg(Sig.AdjointArgs[K])->getType();
    B.CreateStore(Constant::getNullValue(T),
                  SC.field(B, Context, SC.adjointField(K)));
  }
  Function *Advance = makeAdvance(CL, D, SC, RT);
  Function *ReverseStep = makeReverseStep(Ctx, CL, Key, D, SC, RT);
  B.CreateCall(RT.Reverse, {Record, Advance, ReverseStep, Context});

  // The adjoints of the arguments: each step's, and the state's at the start.
  SmallVector<Value *, 4> Adjoints;
  for (auto [K, ArgNo] : enumerate(Sig.AdjointArgs)) {
    Value *Sum = SC.load(B, Context, SC.adjointField(K));
    for (auto [Phi, From] : enumerate(CL.EntryParam))
      if (From == int(ArgNo))
        Sum = B.CreateFAdd(
            Sum, B.CreateLoad(Sum->getType(),
                              CL.shadowAddress(B, ScalarShadow, Phi)));
    Adjoints.push_back(Sum);
  }
  Value *Ret = Sig.packAdjoints(B, nullptr, Adjoints);
  if (Ret)
    B.CreateRet(Ret);
  else
    B.CreateRetVoid();
}

} // namespace gpuad
