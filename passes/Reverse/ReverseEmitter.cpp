//===- ReverseEmitter.cpp - Reverse-mode (adjoint) derivatives ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The forward sweep's hooks for reverse mode, the reverse blocks and the
/// control flow between them.  Adjoints of single instructions are in
/// ReverseInstructions.cpp.
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/MemoryClasses.h"
#include "Analysis/ThreadPrivacy.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/EntryPoints.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Tape/ForwardStructure.h"
#include "Tape/Tape.h"
#include "Target/TargetHooks.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "gpuad-reverse"

using namespace llvm;

namespace gpuad {

ReverseEmitter::ReverseEmitter(SweepPlanner &Ctx, const DerivativeKey &Key,
                               Function &Derivative,
                               const DerivativeSignature &Sig, bool Split)
    : ForwardSweep(Ctx, Key, Derivative), Sig(Sig), Split(Split) {}

ReverseEmitter::~ReverseEmitter() = default;

bool ReverseEmitter::run() {
  SmallVector<SweepArg, 8> Args = sweepArguments(Sig);
  // The primal's restrict parameters and those the call site proved
  // disjoint (the generated function keeps the attribute off: it also
  // receives shadows; the primal's clone carries them).
  SmallVector<bool, 8> RestrictArgs = Ctx.restrictParameters(Key);
  for (unsigned I = 0; I < Key.Args.size(); ++I)
    if (RestrictArgs[I])
      Restrict.insert(Derivative.getArg(Sig.PrimalParam[I]));
  Function &PrimalFn =
      Ctx.preprocessor().normalizedForReverse(*Key.Fn, RestrictArgs);
  bool Ok = sweep(PrimalFn, Args, Key.Ret);
  // The restrict version runs only where a run-time check found every
  // pointer it reaches memory through apart from the others (shadows
  // included): what `noalias` on each parameter says.
  if (Key.Alias == AliasVersion::Restrict)
    for (Argument &A : Derivative.args())
      if (A.getType()->isPointerTy())
        A.addAttr(Attribute::NoAlias);
  if (Ok) {
    for (BasicBlock &BB : Derivative)
      for (Instruction &I : BB)
        if (isPrimal(&I) || AugCalls.count(&I))
          Primal.insert(&I);
    buildReverse();
    zeroSharedShadows();
    dropDeferredPrimalFrees();
  }
  finishSweep();
  return Ok && !failed() && verifyGenerated("reverse");
}

// ---- Forward sweep hooks
// -----------------------------------------------------

/// Whether \p Ptr is a local integer variable that only integers are
/// stored to (a size passed by reference): its bytes are never a float's,
/// whatever the type analysis merged them with.
static bool isIntegerSlot(const Value *Ptr, const TypeInfo &TI) {
  const auto *AI = dyn_cast<AllocaInst>(Ptr);
  if (!AI || !AI->getAllocatedType()->isIntegerTy())
    return false;
  return all_of(AI->users(), [&](const User *U) {
    if (const auto *SI = dyn_cast<StoreInst>(U))
      return SI->getPointerOperand() == AI &&
             TI.isInteger(SI->getValueOperand());
    return !isa<MemTransferInst>(U);
  });
}

bool ReverseEmitter::storesShadowOf(const StoreInst &I) const {
  // Shadow memory holds adjoints, which the reverse sweep fills; the forward
  // sweep keeps shadow structures' pointers right, and their integers (a
  // size, a capacity) where the memory holds no float: a library call
  // mirrored on the shadow reads them (std::string's _M_create sizes the
  // shadow buffer from the capacity it is given by reference).
  const Value *Val = I.getValueOperand();
  if (isData(Val))
    return false;
  if (needsShadow(Val))
    return true;
  if (!isInteger(Val))
    return false;
  const Value *Ptr = orig(I.getPointerOperand());
  ConcreteType Here = TI->memoryAt(Ptr, 0);
  return Here.kind() == ConcreteType::Integer ||
         (Here.kind() == ConcreteType::Anything && !Here.mayBeFloat()) ||
         isIntegerSlot(Ptr, *TI);
}

void ReverseEmitter::emitMemTransfer(CallBase &Call) {
  // Copies of pointers are mirrored now; adjoints of copied data move back
  // in the reverse sweep.
  auto &MT = cast<MemTransferInst>(Call);
  if (TI->mayHoldPointers(MT.getRawSource()))
    ForwardSweep::emitMemTransfer(Call);
}

// ---- The reverse sweep
// -------------------------------------------------------

/// Whether memory behind \p A and \p B may overlap, for pointers in
/// different classes: objects this function allocates (stack, heap) are
/// distinct from all others; distinct globals are distinct, and a
/// noalias (restrict) argument overlaps nothing reached another way.  Other
/// arguments may overlap each other or a global: the caller may pass one
/// array twice.
bool ReverseEmitter::mayOverlap(const Value *A, const Value *B) const {
  int CA = classOf(A), CB = classOf(B);
  if (CA == -1 || CB == -1)
    return true;
  const MemoryClasses &MC = Act->classes();
  if (MC.find(CA) == MC.find(CB))
    return true;
  const unsigned Own = OriginLocal | OriginHeap;
  if ((MC.origins(CA) & ~Own) == 0 || (MC.origins(CB) & ~Own) == 0 ||
      MC.origins(CA) == OriginConstGlobal ||
      MC.origins(CB) == OriginConstGlobal)
    return false;
  const Value *UA = getUnderlyingObject(A), *UB = getUnderlyingObject(B);
  if (UA == UB)
    return true;
  if (Restrict.count(UA) || Restrict.count(UB))
    return false;
  return !(isa<GlobalValue>(UA) && isa<GlobalValue>(UB));
}

bool ReverseEmitter::isReadOnlyLoad(const LoadInst &LI) const {
  // The reverse sweep may load again what no later write may have changed.
  auto [It, New] = ReadOnlyLoads.try_emplace(&LI, false);
  if (New)
    It->second = (!Split || survivesUntilBackward(LI.getPointerOperand())) &&
                 loadSeesFinalMemory(LI);
  return It->second;
}

bool ReverseEmitter::survivesUntilBackward(const Value *P) const {
  // In split form the backward half runs later: memory it may load again
  // must be the caller's, and the caller must not write it in between.
  const Value *U = getUnderlyingObject(P);
  if (const auto *GV = dyn_cast<GlobalVariable>(U))
    return GV->isConstant();
  const auto *A = dyn_cast<Argument>(U);
  if (!A)
    return false;
  for (unsigned I = 0; I < Key.Args.size(); ++I)
    if (Derivative.getArg(Sig.PrimalParam[I]) == A)
      return I < Key.Overwritten.size() && !Key.Overwritten[I];
  return false;
}

bool ReverseEmitter::overwrittenAfterCall(const CallBase &Call,
                                          const Value *P) const {
  // Memory behind an argument survives until the callee's backward half if
  // it outlives this function's forward sweep (combined mode: anything; split
  // mode: the caller's memory, not overwritten by it) and nothing here
  // writes it after the call.
  if (Split && !survivesUntilBackward(P))
    return true;
  if (!Split) {
    const Value *U = getUnderlyingObject(P);
    bool Known =
        isa<Argument>(U) || isa<AllocaInst>(U) ||
        (isa<GlobalVariable>(U) && cast<GlobalVariable>(U)->isConstant());
    Known |= Ctx.calls().heapCall(U).has_value();
    if (!Known)
      return true;
  }
  return mayBeWrittenAfter(Call, P);
}

bool ReverseEmitter::loadSeesFinalMemory(const LoadInst &LI) const {
  return classOf(LI.getPointerOperand()) != -1 &&
         !mayBeWrittenAfter(LI, LI.getPointerOperand());
}

SmallVector<const Value *, 4>
ReverseEmitter::writtenPointers(const Instruction &I) const {
  SmallVector<const Value *, 4> Written;
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    Written.push_back(SI->getPointerOperand());
  else if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
    Written.push_back(MI->getRawDest());
  else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Written.push_back(RMW->getPointerOperand());
  else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    Written.push_back(CX->getPointerOperand());
  else if (auto Aug = AugCalls.find(&I); Aug != AugCalls.end()) {
    // A call to an augmented half writes what the call it replaced did.
    for (unsigned Op : Aug->second.WrittenOperands)
      Written.push_back(I.getOperand(Op));
    for (const WeakTrackingVH &P : Aug->second.TeamWritten)
      Written.push_back(P);
    append_range(Written, Aug->second.Globals.Globals);
  } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
    // Device memory whose free waits for the reverse sweep lives on.
    if (keepsPrimalBlock(*Call))
      return Written;
    SmallBitVector Bits = Ctx.argumentWrites().writtenArguments(*Call);
    for (unsigned K : Bits.set_bits())
      Written.push_back(Call->getArgOperand(K));
    append_range(Written, Ctx.argumentWrites().writtenGlobals(*Call).Globals);
  }
  return Written;
}

bool ReverseEmitter::writesUnnamedGlobals(const Instruction &I) const {
  if (auto Aug = AugCalls.find(&I); Aug != AugCalls.end())
    return Aug->second.Globals.Any;
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && !isa<IntrinsicInst>(Call) &&
         Ctx.argumentWrites().writtenGlobals(*Call).Any;
}

bool ReverseEmitter::runsAfter(const Instruction &From,
                               const Instruction &To) const {
  const BasicBlock *FB = From.getParent(), *TB = To.getParent();
  if (FB == TB && From.comesBefore(&To))
    return true;
  auto [It, New] = Reachable.try_emplace(FB);
  if (New) {
    // Blocks reachable from FB's successors: the forward code only (the
    // reverse sweep is entered by one branch, made last).
    SmallVector<const BasicBlock *, 16> Work(successors(FB));
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (It->second.insert(BB).second)
        append_range(Work, successors(BB));
    }
  }
  return It->second.count(TB);
}

bool ReverseEmitter::mayBeWrittenAfter(const Instruction &From,
                                       const Value *P) const {
  const MemoryClasses &MC = Act->classes();
  int PC = classOf(P);
  for (const BasicBlock &BB : Derivative)
    for (const Instruction &I : BB) {
      if (!isPrimal(&I) && !AugCalls.count(&I))
        continue;
      SmallVector<const Value *, 4> Written = writtenPointers(I);
      // A callee that writes globals it does not name (through an address
      // it loaded, or code gpuad cannot see) may write any global's memory.
      if (PC != -1 && (MC.origins(PC) & OriginGlobal) &&
          writesUnnamedGlobals(I) && runsAfter(From, I))
        return true;
      if (Written.empty() || !runsAfter(From, I))
        continue;
      for (const Value *W : Written) {
        if (mayOverlap(P, W))
          return true;
        // A call may also write through the pointers stored behind W.
        if (!isa<CallBase>(I) || PC == -1)
          continue;
        int C = classOf(W);
        for (unsigned Depth = 0; C != -1 && Depth < 4; ++Depth) {
          C = MC.contentIfAny(C);
          if (C != -1 && MC.find(C) == MC.find(PC))
            return true;
        }
      }
    }
  return false;
}

void ReverseEmitter::buildReverse() {
  FS = std::make_unique<ForwardStructure>(Derivative);
  Adj = std::make_unique<Adjoints>(
      Derivative, Batch, [this](Value *V) -> Type * { return floatView(V); });
  if (Ctx.target().isGPU())
    Privacy = std::make_unique<ThreadPrivacy>(
        Primal.getArrayRef(),
        [this](const Value *P) {
          int C = classOf(P);
          return C < 0 ? C : int(Act->classes().find(C));
        },
        [this](const Value *A, const Value *B) { return mayOverlap(A, B); },
        [this](const Value *P) { return needsShadow(P); }, Ctx.target(),
        Derivative.getParent()->getDataLayout());
  TheTape = std::make_unique<Tape>(
      Derivative, *FS, Ctx.target(), Ctx.calls(),
      [this](const LoadInst &LI) { return isReadOnlyLoad(LI); });
  TheTape->setLastIterationCache(Ctx.options().LastIterationCache);
  TheTape->setPersistent(Split);
  TheTape->setPlacementChoice(Ctx.options().TapePlacement);
  LLVMContext &C = Derivative.getContext();
  Exit = BasicBlock::Create(C, "reverse.exit", &Derivative);
  for (BasicBlock *FB : FS->blocks())
    Rev[FB] = BasicBlock::Create(C, FB->getName() + ".rev", &Derivative);
  if (!FS->returnBlock()) {
    // The function never returns: nothing to reverse.
    IRBuilder<> EB(Exit);
    EB.CreateUnreachable();
    return;
  }
  ReverseEntry = Rev[FS->returnBlock()];
  planShadowFrees();
  for (BasicBlock *FB : FS->blocks())
    reverseBlock(FB);
  finishReturn();
  TheTape->finalize();
  copyLoopHints();
  reportTape();
}

/// The reverse of a loop gets the loop's hints (`#pragma unroll 1` and the
/// like): what the user asked of the loop holds for its reverse too.
/// Without them a target's unroller may unroll a reverse loop the primal
/// kept rolled (AMDGPU does, for shared-memory tapes: many more registers).
void ReverseEmitter::copyLoopHints() {
  SmallVector<std::pair<BasicBlock *, MDNode *>, 4> Hinted;
  for (Loop *L : FS->loops().getLoopsInPreorder())
    if (MDNode *ID = L->getLoopID(); ID && Rev.count(L->getHeader()))
      Hinted.push_back({Rev[L->getHeader()], ID});
  if (Hinted.empty())
    return;
  DominatorTree DT(Derivative);
  LoopInfo RLI(DT);
  for (auto [Header, ID] : Hinted) {
    Loop *RL = RLI.getLoopFor(Header);
    if (!RL || RL->getLoopID())
      continue;
    SmallVector<Metadata *, 4> Ops = {nullptr};
    for (const MDOperand &Op : drop_begin(ID->operands()))
      Ops.push_back(Op.get());
    MDNode *New = MDNode::getDistinct(Derivative.getContext(), Ops);
    New->replaceOperandWith(0, New);
    RL->setLoopID(New);
  }
}

void ReverseEmitter::reportTape() {
  if (raw_ostream *OS = Ctx.options().TapeLayout) {
    *OS << "tape of '" << Key.Fn->getName() << "' ("
        << (Split ? "augmented and backward halves" : "combined") << ", "
        << Key.suffix() << "):\n";
    TheTape->print(*OS);
  }
  OptimizationRemarkEmitter ORE(&Derivative);
  // The summary goes where the primal starts (the first located
  // instruction of the function's own file, if any: not an inlined header
  // helper such as threadIdx's).
  const Instruction *Where = Primal.empty() ? nullptr : Primal.front();
  const DISubprogram *SP = Key.Fn->getSubprogram();
  auto InOwnFile = [&](const Instruction *I) {
    const DebugLoc &DL = I->getDebugLoc();
    return SP && DL && DL->getFile() == SP->getFile() && DL.getLine();
  };
  if (const Instruction *const *Own = find_if(Primal, InOwnFile);
      Own != Primal.end())
    Where = *Own;
  else
    for (const Instruction *I : Primal)
      if (I->getDebugLoc()) {
        Where = I;
        break;
      }
  TheTape->remark(ORE, Where);
  warnAboutTapePlace(Where);
}

/// A tape in the pool deserves more than a remark: its memory comes from
/// the pool the host provides, or else from the device heap, slower.
void ReverseEmitter::warnAboutTapePlace(const Instruction *Where) {
  TargetHooks &Target = Ctx.target();
  if (!Target.isGPU())
    return;
  DebugLoc Loc = Where ? Where->getDebugLoc() : DebugLoc();
  // The user asked for device malloc: no warning.
  if (!usesTapeArena(Target, Ctx.options().TapePlacement))
    return;
  bool UsesPool =
      !TheTape->heapLoops().empty() ||
      (TheTape->regionBytes() && (TheTape->regionPlace() == TapePlace::Pool ||
                                  TheTape->regionPlace() == TapePlace::Heap));
  if (!UsesPool)
    return;
  if (!programDeclaresTapePool(*Derivative.getParent())) {
    SmallVector<std::string, 2> What;
    if (TheTape->regionBytes() && TheTape->regionPlace() == TapePlace::Pool)
      What.push_back(std::to_string(TheTape->regionBytes()) +
                     " bytes per thread");
    if (TheTape->regionBytes() && TheTape->regionPlace() == TapePlace::Heap)
      What.push_back(std::to_string(TheTape->regionBytes()) +
                     " bytes per call");
    if (!TheTape->heapLoops().empty())
      What.push_back("arrays that grow at run time");
    Ctx.diags().warning(
        *Key.Fn, Loc,
        "this derivative keeps its tape (" + join(What, " and ") +
            ") in the global tape pool, which the program does not provide "
            "(<gpuad/tape_pool.h>), so each thread takes it from the device "
            "heap, which is slower (when the heap runs out, the kernel stops "
            "and says so: " +
            Target.heapLimitAdvice() +
            "); gpuad::setTapePool before the launch is the fast path");
    return;
  }
  // What happens when the pool is too small.
  StringRef Else = usesHeapFallback(*Derivative.getParent(), Target)
                       ? "else in the device heap"
                       : "or the kernel traps";
  for (const Loop *L : TheTape->heapLoops())
    Ctx.diags().warning(
        *Key.Fn, L->getStartLoc() ? L->getStartLoc() : Loc,
        "the tape of this loop grows at run time (its trip count, or an "
        "enclosing loop's, has no small compile-time bound): it is kept in "
        "the tape pool's arena, which needs bytes per thread beyond "
        "gpuad::tapePoolBytesPerThread() (<gpuad/tape_pool.h>), " +
            Else + "; -gpuad-tape-placement=heap uses device malloc always");
  if (TheTape->regionBytes() && TheTape->regionPlace() == TapePlace::Heap)
    Ctx.diags().warning(
        *Key.Fn, Loc,
        "the tape of this function's derivative (" +
            Twine(TheTape->regionBytes()) +
            " bytes per thread) is kept in the tape pool's arena once per "
            "call (" +
            Else +
            "): it is differentiated in split mode (a call the reverse sweep "
            "returns to, or the user's split) and larger than the " +
            Twine(MaxCarriedTapeRegion) + " bytes a split tape carries");
}

Value *ReverseEmitter::lookup(Value *V) {
  return TheTape->lookup(V, B, Context);
}

void ReverseEmitter::addAdjoint(Value *V, Value *Delta) {
  if (isa<Constant>(V) || !Delta)
    return;
  if (!isActive(V))
    return;
  Adj->add(B, V, Delta);
}

void ReverseEmitter::reverseBlock(BasicBlock *FB) {
  Context = FB;
  B.SetInsertPoint(Rev[FB]);
  // Instructions in reverse order, PHIs excepted (they are reversed on the
  // edges to the predecessors).
  SmallVector<Instruction *, 32> Insts;
  for (Instruction &I : *FB)
    if (!isa<PHINode>(I) && Primal.count(&I))
      Insts.push_back(&I);
  for (Instruction *I : reverse(Insts)) {
    B.SetCurrentDebugLocation(I->getDebugLoc());
    if (isa<FPMathOperator>(I)) {
      FastMathFlags FMF = I->getFastMathFlags();
      FMF.setNoInfs(false);
      FMF.setNoNaNs(false);
      B.setFastMathFlags(FMF);
    } else {
      B.clearFastMathFlags();
    }
    reverseInstruction(*I);
    releaseShadow(*I);
  }
  B.clearFastMathFlags();
  leaveBlock(FB);
}

BasicBlock *ReverseEmitter::edge(BasicBlock *FB, BasicBlock *Pred) {
  BasicBlock *E = BasicBlock::Create(Derivative.getContext(),
                                     FB->getName() + ".from." + Pred->getName(),
                                     &Derivative);
  IRBuilderBase::InsertPointGuard Guard(B);
  B.SetInsertPoint(E);
  // PHIs: the adjoint goes to the value that came in on this edge.
  for (PHINode &PN : FB->phis())
    if (isPrimal(&PN) && isActive(&PN))
      addAdjoint(PN.getIncomingValueForBlock(Pred), Adj->take(B, &PN));
  // Leaving FB for a block inside loops FB is outside: FB is their exit, and
  // their reverse starts at the iteration they were left in.
  LoopInfo &LI = FS->loops();
  SmallVector<Loop *, 4> Entered;
  for (Loop *L = LI.getLoopFor(Pred); L && !L->contains(FB);
       L = L->getParentLoop())
    Entered.push_back(L);
  for (Loop *L : reverse(Entered))
    TheTape->enterLoop(L, lookup(FS->exitIteration(L, FB)), B);
  B.CreateBr(Rev[Pred]);
  return E;
}

void ReverseEmitter::leaveBlock(BasicBlock *FB) {
  ArrayRef<BasicBlock *> Preds = FS->predecessors(FB);
  LoopInfo &LI = FS->loops();
  Loop *L = LI.getLoopFor(FB);
  if (L && L->getHeader() == FB && FS->iv(L)) {
    // The first iteration came from the preheader; the others from the latch.
    BasicBlock *ToPre = edge(FB, L->getLoopPreheader());
    BasicBlock *ToLatch = edge(FB, L->getLoopLatch());
    TheTape->leaveLoop(L, ToPre->getTerminator());
    {
      IRBuilderBase::InsertPointGuard Guard(B);
      B.SetInsertPoint(ToLatch->getTerminator());
      TheTape->decrement(L, B);
    }
    Value *Iter = TheTape->index(L, B);
    B.CreateCondBr(B.CreateICmpEQ(Iter, B.getInt64(0)), ToPre, ToLatch);
    return;
  }
  if (Preds.empty()) {
    B.CreateBr(Exit); // the entry block: done
    return;
  }
  if (Preds.size() == 1) {
    B.CreateBr(edge(FB, Preds[0]));
    return;
  }
  Value *From = lookup(FS->predecessorIndex(FB));
  SwitchInst *SI = B.CreateSwitch(From, edge(FB, Preds[0]), Preds.size() - 1);
  for (unsigned K = 1; K < Preds.size(); ++K)
    SI->addCase(cast<ConstantInt>(ConstantInt::get(From->getType(), K)),
                edge(FB, Preds[K]));
}

void ReverseEmitter::finishReturn() {
  // The forward sweep ends where the primal returned: seed the adjoint of the
  // returned value and enter the reverse sweep.
  BasicBlock *R = FS->returnBlock();
  auto *Ret = cast<ReturnInst>(R->getTerminator());
  Value *RV = Ret->getReturnValue();
  B.SetInsertPoint(Ret);
  ReturnValue = RV;
  if (Split && RV && typeHoldsPointer(RV->getType()) &&
      Key.Ret == ReturnShadow::Shadow) {
    // A returned struct holding a pointer has a shadow (its pointers'
    // shadows, its integers); floats in it also get a seed.  Pointers into
    // memory without shadow are their own shadow, as everywhere (a struct
    // of them and floats is data here: only where its pointers are
    // shadowed does it have a shadow).
    ReturnShadowValue = needsShadow(RV) || !isData(RV) ? shadowPointer(RV, *Ret)
                                                       : Batch.splat(B, RV);
  }
  if (RV && DerivativeSignature::seedsReturn(Key) && isActive(RV)) {
    // Combined: the seed is 1.  Split: the backward half's seed parameter,
    // added where the reverse sweep starts.
    IRBuilderBase::InsertPointGuard Guard(B);
    if (Split)
      B.SetInsertPoint(ReverseEntry, ReverseEntry->getFirstInsertionPt());
    Adj->add(B, RV,
             Split ? static_cast<Value *>(Derivative.getArg(Sig.SeedParam))
                   : Batch.splat(B, ConstantFP::get(RV->getType(), 1.0)));
  }
  ForwardEnd = B.CreateBr(ReverseEntry);
  Primal.remove(Ret);
  Ret->eraseFromParent();

  // After the reverse sweep: the shadows it kept for its end, then the
  // adjoints of the enzyme_out arguments.
  B.SetInsertPoint(Exit);
  freeListedShadows();
  freeScratchShadows(B, [&](Value *V) { return lookup(V); });
  SmallVector<Value *, 4> Adjoints;
  for (unsigned ArgNo : Sig.AdjointArgs) {
    Argument *A = Derivative.getArg(Sig.PrimalParam[ArgNo]);
    // + 0.0 turns an empty sum's -0.0 into the +0.0 a caller expects.
    Adjoints.push_back(
        addAdjoints(B, Adj->take(B, A), Batch.zero(A->getType())));
  }
  Value *Result = Sig.packAdjoints(B, RV, Adjoints);
  if (Result)
    B.CreateRet(Result);
  else
    B.CreateRetVoid();
}

} // namespace gpuad
