//===- CheckpointedLoops.cpp - Time loops reversed from snapshots ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/CheckpointedLoops.h"

#include "Normalize/CheckpointedLoopState.h"

#include "Checkpointing.h"
#include "Normalize/KernelLaunches.h"
#include "Normalize/ParallelRegions.h"
#include "Normalize/RuntimeMemory.h"
#include "Rules/CallTable.h"
#include "Rules/KernelLaunch.h"
#include "Support/FunctionAttributes.h"
#include "Support/Inlining.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace llvm;

namespace gpuad {

/// The marker calls of \p F.
static SmallVector<CallInst *, 2> markersIn(Function &F) {
  SmallVector<CallInst *, 2> Found;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName() == CheckpointMarker)
        Found.push_back(Call);
  return Found;
}

/// `Step`: \p C's body from the header to the latch or an exit, the header
/// PHIs read from and written back to the scalar state's two parts.
static Function *makeStep(Function &C, Loop &L, const CheckpointedLoop &CL) {
  LLVMContext &Ctx = C.getContext();
  unsigned NumPointers = CL.PointerPhis.size();
  SmallVector<Type *, 8> Params(C.getFunctionType()->params());
  Params.append(NumPointers + 2, PointerType::get(Ctx, 0));
  Function *S = Function::Create(
      FunctionType::get(Type::getInt1Ty(Ctx), Params, false),
      GlobalValue::InternalLinkage, C.getName() + ".step", C.getParent());
  ValueToValueMapTy VMap;
  for (auto [From, To] : zip(C.args(), S->args())) {
    VMap[&From] = &To;
    To.setName(From.getName());
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(S, &C, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  recopyFunctionAttributes(C, *S);
  unsigned StateParam = C.arg_size() + NumPointers;
  Value *Part[2] = {S->getArg(StateParam), S->getArg(StateParam + 1)};
  // A thread's own record holds the state: its adjoints are plain adds.
  if (CL.ThreadSlots)
    for (unsigned K : {StateParam, StateParam + 1})
      S->addParamAttr(K, Attribute::get(Ctx, ThreadPrivateAttr));
  Part[0]->setName("state");
  Part[1]->setName("state.inactive");
  StructType *PartTy[2] = {CL.Active, CL.Inactive};
  auto Address = [&](IRBuilderBase &B, unsigned K) {
    auto [Which, Field] = CL.FieldOf[K];
    return B.CreateStructGEP(PartTy[Which], Part[Which], Field);
  };
  auto *Header = cast<BasicBlock>(VMap[L.getHeader()]);
  auto *Latch = cast<BasicBlock>(VMap[L.getLoopLatch()]);
  BasicBlock *Entry = &S->getEntryBlock();

  SmallVector<PHINode *, 8> Phis;
  for (PHINode &P : Header->phis())
    Phis.push_back(&P);
  auto Buffers = [&](unsigned K) {
    SmallVector<Value *, 2> V;
    for (unsigned ArgNo : CL.PointerParams[K])
      V.push_back(S->getArg(ArgNo));
    return V;
  };
  BasicBlock *Next = BasicBlock::Create(Ctx, "next.step", S);
  IRBuilder<> B(Next);
  for (auto [K, P] : enumerate(Phis)) {
    Value *V = P->getIncomingValueForBlock(Latch);
    if (P->getType()->isPointerTy())
      V = bufferIndex(B, V, Buffers(K));
    B.CreateStore(V, Address(B, K));
  }
  B.CreateRet(B.getTrue());
  Latch->getTerminator()->replaceSuccessorWith(Header, Next);
  B.SetInsertPoint(Entry->getTerminator());
  for (auto [K, P] : enumerate(Phis)) {
    auto Carried = find(CL.PointerPhis, K);
    Value *V = Carried != CL.PointerPhis.end()
                   ? static_cast<Value *>(S->getArg(
                         C.arg_size() + (Carried - CL.PointerPhis.begin())))
                   : B.CreateLoad(P->getType(), Address(B, K), P->getName());
    P->replaceAllUsesWith(V);
    P->eraseFromParent();
  }
  for (ReturnInst *R : Returns) {
    ReturnInst::Create(Ctx, ConstantInt::getFalse(Ctx), R->getIterator());
    R->eraseFromParent();
  }
  // A pointer the code after the loop uses is the augmented half's to store
  // (no adjoint flows through it): the step's derivative keeps no pointer
  // in memory, so it can check its buffers apart at run time.
  for (const CheckpointedLoop::PointerOutput &O : CL.PointerOutputs)
    cast<Instruction>(VMap[O.Store])->eraseFromParent();
  return S;
}

Value *bufferIndex(IRBuilderBase &B, Value *P, ArrayRef<Value *> Buffers) {
  Value *Index = B.getInt32(Buffers.size() - 1);
  for (unsigned J = Buffers.size() - 1; J-- > 0;)
    Index = B.CreateSelect(B.CreateICmpEQ(P, Buffers[J]), B.getInt32(J), Index);
  return Index;
}

Value *bufferAt(IRBuilderBase &B, Value *Index, ArrayRef<Value *> Buffers) {
  Value *P = Buffers.back();
  for (unsigned J = Buffers.size() - 1; J-- > 0;)
    P = B.CreateSelect(B.CreateICmpEQ(Index, B.getInt32(J)), Buffers[J], P);
  return P;
}

Value *CheckpointedLoop::scalarAddress(IRBuilderBase &B, Value *Block,
                                       unsigned Phi) const {
  auto [Which, Field] = FieldOf[Phi];
  return B.CreateInBoundsGEP(
      Scalars, Block, {B.getInt32(0), B.getInt32(Which), B.getInt32(Field)});
}

Value *CheckpointedLoop::shadowAddress(IRBuilderBase &B, Value *Shadow,
                                       unsigned Phi) const {
  return B.CreateStructGEP(Active, Shadow, FieldOf[Phi].second);
}

/// The functions the loop calls that have bodies gpuad would differentiate
/// become part of it (a step function at -O0), a few levels deep, so that
/// what they write is found like the loop's own writes.  One that launches
/// kernels is inlined as its normalised clone, whose launches the state
/// finder reads.
static void inlineBodies(Function &C, const CallTable &Calls,
                         FunctionAnalysisManager &FAM,
                         function_ref<Function &(Function &)> Normalized) {
  auto Inline = [&](const Function &Callee) {
    // Nor gpuad's own functions (the dispatchers of calls through
    // pointers), which have their own derivatives.
    if (&Callee == &C || Calls.hasDerivativeRow(Callee) ||
        Calls.isCustom(Callee) || Callee.hasFnAttribute("enzyme_inactive") ||
        Callee.getName().starts_with("gpuad."))
      return false;
    // Not a recursive one.
    for (const Instruction &I : instructions(Callee))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (Call->getCalledFunction() == &Callee)
          return false;
    return true;
  };
  auto Launching = [&] {
    for (Instruction &I : instructions(C))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *G = Call->getCalledFunction();
            G && !G->isDeclaration() && Inline(*G) &&
            mayLaunchKernels(*G, Calls) && !isLaunchStub(*G, Calls)) {
          Function &N = Normalized(*G);
          if (N.getFunctionType() == G->getFunctionType())
            Call->setCalledFunction(&N);
        }
  };
  bool Inlined = false;
  for (unsigned Level = 0; Level < 4; ++Level) {
    Launching();
    if (!inlineCallsTo(C, Inline))
      break;
    Inlined = true;
  }
  if (!Inlined)
    return;
  // Their locals (an -O0 callee's parameters in stack slots) as values.
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::PreserveCFG));
  FPM.run(C, FAM);
  FAM.clear(C, C.getName());
}

namespace {

/// Outlines one loop of a clone and describes it, or says why not.
class LoopOutliner {
public:
  LoopOutliner(Function &F, FunctionAnalysisManager &FAM,
               const CallTable &Calls, uint64_t BudgetBytes, bool PerThread)
      : F(F), FAM(FAM), Calls(Calls), BudgetBytes(BudgetBytes),
        PerThread(PerThread) {}

  /// Outlines the loop headed by \p Header; its description, or nullopt
  /// with why().  Where the function gets its body back, \p Pending (the
  /// headers of loops still to try) are moved to the blocks of that body.
  std::optional<CheckpointedLoop>
  run(BasicBlock *Header, MutableArrayRef<BasicBlock *> Pending,
      function_ref<Function &(Function &)> Normalized);
  const std::string &why() const { return Why; }

private:
  std::string bufferName(const Value *Base) const;
  bool describe(CheckpointedLoop &CL, Loop &L, ScalarEvolution &SE,
                const DominatorTree &DT);
  bool fitsOneThread(CheckpointedLoop &CL);

  Function &F;
  FunctionAnalysisManager &FAM;
  const CallTable &Calls;
  uint64_t BudgetBytes;
  bool PerThread;
  unsigned FirstOutput = 0;
  /// Per parameter of the outlined loop: what the caller passes.
  SmallVector<Value *, 8> Passed;
  std::string Why;
};

} // namespace

std::optional<CheckpointedLoop>
LoopOutliner::run(BasicBlock *Header, MutableArrayRef<BasicBlock *> Pending,
                  function_ref<Function &(Function &)> Normalized) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  Loop *L = LI.getLoopFor(Header);
  if (!L || !L->isLoopSimplifyForm()) {
    Why = "it is not in simplified form";
    return std::nullopt;
  }
  CodeExtractor CE(L->getBlocks(), &DT, /*AggregateArgs=*/false, nullptr,
                   nullptr, &FAM.getResult<AssumptionAnalysis>(F),
                   /*AllowVarArgs=*/false, /*AllowAlloca=*/true, nullptr,
                   "checkpointed");
  if (!CE.isEligible()) {
    Why = "it cannot be outlined";
    return std::nullopt;
  }
  // If the loop cannot be checkpointed, the clone gets back exactly the
  // body it had (inlining the outlined loop back would leave the
  // extractor's slots for live-outs behind).
  ValueToValueMapTy BackupMap;
  Function *Backup = CloneFunction(&F, BackupMap);
  auto Restore = [&] {
    for (BasicBlock *&BB : Pending)
      if (Value *Copy = BackupMap.lookup(BB)) // not one outlined before
        BB = cast<BasicBlock>(Copy);
    // Block by block: the function's own references (its personality)
    // stay.
    for (BasicBlock &BB : F)
      BB.dropAllReferences();
    while (!F.empty())
      F.begin()->eraseFromParent();
    for (auto [A, Saved] : zip(F.args(), Backup->args()))
      Saved.replaceAllUsesWith(&A);
    F.splice(F.end(), Backup);
    // The copy's locations name its own copy of the subprogram.
    F.setSubprogram(Backup->getSubprogram());
    Backup->eraseFromParent();
    FAM.clear(F, F.getName());
  };
  CodeExtractorAnalysisCache CEAC(F);
  SetVector<Value *> Inputs, Outputs;
  Function *C = CE.extractCodeRegion(CEAC, Inputs, Outputs);
  FirstOutput = Inputs.size();
  Passed.assign(Inputs.begin(), Inputs.end());
  Passed.append(Outputs.begin(), Outputs.end());
  FAM.clear(F, F.getName());
  if (!C) {
    Restore();
    Why = "it cannot be outlined";
    return std::nullopt;
  }
  C->setLinkage(GlobalValue::InternalLinkage);
  // The extractor brackets the call with lifetime markers of the outputs'
  // slots; the reverse sweep uses them after (as normalizedForReverse's
  // clones never have any).
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->isLifetimeStartOrEnd())
      II->eraseFromParent();
  CallBase *Call = cast<CallBase>(C->user_back());
  // The loop is analysed with its callees inlined, in a copy: if it cannot
  // be checkpointed, the original goes back as it was (the callees stay
  // calls, differentiated as before).
  ValueToValueMapTy VMap;
  Function *Work = CloneFunction(C, VMap);
  inlineBodies(*Work, Calls, FAM, Normalized);
  CheckpointedLoop CL;
  CL.Loop = Work;
  // A marker asking for as many snapshots as fit, with no budget given.
  CL.BudgetBytes = BudgetBytes ? BudgetBytes : DefaultBudgetMiB << 20;
  auto &CLI = FAM.getResult<LoopAnalysis>(*Work);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(*Work);
  bool Ok = CLI.getTopLevelLoops().size() == 1 &&
            describe(CL, *CLI.getTopLevelLoops().front(), SE,
                     FAM.getResult<DominatorTreeAnalysis>(*Work));
  FAM.clear(*Work, Work->getName());
  FAM.clear(*C, C->getName());
  if (Ok) {
    Call->setCalledFunction(Work);
    Work->takeName(C);
    C->eraseFromParent();
    Backup->eraseFromParent();
    return CL;
  }
  // Back as it was: the loop keeps its full tape.
  Work->eraseFromParent();
  Restore();
  C->eraseFromParent();
  return std::nullopt;
}

/// A region's buffer as the user knows it: a parameter of the function, a
/// local, a global.
std::string LoopOutliner::bufferName(const Value *Base) const {
  if (const auto *A = dyn_cast<Argument>(Base);
      A && A->getParent() != &F && A->getArgNo() < Passed.size()) {
    if (A->getArgNo() >= FirstOutput)
      return "the slot of a value it leaves to the code after it";
    Base = Passed[A->getArgNo()];
  }
  if (isa<GlobalVariable>(Base) || Base->hasName())
    return "'" + Base->getName().str() + "'";
  if (const auto *A = dyn_cast<Argument>(Base))
    return "parameter " + std::to_string(A->getArgNo() + 1);
  if (isa<AllocaInst>(Base))
    return "a local";
  return "a buffer computed before the loop";
}

bool LoopOutliner::describe(CheckpointedLoop &CL, Loop &L, ScalarEvolution &SE,
                            const DominatorTree &DT) {
  Function &C = *CL.Loop;
  BasicBlock *Entry = &C.getEntryBlock();
  // The snapshots the marker asks for (the last marker's, if several).
  for (CallInst *Marker : markersIn(C)) {
    Value *N = Marker->getArgOperand(0);
    if (auto *I = dyn_cast<Instruction>(N); I && I->getParent() != Entry) {
      Why = "its snapshot count is computed inside the loop";
      return false;
    }
    CL.Snapshots = N;
    Marker->eraseFromParent();
  }
  StateFinder State(L, SE, DT, Calls, FirstOutput,
                    [this](const Value &V) { return bufferName(&V); });
  if (!State.run()) {
    Why = State.why();
    return false;
  }
  CL.PointerOutputs = std::move(State.pointerOutputs());
  // The scalar state: the header PHIs, and where each starts.
  SmallVector<Type *, 8> Fields[2];
  for (PHINode &P : L.getHeader()->phis()) {
    Type *T = P.getType();
    if (T->isPointerTy()) {
      CL.PointerPhis.push_back(CL.FieldOf.size());
      T = Type::getInt32Ty(C.getContext());
    }
    unsigned Part = T->isFPOrFPVectorTy() ? 0 : 1;
    CL.FieldOf.push_back({Part, unsigned(Fields[Part].size())});
    Fields[Part].push_back(T);
    Value *Init = P.getIncomingValueForBlock(L.getLoopPreheader());
    auto *Param = dyn_cast<Argument>(Init);
    if (!Param && !isa<Constant>(Init)) {
      Why = "a value it carries starts as one computed inside the "
            "outlined loop";
      return false;
    }
    CL.EntryParam.push_back(Param ? int(Param->getArgNo()) : -1);
    SmallVector<unsigned, 2> Buffers;
    if (P.getType()->isPtrOrPtrVectorTy() &&
        (Buffers = buffersOf(&P, L)).empty()) {
      Why = "it carries a pointer that can hold other values than the "
            "buffers passed to it";
      return false;
    }
    CL.PointerParams.push_back(std::move(Buffers));
  }
  CL.Active = StructType::get(C.getContext(), Fields[0]);
  CL.Inactive = StructType::get(C.getContext(), Fields[1]);
  CL.Scalars = StructType::get(C.getContext(), {CL.Active, CL.Inactive});

  // The regions and the trip count, computed where the loop starts.
  SCEVExpander Expand(SE, "checkpoint");
  Instruction *At = Entry->getTerminator();
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  auto AddRegion = [&](Value *Base, Value *Start, Value *Bytes) {
    int ReadOnly = -1;
    if (auto *A = dyn_cast<Argument>(Base); A && !State.writes(A))
      ReadOnly = A->getArgNo();
    else if (A)
      CL.WrittenParams.push_back(A->getArgNo());
    bool Output =
        isa<Argument>(Base) && cast<Argument>(Base)->getArgNo() >= FirstOutput;
    CL.Regions.push_back({bufferName(Base), Start, Bytes, ReadOnly,
                          State.onDevice(Base), /*WholeAllocation=*/!Bytes,
                          Output});
  };
  for (auto &[Base, Extent] : State.extents()) {
    if (State.wholeAllocations().contains(Base))
      continue;
    const SCEV *Bytes = SE.getSMaxExpr(SE.getMinusSCEV(Extent.Max, Extent.Min),
                                       SE.getZero(I64));
    if (!Expand.isSafeToExpandAt(Extent.Min, At) ||
        !Expand.isSafeToExpandAt(Bytes, At)) {
      Why = "the extent of what it reaches of " + bufferName(Base) +
            " is not known when the loop starts";
      return false;
    }
    Value *Lo = Expand.expandCodeFor(Extent.Min, I64, At);
    AddRegion(Base, B.CreatePtrAdd(Base, Lo, Base->getName() + ".region"),
              Expand.expandCodeFor(Bytes, I64, At));
  }
  // What kernels reach: each pointer's whole allocation.
  CL.DeviceApi = State.deviceApi().str();
  for (Value *Base : State.wholeAllocations())
    AddRegion(Base, Base, nullptr);
  CL.UnboundedReads = State.unboundedReads();
  if (PerThread && !fitsOneThread(CL))
    return false;
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (!isa<SCEVCouldNotCompute>(Taken) && Expand.isSafeToExpandAt(Taken, At))
    CL.Steps = B.CreateAdd(
        B.CreateZExtOrTrunc(Expand.expandCodeFor(Taken, nullptr, At), I64),
        B.getInt64(1), "steps");
  CL.Step = makeStep(C, L, CL);
  return true;
}

/// In device code: the state is the scalars (a thread's snapshots have no
/// room for memory), and the record's size is fixed.
bool LoopOutliner::fitsOneThread(CheckpointedLoop &CL) {
  for (const CheckpointedLoop::Region &R : CL.Regions)
    if (R.ReadOnlyParam < 0 && !R.Output) {
      Why = "in device code a loop's state must be its scalars, and it "
            "reaches the memory of " +
            R.What;
      return false;
    }
  auto *Count = dyn_cast_or_null<ConstantInt>(CL.Snapshots);
  if (!Count || Count->isNegative()) {
    Why = "in device code the snapshot count must be a constant (each "
          "thread's snapshots have a fixed place)";
    return false;
  }
  uint64_t ScalarBytes = CL.Loop->getDataLayout().getTypeAllocSize(CL.Scalars);
  CL.ThreadSlots =
      Count->isZero()
          ? int32_t(std::clamp<uint64_t>(DefaultThreadSnapshotBytes /
                                             std::max<uint64_t>(ScalarBytes, 1),
                                         2, 64))
          : int32_t(std::min<uint64_t>(Count->getZExtValue(), 4096));
  return true;
}

/// A local that holds a device pointer (or a stream) the runtime stored
/// through its address -- `cudaMalloc(&a, n)` -- and that is otherwise only
/// loaded and stored becomes a value: the runtime stores into a slot of its
/// own, read into the local at once.  A time loop that swaps such buffers
/// then carries them in PHIs, as the state finder needs.
static bool promoteRuntimeSlots(Function &F, const CallTable &Calls) {
  SmallVector<AllocaInst *, 4> Promotable;
  for (Instruction &I : F.getEntryBlock()) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || !AI->isStaticAlloca() || !AI->getAllocatedType()->isPointerTy())
      continue;
    bool Runtime = false, Other = false;
    for (User *U : AI->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U))
        Other |= LI->isVolatile() || LI->getType() != AI->getAllocatedType();
      else if (auto *SI = dyn_cast<StoreInst>(U))
        Other |= SI->isVolatile() || SI->getValueOperand() == AI ||
                 SI->getValueOperand()->getType() != AI->getAllocatedType();
      else if (auto *Call = dyn_cast<CallBase>(U)) {
        const Function *Callee = Call->getCalledFunction();
        std::optional<RuntimeCall> R =
            Callee ? Calls.runtimeCall(*Callee) : std::nullopt;
        bool Out =
            R && Call->arg_size() > 0 && Call->getArgOperand(0) == AI &&
            (R->K == RuntimeCall::Allocate || R->K == RuntimeCall::Inactive) &&
            count(Call->args(), AI) == 1;
        bool Lifetime = isa<IntrinsicInst>(Call) &&
                        cast<IntrinsicInst>(Call)->isLifetimeStartOrEnd();
        Runtime |= Out;
        Other |= !Out && !Lifetime;
      } else {
        Other = true;
      }
    }
    if (Runtime && !Other)
      Promotable.push_back(AI);
  }
  if (Promotable.empty())
    return false;
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  for (AllocaInst *AI : Promotable) {
    for (User *U : make_early_inc_range(AI->users())) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call)
        continue;
      if (cast<Instruction>(U)->isLifetimeStartOrEnd()) {
        Call->eraseFromParent();
        continue;
      }
      Value *Slot = Entry.CreateAlloca(AI->getAllocatedType(), nullptr,
                                       AI->getName() + ".runtime");
      Call->setArgOperand(0, Slot);
      IRBuilder<> After(Call->getNextNode());
      After.CreateStore(After.CreateLoad(AI->getAllocatedType(), Slot), AI);
    }
  }
  DominatorTree DT(F);
  PromoteMemToReg(Promotable, DT);
  return true;
}

/// Whether \p L launches kernels, itself or through a function it calls.
static bool launchesKernels(const Loop &L, const CallTable &Calls) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        if (Callee &&
            (Callee->getName() == NormalizedLaunchName ||
             (!Callee->isDeclaration() && mayLaunchKernels(*Callee, Calls))))
          return true;
      }
  return false;
}

/// The loops of \p F to checkpoint, by header: those with a marker, and
/// with a budget the outermost loops that hold a loop or launch kernels
/// (and no marked one).
static SmallVector<BasicBlock *, 4>
chosenLoops(Function &F, LoopInfo &LI, bool Budget, const CallTable &Calls) {
  SmallVector<BasicBlock *, 4> Headers;
  SmallPtrSet<Loop *, 4> Marked;
  for (CallInst *Marker : markersIn(F))
    if (Loop *L = LI.getLoopFor(Marker->getParent());
        L && Marked.insert(L).second)
      Headers.push_back(L->getHeader());
  if (Budget)
    for (Loop *L : LI.getTopLevelLoops())
      if ((!L->isInnermost() || launchesKernels(*L, Calls)) &&
          none_of(Marked, [&](Loop *M) { return L->contains(M); }))
        Headers.push_back(L->getHeader());
  // A loop inside one outlined before it has moved with it (skipped).
  return Headers;
}

void CheckpointedLoops::lowerRuntimeForms() {
  for (auto &[Loop, CL] : Loops)
    for (Function *F : {CL.Loop, CL.Step}) {
      lowerRuntimeMemory(*F);
      lowerKernelLaunches(*F);
      lowerParallelRegions(*F);
    }
}

void CheckpointedLoops::outline(
    Function &F, const Function &User, FunctionAnalysisManager &FAM,
    function_ref<Function &(Function &)> Normalized) {
  // An outlined loop is checkpointed as a whole or not at all, and a
  // step's own loops run inside one step of the loop.
  if (!Enabled || any_of(Loops, [&](const auto &Entry) {
        return Entry.second.Step == &User || Entry.second.Loop == &User;
      }))
    return;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<BasicBlock *, 4> Headers =
      chosenLoops(F, LI, BudgetMiB != 0 && !PerThread, Calls);
  if (Headers.empty())
    return;
  if (promoteRuntimeSlots(F, Calls))
    FAM.clear(F, F.getName());
  OptimizationRemarkEmitter ORE(&F);
  for (unsigned I = 0; I < Headers.size(); ++I) {
    Loop *L = FAM.getResult<LoopAnalysis>(F).getLoopFor(Headers[I]);
    if (!L)
      continue; // inside a loop outlined already
    DebugLoc Loc = L->getStartLoc();
    LoopOutliner Outliner(F, FAM, Calls, uint64_t(BudgetMiB) << 20, PerThread);
    std::optional<CheckpointedLoop> CL = Outliner.run(
        Headers[I], MutableArrayRef(Headers).drop_front(I + 1), Normalized);
    if (!CL) {
      // (The header's block may be gone: the function got its body back.)
      ORE.emit([&] {
        return OptimizationRemarkMissed("gpuad", "NotCheckpointed", Loc,
                                        &F.getEntryBlock())
               << "loop not checkpointed (it keeps its full tape): "
               << Outliner.why();
      });
      continue;
    }
    ORE.emit([&] {
      const DataLayout &DL = F.getDataLayout();
      OptimizationRemark R("gpuad", "Checkpointed", Loc,
                           &CL->Loop->getEntryBlock());
      R << "loop checkpointed: its state is "
        << ore::NV("ScalarBytes", DL.getTypeAllocSize(CL->Scalars))
        << " B of scalars (" << ore::NV("Scalars", CL->FieldOf.size())
        << (CL->FieldOf.size() == 1 ? " value)" : " values)");
      for (const CheckpointedLoop::Region &Reg : CL->Regions) {
        if (CL->ThreadSlots && Reg.Output)
          continue; // (not in a thread's snapshots)
        R << (Reg.ReadOnlyParam < 0 ? ", the memory it writes of "
                                    : ", what it reads of ")
          << Reg.What;
        if (Reg.Device)
          R << " on the device";
        if (Reg.ReadOnlyParam >= 0)
          R << " if code after the loop may change it";
        if (Reg.WholeAllocation)
          R << " (its whole allocation)";
        if (auto *Bytes = dyn_cast_or_null<ConstantInt>(Reg.Bytes))
          R << " (" << ore::NV("Bytes", Bytes->getZExtValue()) << " B)";
      }
      R << "; snapshots: ";
      auto *Count = dyn_cast_or_null<ConstantInt>(CL->Snapshots);
      if (CL->ThreadSlots)
        R << ore::NV("Snapshots", CL->ThreadSlots) << " per thread";
      else if (Count && Count->getSExtValue() > 0)
        R << ore::NV("Snapshots", Count->getSExtValue());
      else if (CL->Snapshots && !Count)
        R << "as many as __gpuad_checkpoint says";
      else
        R << "as many as " << ore::NV("BudgetMiB", CL->BudgetBytes >> 20)
          << " MiB hold";
      R << (CL->Steps ? ", scheduled by binomial checkpointing (revolve; the "
                        "trip count is known when the loop starts)"
                      : ", thinned online (the trip count is known only when "
                        "the loop ends)");
      // Revolve's cost where both counts are constants.
      auto *Steps = dyn_cast_or_null<ConstantInt>(CL->Steps);
      int64_t Slots = CL->ThreadSlots ? CL->ThreadSlots
                      : Count         ? Count->getSExtValue()
                                      : 0;
      if (Slots > 0 && Steps) {
        int64_t T = Steps->getSExtValue();
        double PerStep =
            double(gpuad_checkpoint_forward_steps(T, Slots)) / double(T);
        std::string Text;
        raw_string_ostream(Text) << format("%.2f", PerStep);
        R << "; each step runs " << Text << " times forward on average";
      }
      return R;
    });
    CL->Loc = Loc;
    Loops[CL->Loop] = std::move(*CL);
  }
}

} // namespace gpuad
