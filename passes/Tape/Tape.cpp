//===- Tape.cpp - What the reverse sweep gets from the forward sweep ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Tape/Tape.h"

#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Sweep/ForwardSweep.h"
#include "Tape/ForwardStructure.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "gpuad-tape"

using namespace llvm;

STATISTIC(NumCached, "Number of forward values cached for the reverse sweep");
STATISTIC(NumRecomputed, "Number of values recomputed in the reverse sweep");
STATISTIC(NumDynamicFrames, "Number of loops whose frames grow at run time");

namespace gpuad {

Tape::Tape(Function &F, ForwardStructure &FS, TargetHooks &Target,
           const CallTable &Calls,
           std::function<bool(const LoadInst &)> IsReadOnly)
    : F(F), FS(FS), Target(Target), Calls(Calls),
      IsReadOnly(std::move(IsReadOnly)) {
  analyzeLoops();
}

void Tape::analyzeLoops() {
  // Before any reverse code exists, while the dominator tree and loop info
  // describe the whole function.  Counts no frame uses are removed by
  // clean-up.  The symbolic maximum serves: frames beyond the last
  // iteration are never touched.
  TargetLibraryInfoImpl TLII(F.getParent()->getTargetTriple());
  TargetLibraryInfo TLI(TLII, &F);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, FS.dominators(), FS.loops());
  SCEVExpander Expander(SE, "gpuad.trip");
  // Constant bounds, for fixed frame arrays.  Bounds from the range of the
  // counter's type (2^31 for `i < n`) are no use: a nest of more than 2^16
  // iterations keeps heap arrays sized by the actual trip counts.
  for (Loop *L : FS.loops().getLoopsInPreorder()) {
    uint64_t Max = SE.getSmallConstantMaxTripCount(L);
    const Loop *P = L->getParentLoop();
    uint64_t Outer = P ? NestTrips.lookup(P) : 1;
    MaxTrips[L] = Max;
    NestTrips[L] =
        Max && Outer && Outer <= (uint64_t(1) << 16) / Max ? Outer * Max : 0;
  }
  for (Loop *L : FS.loops().getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader();
    const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(L);
    if (!Pre || isa<SCEVCouldNotCompute>(BTC) || !Expander.isSafeToExpand(BTC))
      continue;
    // A bound from the counter's type (2^31 for a bound reloaded in every
    // iteration, as at -O0) would size the array absurdly: grow instead.
    if (const auto *C = dyn_cast<SCEVConstant>(BTC);
        C && C->getAPInt().getActiveBits() > 16)
      continue;
    Value *Count = Expander.expandCodeFor(BTC, Type::getInt64Ty(F.getContext()),
                                          Pre->getTerminator());
    IRBuilder<> B(Pre->getTerminator());
    TripCounts[L] = B.CreateAdd(B.CreateZExtOrTrunc(Count, B.getInt64Ty()),
                                B.getInt64(1), "trip");
  }
  // The iteration a loop with one exit is left in is its backedge-taken
  // count, where scalar evolution knows it exactly.
  for (Loop *L : FS.loops().getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader(), *Exit = L->getUniqueExitBlock();
    PHINode *Iter = Exit ? FS.exitIteration(L, Exit) : nullptr;
    if (!Pre || !Iter || !L->getExitingBlock())
      continue;
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC) || !Expander.isSafeToExpand(BTC))
      continue;
    Value *Count = Expander.expandCodeFor(BTC, nullptr, Pre->getTerminator());
    IRBuilder<> B(Pre->getTerminator());
    ExitCounts[Iter] = B.CreateZExtOrTrunc(Count, B.getInt64Ty(), "exit.iter");
  }
  findDecidingBranches();
  // Header PHIs that step by a loop-invariant amount (counters, pointers
  // walking an array) are start + step * iteration: no need to cache them.
  for (Loop *L : FS.loops().getLoopsInPreorder()) {
    BasicBlock *Pre = L->getLoopPreheader();
    if (!Pre || !FS.iv(L))
      continue;
    for (PHINode &PN : L->getHeader()->phis()) {
      if (FS.isBookkeeping(&PN) || !SE.isSCEVable(PN.getType()))
        continue;
      const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&PN));
      if (!AR || AR->getLoop() != L || !AR->isAffine())
        continue;
      const SCEV *Start = AR->getStart(), *Step = AR->getStepRecurrence(SE);
      if (!SE.isLoopInvariant(Start, L) || !SE.isLoopInvariant(Step, L) ||
          !Expander.isSafeToExpand(Start) || !Expander.isSafeToExpand(Step))
        continue;
      Type *StepTy =
          PN.getType()->isPointerTy()
              ? F.getParent()->getDataLayout().getIndexType(PN.getType())
              : PN.getType();
      Instruction *At = Pre->getTerminator();
      Affine[&PN] = {Expander.expandCodeFor(Start, PN.getType(), At),
                     Expander.expandCodeFor(Step, StepTy, At)};
    }
  }
}

Value *Tape::recomputeAffine(PHINode *PN, IRBuilderBase &B,
                             const BasicBlock *Context) {
  auto [Start, Step] = Affine.lookup(PN);
  const Loop *L = FS.loops().getLoopFor(PN->getParent());
  Value *S = lookup(Start, B, Context), *T = lookup(Step, B, Context);
  Value *Iter = B.CreateZExtOrTrunc(index(L, B), T->getType());
  Value *Offset = B.CreateMul(Iter, T);
  if (PN->getType()->isPointerTy())
    return B.CreateGEP(B.getInt8Ty(), S, Offset, PN->getName() + ".re");
  return B.CreateAdd(S, Offset, PN->getName() + ".re");
}

void Tape::findDecidingBranches() {
  // A join whose predecessors split at one conditional branch D: the side D
  // took says which predecessor the join was entered from.
  const DominatorTree &DT = FS.dominators();
  for (BasicBlock &BB : F) {
    PHINode *From = FS.predecessorIndex(&BB);
    if (!From)
      continue;
    BasicBlock *D = nullptr;
    for (BasicBlock *P : From->blocks())
      D = D ? DT.findNearestCommonDominator(D, P) : P;
    // The condition is read in the join's own iteration: D must not be in a
    // loop the join is outside of.
    const Loop *DL = D ? FS.loops().getLoopFor(D) : nullptr;
    if (DL && !DL->contains(&BB))
      continue;
    auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      continue;
    Constant *Side[2] = {nullptr, nullptr};
    bool Decided = true;
    for (unsigned K = 0; K < From->getNumIncomingValues() && Decided; ++K) {
      BasicBlock *P = From->getIncomingBlock(K);
      auto *Index = cast<Constant>(From->getIncomingValue(K));
      int Taken = -1;
      for (unsigned S = 0; S < 2; ++S) {
        BasicBlock *Succ = Br->getSuccessor(S);
        bool Via = (P == D && Succ == &BB) ||
                   (P != D && DT.dominates(BasicBlockEdge(D, Succ), P));
        if (Via)
          Taken = Taken == -1 ? int(S) : 2;
      }
      if (Taken < 0 || Taken > 1 || (Side[Taken] && Side[Taken] != Index))
        Decided = false;
      else
        Side[Taken] = Index;
    }
    if (Decided && Side[0] && Side[1])
      DecidedBy[From] = {Br->getCondition(), Side[0], Side[1]};
  }
}

Value *Tape::recomputeBookkeeping(PHINode *PN, IRBuilderBase &B,
                                  const BasicBlock *Context) {
  if (Value *Count = ExitCounts.lookup(PN))
    return lookup(Count, B, Context);
  auto It = DecidedBy.find(PN);
  assert(It != DecidedBy.end() &&
         "bookkeeping PHI recomputed without its deciding branch");
  const Decision &D = It->second;
  return B.CreateSelect(lookup(D.Cond, B, Context), D.IfTrue, D.IfFalse,
                        PN->getName() + ".re");
}

Tape::~Tape() {
  // Left when the reverse sweep stopped at an error before finalize().
  if (FrameArrayPlaceholder && FrameArrayPlaceholder->use_empty())
    FrameArrayPlaceholder->eraseFromParent();
}

/// Cheap intrinsics the reverse sweep recomputes rather than caches.
static bool isCheapIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::fabs:
  case Intrinsic::copysign:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::sqrt:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::round:
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
  case Intrinsic::abs:
    return true;
  default:
    return false;
  }
}

bool Tape::recomputable(const Instruction *I) const {
  // A part of a call's result is cached by itself, not the whole result.
  if (const auto *EV = dyn_cast<ExtractValueInst>(I))
    return !isa<CallBase>(EV->getAggregateOperand());
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I) || isa<CastInst>(I) ||
      isa<GetElementPtrInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<InsertValueInst>(I) || isa<ExtractElementInst>(I) ||
      isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I) ||
      isa<FreezeInst>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(I);
      II && isCheapIntrinsic(II->getIntrinsicID()))
    return true;
  // On a GPU a math function's result (exp, log, sin, ...) in a loop is
  // rebuilt where nothing it is computed from has to be kept: keeping it
  // would be the only bytes on that path of the cut, a frame in local
  // memory or the pool, whose traffic costs more than the math.  Outside
  // loops a kept value is a register, which rebuilding would not save.  A
  // host keeps it (a libm call costs more than reading 8 bytes back).
  if (const auto *Call = dyn_cast<CallInst>(I);
      Call && Target.isGPU() && FS.loops().getLoopFor(Call->getParent()) &&
      Call->getType()->isFloatingPointTy() && Calls.classify(*Call).Scalar &&
      none_of(Call->args(),
              [](const Use &A) { return A->getType()->isPointerTy(); }))
    return all_of(Call->args(), [&](const Use &A) {
      return strategy(A.get()) != Strategy::Cache;
    });
  if (isa<IntrinsicInst>(I))
    return false;
  if (const auto *LI = dyn_cast<LoadInst>(I))
    return !LI->isVolatile() && !LI->isAtomic() && IsReadOnly(*LI);
  if (const auto *PN = dyn_cast<PHINode>(I))
    return Affine.count(PN) || ExitCounts.count(PN) || DecidedBy.count(PN);
  return false;
}

Tape::Strategy Tape::strategy(const Value *V) const {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return Strategy::Available;
  if (FS.loopOfIV(I))
    return Strategy::ReverseIndex;
  // Without the last-iteration cache, a value a loop leaves behind comes
  // from the loop's per-iteration frames.
  if (!LastIterationCache && exitValue(I).first)
    return Strategy::Cache;
  const BasicBlock *BB = I->getParent();
  const Loop *L = FS.loops().getLoopFor(BB);
  if (!L && FS.returnBlock() && FS.dominators().dominates(BB, FS.returnBlock()))
    return Strategy::Available;
  // In a loop a long chain is kept in the loop's frame (memory) instead of
  // rebuilt; outside loops a cached value would hold a register from the
  // forward sweep to the reverse one, so it is rebuilt however long.  An
  // address (a width-N shadow's lanes among them) is rebuilt however long
  // too: cached, it may point into this call's stack, which a split form's
  // backward half allocates again elsewhere.
  if (recomputable(I) && (!L || typeHoldsPointer(I->getType()) ||
                          recomputeChain(I) <= MaxRecomputeChain)) {
    // A condition rebuilt from a value the loop keeps per iteration would
    // keep that value (8 bytes for a double); the condition itself is one.
    if (L && I->getType()->isIntegerTy(1) &&
        any_of(I->operands(), [&](const Value *Op) {
          const auto *OpI = dyn_cast<Instruction>(Op);
          return OpI && !OpI->getType()->isIntegerTy(1) &&
                 FS.loops().getLoopFor(OpI->getParent()) == L &&
                 strategy(OpI) == Strategy::Cache;
        }))
      return Strategy::Cache;
    return Strategy::Recompute;
  }
  return Strategy::Cache;
}

unsigned Tape::recomputeChain(const Instruction *I) const {
  if (auto It = ChainLength.find(I); It != ChainLength.end())
    return It->second;
  // The distinct instructions rebuilt for I: a walk over the operands that
  // are rebuilt too, up to the limit.  An affine PHI is rebuilt from its
  // start and step, outside the loop.
  SmallPtrSet<const Instruction *, 16> Seen{I};
  SmallVector<const Instruction *, 16> Work{I};
  while (!Work.empty() && Seen.size() <= MaxRecomputeChain) {
    const Instruction *X = Work.pop_back_val();
    if (isa<PHINode>(X))
      continue;
    for (const Value *Op : X->operands()) {
      const auto *OpI = dyn_cast<Instruction>(Op);
      if (OpI && !Seen.count(OpI) && strategy(OpI) == Strategy::Recompute) {
        Seen.insert(OpI);
        Work.push_back(OpI);
      }
    }
  }
  unsigned N = std::min<unsigned>(Seen.size(), MaxRecomputeChain + 1);
  ChainLength[I] = N;
  return N;
}

Value *Tape::lookup(Value *V, IRBuilderBase &B, const BasicBlock *Context) {
  Strategy S = strategy(V);
  // Reported: what is cached or recomputed, and values loops leave behind.
  if ((S == Strategy::Recompute || S == Strategy::Cache ||
       (S == Strategy::Available && exitValue(V).first)) &&
      Decided.insert(V).second) {
    Decisions.push_back({V, S});
    LLVM_DEBUG({
      dbgs() << "gpuad-tape: ";
      V->printAsOperand(dbgs(), /*PrintType=*/false);
      dbgs() << ": "
             << (S == Strategy::Cache       ? "cache"
                 : S == Strategy::Recompute ? "recompute"
                                            : "loop exit value")
             << "\n";
    });
  }
  if (S == Strategy::Available)
    return V;
  auto Key = std::make_pair(static_cast<const Value *>(V), B.GetInsertBlock());
  if (Value *Known = Memo.lookup(Key))
    return Known;
  Value *Result;
  auto *I = cast<Instruction>(V);
  switch (S) {
  case Strategy::ReverseIndex:
    Result = index(FS.loopOfIV(I), B);
    break;
  case Strategy::Recompute:
    Result = recompute(I, B, Context);
    ++NumRecomputed;
    break;
  default: {
    if (!LastIterationCache && exitValue(V).first) {
      Result = lookupAtExit(cast<PHINode>(V), B, Context);
      break;
    }
    Slot &Sl = slotFor(V);
    Value *Addr =
        Sl.Local ? static_cast<Value *>(Sl.Local)
                 : B.CreateConstGEP1_64(B.getInt8Ty(),
                                        frameAddress(Sl.L, B, true), Sl.Offset);
    Result = B.CreateLoad(V->getType(), Addr, V->getName() + ".tape");
    break;
  }
  }
  Memo[Key] = Result;
  return Result;
}

std::pair<const Loop *, Instruction *> Tape::exitValue(const Value *V) const {
  const auto *PN = dyn_cast<PHINode>(V);
  if (!PN || PN->getNumIncomingValues() != 1 || FS.isBookkeeping(PN))
    return {};
  auto *In = dyn_cast<Instruction>(PN->getIncomingValue(0));
  if (!In)
    return {};
  const Loop *L = FS.loops().getLoopFor(In->getParent());
  if (!L || L->contains(PN->getParent()) || !FS.iv(L) ||
      !FS.exitIteration(L, PN->getParent()))
    return {};
  return {L, In};
}

Value *Tape::lookupAtExit(PHINode *V, IRBuilderBase &B,
                          const BasicBlock *Context) {
  auto [L, In] = exitValue(V);
  KeptPerIteration.insert(In);
  Slot &S = slotFor(In);
  Value *Iter = lookup(FS.exitIteration(L, V->getParent()), B, Context);
  return B.CreateLoad(
      V->getType(),
      B.CreateConstGEP1_64(B.getInt8Ty(), frameAt(L, Iter, B), S.Offset),
      V->getName() + ".tape");
}

Value *Tape::recompute(Instruction *I, IRBuilderBase &B,
                       const BasicBlock *Context) {
  if (auto *PN = dyn_cast<PHINode>(I))
    return Affine.count(PN) ? recomputeAffine(PN, B, Context)
                            : recomputeBookkeeping(PN, B, Context);
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    if (!isa<BasicBlock>(Op.get()) && !isa<Function>(Op.get()))
      Op.set(lookup(Op.get(), B, Context));
  // Metadata about the primal's position (ranges, alias scopes) does not
  // hold here.
  C->dropUnknownNonDebugMetadata();
  return B.Insert(C, I->getName() + ".re");
}

AllocaInst *Tape::entryAlloca(Type *Ty, const Twine &Name) {
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();
  return EB.CreateAlloca(Ty, AS, nullptr, Name);
}

Tape::Slot &Tape::slotFor(Value *V) {
  auto It = Slots.find(V);
  if (It != Slots.end())
    return It->second;
  ++NumCached;
  auto *I = cast<Instruction>(V);
  Slot S{V, FS.loops().getLoopFor(I->getParent())};
  if (!S.L)
    S.Local = entryAlloca(V->getType(), V->getName() + ".slot");
  else
    S.Offset = addField(S.L, V->getType());
  LLVM_DEBUG({
    dbgs() << "gpuad-tape: slot for ";
    V->printAsOperand(dbgs(), /*PrintType=*/false);
    dbgs() << ": "
           << (S.Local ? "entry alloca"
                       : "loop frame, offset " + Twine(S.Offset).str())
           << "\n";
  });
  SlotOrder.push_back(V);
  return Slots.emplace(V, S).first->second;
}

Tape::Frame &Tape::frameOf(const Loop *L) {
  Frame &Fr = Frames[L];
  if (!Fr.SizePlaceholder) {
    // The frame size is known only when the reverse sweep is complete; code
    // reads it from a placeholder that finalize() replaces by a constant.
    Type *I64 = Type::getInt64Ty(F.getContext());
    Fr.SizePlaceholder = new GlobalVariable(
        *F.getParent(), I64, /*isConstant=*/true, GlobalValue::InternalLinkage,
        ConstantInt::get(I64, 0), "gpuad.frame.size");
    if (isFixed(L))
      ; // reached by offset, not through a pointer
    else if (const Loop *P = L->getParentLoop())
      Fr.ParentField = addField(P, PointerType::get(F.getContext(), 0));
    else
      Fr.ArrayLocal = entryAlloca(PointerType::get(F.getContext(), 0),
                                  "frames." + L->getHeader()->getName());
  }
  return Frames[L];
}

uint64_t Tape::addField(const Loop *L, Type *Ty) {
  Frame &Fr = frameOf(L);
  const DataLayout &DL = F.getParent()->getDataLayout();
  Align A = DL.getABITypeAlign(Ty);
  uint64_t Offset = alignTo(Fr.Bytes, A);
  Fr.Bytes = Offset + DL.getTypeAllocSize(Ty);
  Fr.MaxAlign = std::max(Fr.MaxAlign, A);
  return Offset;
}

uint64_t Tape::frameBytes(const Loop *L) const {
  auto It = Frames.find(L);
  return It == Frames.end() ? 0
                            : alignTo(It->second.Bytes, It->second.MaxAlign);
}

Value *Tape::frameSize(const Loop *L, IRBuilderBase &B) {
  return B.CreateLoad(B.getInt64Ty(), frameOf(L).SizePlaceholder, "frame.size");
}

Value *Tape::arraySlotAddress(const Loop *L, IRBuilderBase &B, bool Reverse) {
  Frame &Fr = frameOf(L);
  if (Fr.ArrayLocal)
    return Fr.ArrayLocal;
  const Loop *P = L->getParentLoop();
  return B.CreateConstGEP1_64(B.getInt8Ty(), frameAddress(P, B, Reverse),
                              Fr.ParentField);
}

bool Tape::isFixed(const Loop *L) const {
  return Choice != TapePlacementChoice::Heap && NestTrips.lookup(L) != 0;
}

Value *Tape::frameArray(const Loop *L, IRBuilderBase &B, bool Reverse) {
  LLVMContext &C = F.getContext();
  if (!FrameArrayPlaceholder)
    FrameArrayPlaceholder = Function::Create(
        FunctionType::get(PointerType::get(C, 0),
                          {Type::getInt64Ty(C), Type::getInt1Ty(C)}, false),
        GlobalValue::ExternalLinkage, "gpuad.tape.frames", F.getParent());
  auto *It = find(LoopNumbers, L);
  if (It == LoopNumbers.end())
    It = LoopNumbers.insert(It, L);
  return B.CreateCall(
      FrameArrayPlaceholder,
      {B.getInt64(It - LoopNumbers.begin()), B.getInt1(Reverse)}, "frames");
}

Value *Tape::entryIndex(const Loop *L, IRBuilderBase &B, bool Reverse) {
  const Loop *P = L->getParentLoop();
  if (!P)
    return B.getInt64(0);
  Value *Iter =
      Reverse ? index(P, B) : B.CreateZExtOrTrunc(FS.iv(P), B.getInt64Ty());
  return B.CreateAdd(
      B.CreateMul(entryIndex(P, B, Reverse), B.getInt64(MaxTrips.lookup(P))),
      Iter, "entry");
}

Value *Tape::frameAddress(const Loop *L, IRBuilderBase &B, bool Reverse) {
  if (Reverse)
    return frameAt(L, index(L, B), B);
  Value *Offset = B.CreateMul(FS.iv(L), frameSize(L, B));
  return B.CreateGEP(B.getInt8Ty(), frameArray(L, B, false), Offset, "frame");
}

Value *Tape::frameAt(const Loop *L, Value *Iter, IRBuilderBase &B) {
  Value *Offset = B.CreateMul(Iter, frameSize(L, B));
  return B.CreateGEP(B.getInt8Ty(), frameArray(L, B, true), Offset, "frame");
}

void Tape::enterLoop(const Loop *L, Value *Last, IRBuilderBase &B) {
  AllocaInst *&C = Counters[L];
  if (!C)
    C = entryAlloca(B.getInt64Ty(), "riv." + L->getHeader()->getName());
  B.CreateStore(Last, C);
}

Value *Tape::index(const Loop *L, IRBuilderBase &B) {
  AllocaInst *&C = Counters[L];
  if (!C)
    C = entryAlloca(B.getInt64Ty(), "riv." + L->getHeader()->getName());
  return B.CreateLoad(B.getInt64Ty(), C, "riv");
}

void Tape::decrement(const Loop *L, IRBuilderBase &B) {
  // Only on the way to an earlier iteration: the index is at least 1, so
  // the counter never wraps -- which scalar evolution needs to know before
  // the vectorizer's overlap checks of a reverse loop can pass.
  Value *I = index(L, B);
  B.CreateStore(B.CreateSub(I, B.getInt64(1), "", /*HasNUW=*/true,
                            /*HasNSW=*/true),
                Counters[L]);
}

void Tape::leaveLoop(const Loop *L, Instruction *Before) {
  // Recorded for every loop; only loops that end up with frames free them.
  Frames.try_emplace(L);
  Frames[L].FreePoints.push_back(Before);
}

/// `ptr gpuad.tape.grow(ptr array, i64 iv, ptr cap, i64 bytes)`: the frame
/// array, made to hold iteration iv (doubled when full).  Written with the
/// target's allocator so it works on every target.  The array pointer goes
/// by value so the local holding it stays a register.
Function *Tape::growFunction() {
  if (Grow)
    return Grow;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  auto *FT = FunctionType::get(Ptr, {Ptr, I64, Ptr, I64}, false);
  Grow =
      Function::Create(FT, GlobalValue::InternalLinkage, "gpuad.tape.grow", M);
  copyFunctionAttributes(F, *Grow);
  auto *Entry = BasicBlock::Create(C, "entry", Grow);
  auto *Full = BasicBlock::Create(C, "full", Grow);
  IRBuilder<> B(Entry);
  Value *Old = Grow->getArg(0), *IV = Grow->getArg(1),
        *CapPtr = Grow->getArg(2), *Bytes = Grow->getArg(3);
  Value *Cap = B.CreateLoad(I64, CapPtr, "cap");
  auto *Done = BasicBlock::Create(C, "done", Grow);
  B.CreateCondBr(B.CreateICmpUGE(IV, Cap), Full, Done);
  B.SetInsertPoint(Full);
  Value *NewCap = B.CreateBinaryIntrinsic(
      Intrinsic::umax, B.CreateShl(Cap, 1),
      B.CreateBinaryIntrinsic(Intrinsic::umax, B.getInt64(16),
                              B.CreateAdd(IV, B.getInt64(1))));
  Value *NewBytes = B.CreateMul(NewCap, Bytes);
  Value *New;
  if (!Target.isGPU()) {
    // The host's realloc extends in place or remaps large blocks' pages:
    // no copy of what the array holds.
    FunctionCallee Realloc = M.getOrInsertFunction("realloc", Ptr, Ptr, I64);
    New = B.CreateCall(Realloc, {Old, NewBytes}, "tape");
  } else {
    New = emitTapeAlloc(B, NewBytes, F, Target, Choice);
    B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(),
                   B.CreateMul(Cap, Bytes));
    emitTapeFree(B, Old, F, Target, Choice);
  }
  B.CreateStore(NewCap, CapPtr);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Result = B.CreatePHI(Ptr, 2);
  Result->addIncoming(Old, Entry);
  Result->addIncoming(New, Full);
  B.CreateRet(Result);
  return Grow;
}

void Tape::allocateFrames(const Loop *L) {
  BasicBlock *Pre = L->getLoopPreheader();
  IRBuilder<> B(Pre->getTerminator());
  Value *Size = B.getInt64(frameBytes(L));
  Value *SlotAddr = arraySlotAddress(L, B, /*Reverse=*/false);

  // Trip count known at entry: one allocation of the right size.  A loop
  // left only at its header's test (not rotated) runs its body one time
  // fewer than its header: no frame for the last if the body holds them all.
  if (Value *Trip = TripCounts.lookup(L)) {
    const BasicBlock *Header = L->getHeader();
    if (L->getExitingBlock() == Header &&
        none_of(Slots, [&](const auto &Entry) {
          const Slot &S = Entry.second;
          return S.L == L && cast<Instruction>(S.V)->getParent() == Header;
        }))
      Trip = B.CreateSub(Trip, B.getInt64(1), "body.trip");
    B.CreateStore(emitTapeAlloc(B, B.CreateMul(Trip, Size), F, Target, Choice),
                  SlotAddr);
    return;
  }
  // Otherwise start empty and grow by doubling in the header.
  ++NumDynamicFrames;
  AllocaInst *Cap = entryAlloca(B.getInt64Ty(), "frames.cap");
  B.CreateStore(B.getInt64(0), Cap);
  B.CreateStore(ConstantPointerNull::get(PointerType::get(F.getContext(), 0)),
                SlotAddr);
  BasicBlock *Header = L->getHeader();
  B.SetInsertPoint(Header, Header->getFirstInsertionPt());
  Value *HeaderSlot = arraySlotAddress(L, B, /*Reverse=*/false);
  Value *Array = B.CreateLoad(PointerType::get(F.getContext(), 0), HeaderSlot);
  // The capacity local as a generic pointer (AMDGPU's allocas are private).
  Value *CapPtr = B.CreatePointerBitCastOrAddrSpaceCast(
      Cap, PointerType::get(F.getContext(), 0));
  B.CreateStore(B.CreateCall(growFunction(), {Array, FS.iv(L), CapPtr, Size}),
                HeaderSlot);
}

void Tape::storeCachedValue(Slot &S) {
  auto *I = cast<Instruction>(S.V);
  BasicBlock::iterator Where;
  if (isa<PHINode>(I))
    Where = I->getParent()->getFirstInsertionPt();
  else if (auto *Inv = dyn_cast<InvokeInst>(I))
    Where = Inv->getNormalDest()->getFirstInsertionPt();
  else
    Where = std::next(I->getIterator());
  IRBuilder<> B(I->getParent()->getContext());
  B.SetInsertPoint(Where);
  Value *Addr =
      S.Local ? static_cast<Value *>(S.Local)
              : B.CreateConstGEP1_64(B.getInt8Ty(), frameAddress(S.L, B, false),
                                     S.Offset);
  B.CreateStore(S.V, Addr)->setMetadata(CachedStoreMD,
                                        MDNode::get(F.getContext(), {}));
}

void Tape::finalize() {
  // Loops with cached values (or children with frames) need frames; make
  // sure every ancestor of a framed loop has one too.
  SmallVector<const Loop *, 8> Framed;
  for (auto &[L, Fr] : Frames)
    if (Fr.Bytes > 0)
      Framed.push_back(L);
  for (const Loop *L : Framed)
    for (const Loop *P = L->getParentLoop(); P; P = P->getParentLoop())
      frameOf(P);
  // Outer loops first: their frames hold the child arrays.
  SmallVector<const Loop *, 8> Order;
  for (auto &[L, Fr] : Frames)
    if (Fr.SizePlaceholder)
      Order.push_back(L);
  sort(Order, [](const Loop *A, const Loop *B) {
    return A->getLoopDepth() < B->getLoopDepth();
  });
  // Stores first: a growing frame array is grown at the top of the header,
  // before the stores of header PHIs.
  for (Value *V : SlotOrder)
    storeCachedValue(Slots.find(V)->second);
  for (const Loop *L : Order)
    if (!isFixed(L)) {
      allocateFrames(L);
      HeapLoops.push_back(L);
    }
  for (const Loop *L : HeapLoops)
    for (Instruction *Before : Frames[L].FreePoints) {
      IRBuilder<> B(Before);
      emitTapeFree(B,
                   B.CreateLoad(PointerType::get(F.getContext(), 0),
                                arraySlotAddress(L, B, /*Reverse=*/true)),
                   F, Target, Choice);
    }
  layOutRegion();
  resolveFrameArrays();
  // Frame sizes are final: replace the placeholders.
  for (auto &[L, Fr] : Frames) {
    if (!Fr.SizePlaceholder)
      continue;
    Constant *Size =
        ConstantInt::get(Type::getInt64Ty(F.getContext()), frameBytes(L));
    for (User *U : make_early_inc_range(Fr.SizePlaceholder->users())) {
      auto *Load = cast<LoadInst>(U);
      Load->replaceAllUsesWith(Size);
      Load->eraseFromParent();
    }
    Fr.SizePlaceholder->eraseFromParent();
    Fr.SizePlaceholder = nullptr;
  }
}

} // namespace gpuad

namespace gpuad {

void Tape::layOutRegion() {
  // Outer loops first, each loop's arrays for all its entries together.
  for (const Loop *L : FS.loops().getLoopsInPreorder()) {
    auto It = Frames.find(L);
    if (It == Frames.end() || !isFixed(L) || !frameBytes(L))
      continue;
    It->second.RegionOffset = alignTo(RegionBytes, 16);
    RegionBytes = It->second.RegionOffset + NestTrips.lookup(L) * frameBytes(L);
  }
  if (!RegionBytes)
    return;
  if (Persistent) {
    // Split halves: the augmented half's tape carries the region by value
    // to the backward half (SplitForm), or a heap block once per call.
    Place = RegionBytes <= MaxCarriedTapeRegion ? TapePlace::Carried
                                                : TapePlace::Heap;
    Region = emitTapeRegion(F, Place, RegionBytes, Target, Choice);
    return;
  }
  Place = chooseTapePlace(RegionBytes, Target, Choice);
  Region = emitTapeRegion(F, Place, RegionBytes, Target, Choice);
}

void Tape::resolveFrameArrays() {
  if (!FrameArrayPlaceholder)
    return;
  // Resolving a heap array reads a pointer from its parent's frame, which
  // may add placeholders for the parent.
  while (!FrameArrayPlaceholder->use_empty()) {
    auto *Call = cast<CallInst>(FrameArrayPlaceholder->user_back());
    const Loop *L =
        LoopNumbers[cast<ConstantInt>(Call->getArgOperand(0))->getZExtValue()];
    bool Reverse = cast<ConstantInt>(Call->getArgOperand(1))->isOne();
    IRBuilder<> B(Call);
    Value *Array;
    if (isFixed(L) && !frameBytes(L)) {
      // Every value the loop asked to keep was recomputed after all: the
      // frame is empty and nothing addresses it.
      Array = ConstantPointerNull::get(PointerType::get(F.getContext(), 0));
    } else if (isFixed(L)) {
      uint64_t ArrayBytes = MaxTrips.lookup(L) * frameBytes(L);
      Value *Offset = B.CreateAdd(
          B.getInt64(Frames[L].RegionOffset),
          B.CreateMul(entryIndex(L, B, Reverse), B.getInt64(ArrayBytes)));
      Array = B.CreateGEP(B.getInt8Ty(), Region, Offset, "frames");
    } else {
      Array = B.CreateLoad(PointerType::get(F.getContext(), 0),
                           arraySlotAddress(L, B, Reverse), "frames");
    }
    Call->replaceAllUsesWith(Array);
    Call->eraseFromParent();
  }
  FrameArrayPlaceholder->eraseFromParent();
  FrameArrayPlaceholder = nullptr;
}

SmallVector<const Loop *, 2> Tape::heapLoops() const { return HeapLoops; }

} // namespace gpuad
