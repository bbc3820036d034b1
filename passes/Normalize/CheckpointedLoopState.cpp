//===- CheckpointedLoopState.cpp - The state of a loop to checkpoint
//-------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/CheckpointedLoopState.h"

#include "Normalize/RuntimeMemory.h"
#include "Rules/CallTable.h"
#include "Rules/KernelLaunch.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

SmallVector<unsigned, 2> buffersOf(Value *V, const Loop &L) {
  SmallVector<unsigned, 2> Buffers;
  SmallVector<Value *, 4> Work = {V};
  SmallPtrSet<Value *, 4> Seen = {V};
  while (!Work.empty()) {
    Value *W = Work.pop_back_val();
    if (auto *A = dyn_cast<Argument>(W)) {
      if (!is_contained(Buffers, A->getArgNo()))
        Buffers.push_back(A->getArgNo());
      continue;
    }
    auto *P = dyn_cast<PHINode>(W);
    if (!P || P->getParent() != L.getHeader())
      return {};
    for (Value *In : P->incoming_values())
      if (Seen.insert(In).second)
        Work.push_back(In);
  }
  return Buffers;
}

/// " at line N" where \p I has a location.
static std::string at(const Instruction &I) {
  if (const DebugLoc &DL = I.getDebugLoc(); DL && DL.getLine())
    return " (line " + std::to_string(DL.getLine()) + ")";
  return "";
}

bool StateFinder::run() {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (!visit(I))
        return false;
  return true;
}

bool StateFinder::visit(Instruction &I) {
  if (I.isEHPad() || isa<InvokeInst>(I) || isa<ResumeInst>(I))
    return refuse("it has exception-handling code" + at(I));
  const DataLayout &DL = I.getModule()->getDataLayout();
  Type *I64 = Type::getInt64Ty(I.getContext());
  auto Size = [&](Type *T) {
    return SE.getConstant(I64, DL.getTypeStoreSize(T).getFixedValue());
  };
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return addAccess(I, LI->getPointerOperand(), Size(LI->getType()),
                     /*Write=*/false);
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *V = SI->getValueOperand();
    if (isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand())))
      return true; // a local (see addAccess), whatever it holds
    if (V->getType()->isPtrOrPtrVectorTy() && !addPointerOutput(*SI))
      return false;
    return addAccess(I, SI->getPointerOperand(), Size(V->getType()),
                     /*Write=*/true);
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return addAccess(I, RMW->getPointerOperand(),
                     Size(RMW->getValOperand()->getType()), /*Write=*/true);
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return addAccess(I, CX->getPointerOperand(),
                     Size(CX->getNewValOperand()->getType()), /*Write=*/true);
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return true;
  if (auto *MI = dyn_cast<AnyMemIntrinsic>(Call)) {
    const SCEV *Length =
        SE.getTruncateOrZeroExtend(SE.getSCEV(MI->getLength()), I64);
    auto *MT = dyn_cast<AnyMemTransferInst>(MI);
    if (MT && !addAccess(I, MT->getRawSource(), Length, /*Write=*/false))
      return false;
    if (!addAccess(I, MI->getRawDest(), Length, /*Write=*/true))
      return false;
    // A runtime copy or fill: either side may be device memory, which only
    // the runtime copies.
    if (std::optional<RuntimeCall> R = runtimeOf(I)) {
      Api = R->Api;
      for (Value *P : {MT ? MT->getRawSource() : nullptr, MI->getRawDest()})
        if (P && !isa<AllocaInst>(getUnderlyingObject(P)) &&
            !addDevice(getUnderlyingObject(P), /*Write=*/false,
                       /*WholeAllocation=*/false))
          return refuse("it copies device memory through a pointer it "
                        "computes itself" +
                        at(I));
    }
    return true;
  }
  if (std::optional<KernelLaunch> Launch = KernelLaunch::match(*Call))
    return visitLaunch(*Launch);
  if (auto *II = dyn_cast<IntrinsicInst>(Call))
    if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
        II->getIntrinsicID() == Intrinsic::assume)
      return true;
  const Function *Callee = Call->getCalledFunction();
  if (Callee && Callee->getName() == CheckpointMarker)
    return true;
  // What a call reads is not tracked: only calls that read no memory of
  // the program's.
  if (Call->doesNotAccessMemory() || Call->onlyAccessesInaccessibleMemory() ||
      (Callee && Calls.scalarRule(*Callee)))
    return true;
  // A launch's configuration, pushed before it and popped by it.
  if (Callee && Callee->getName().starts_with("__") &&
      (Callee->getName().ends_with("PushCallConfiguration") ||
       Callee->getName().ends_with("PopCallConfiguration")))
    return true;
  // Waiting for the device, and asking for its last error, can be repeated.
  if (std::optional<RuntimeCall> R =
          Callee ? Calls.runtimeCall(*Callee) : std::nullopt;
      R && R->K == RuntimeCall::Inactive) {
    StringRef Name = Callee->getName().drop_front(StringRef(R->Api).size());
    if (Name.ends_with("Synchronize") || Name == "GetLastError" ||
        Name == "PeekAtLastError")
      return true;
  }
  bool Indirect = !Callee || Callee->getName().starts_with("gpuad.dispatch");
  return refuse("it calls " +
                (Indirect ? std::string("a function through a pointer")
                          : "'" + Callee->getName().str() + "'") +
                ", which may write memory or do I/O that running the loop "
                "again would repeat");
}

/// A kernel may read (or, unless its parameter is const, write) anywhere in
/// the allocation behind each pointer it is given.
bool StateFinder::visitLaunch(const KernelLaunch &Launch) {
  Api = Launch.api().str();
  for (unsigned I = 0; I < Launch.numArgs(); ++I) {
    if (Launch.paramKind(I) != LaunchParam::Pointer ||
        isa<ConstantPointerNull>(Launch.arg(I)))
      continue;
    Value *Base = getUnderlyingObject(Launch.arg(I));
    if (!addDevice(Base, !Launch.readsOnly(I), /*WholeAllocation=*/true))
      return refuse("it launches " + Launch.kernelName() +
                    " on a pointer it computes itself (" + Name(*Base) +
                    "), whose allocation gpuad cannot find before the loop "
                    "runs" +
                    at(Launch.call()));
  }
  return true;
}

bool StateFinder::addDevice(Value *Base, bool Write, bool WholeAllocation) {
  if (isa<GlobalVariable>(Base) && !WholeAllocation) {
    Device.insert(Base);
    return true;
  }
  SmallVector<unsigned, 2> Buffers = buffersOf(Base, L);
  if (Buffers.empty())
    return false;
  Function *C = L.getHeader()->getParent();
  for (unsigned ArgNo : Buffers) {
    Argument *A = C->getArg(ArgNo);
    Device.insert(A);
    if (WholeAllocation)
      Whole.insert(A);
    if (Write)
      Written.insert(A);
  }
  return true;
}

bool StateFinder::addAccess(Instruction &I, Value *Ptr, const SCEV *Size,
                            bool Write) {
  const char *Verb = Write ? "writes" : "reads";
  const SCEV *At = SE.getSCEV(Ptr);
  const auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(At));
  if (!Base)
    return refuse(Twine("it ") + Verb +
                  " through a pointer whose object gpuad cannot tell" + at(I));
  Value *Object = Base->getValue();
  // Memory of one iteration's own: a local of the body, or of a function
  // it called (inlined here; dead between calls).
  if (isa<AllocaInst>(Object))
    return true;
  // A global whole: its size is known.
  if (auto *GV = dyn_cast<GlobalVariable>(Object)) {
    if (GV->isConstant())
      return true;
    const DataLayout &DL = GV->getDataLayout();
    Type *I64 = Type::getInt64Ty(I.getContext());
    return addExtent(
        GV, SE.getZero(I64),
        SE.getConstant(I64, DL.getTypeAllocSize(GV->getValueType())), Write);
  }
  std::optional<Bounds> Offsets, Length;
  if (!isa<SCEVCouldNotCompute>(Size)) {
    Offsets = bounds(SE.getMinusSCEV(At, Base), I.getParent());
    Length = bounds(Size, I.getParent());
  }
  if (!Offsets || !Length) {
    // A read anywhere in a buffer passed in: kept whole by the full tape
    // where later code may change it (CheckpointedLoop::UnboundedReads).
    SmallVector<unsigned, 2> Buffers = buffersOf(Object, L);
    if (!Write && !Buffers.empty()) {
      UnboundedReads.append(Buffers.begin(), Buffers.end());
      return true;
    }
    return refuse(Twine("it ") + Verb + " " + Name(*Object) +
                  " at offsets gpuad cannot bound before the loop runs" +
                  at(I));
  }
  Type *I64 = Type::getInt64Ty(I.getContext());
  const SCEV *Min = SE.getTruncateOrSignExtend(Offsets->Min, I64);
  const SCEV *Max = SE.getAddExpr(SE.getTruncateOrSignExtend(Offsets->Max, I64),
                                  SE.getTruncateOrZeroExtend(Length->Max, I64));
  return addExtent(Object, Min, Max, Write);
}

bool StateFinder::addPointerOutput(StoreInst &SI) {
  auto *Out = dyn_cast<Argument>(SI.getPointerOperand());
  SmallVector<unsigned, 2> Buffers = buffersOf(SI.getValueOperand(), L);
  if (!Out || Out->getArgNo() < FirstOutput || Buffers.empty())
    return refuse("it stores a pointer to memory" + at(SI));
  PointerOutputs.push_back({&SI, Out->getArgNo(), std::move(Buffers)});
  return true;
}

bool StateFinder::addExtent(Value *Base, const SCEV *Min, const SCEV *Max,
                            bool Write) {
  if (isa<Argument>(Base) || isa<GlobalVariable>(Base)) {
    if (Write)
      Written.insert(Base);
    auto [It, New] = Extents.insert({Base, {Min, Max}});
    if (!New)
      It->second = {SE.getSMinExpr(It->second.Min, Min),
                    SE.getSMaxExpr(It->second.Max, Max)};
    return true;
  }
  // A pointer the loop carries: each buffer it can hold.
  SmallVector<unsigned, 2> Buffers = buffersOf(Base, L);
  if (Buffers.empty())
    return refuse(Write ? "it writes through a pointer it computes itself (" +
                              Name(*Base) +
                              "), which gpuad cannot copy from outside the "
                              "loop"
                        : "it reads through a pointer it computes itself (" +
                              Name(*Base) +
                              "), whose memory could change before the "
                              "reverse sweep runs the loop again");
  Function *C = L.getHeader()->getParent();
  for (unsigned ArgNo : Buffers)
    addExtent(C->getArg(ArgNo), Min, Max, Write);
  return true;
}

/// The last iteration of \p Lk (counting from 0) in which block \p At runs
/// at most: the backedge-taken count if the exit tests come after it, one
/// less if each comes before it (a loop that exits at its header).  Never
/// more than that: a region wider than what the loop writes could reach
/// past the buffer.
std::optional<const SCEV *> StateFinder::lastIteration(const Loop &Lk,
                                                       const BasicBlock *At) {
  const SCEV *Taken = SE.getSymbolicMaxBackedgeTakenCount(&Lk);
  if (isa<SCEVCouldNotCompute>(Taken))
    return std::nullopt;
  SmallVector<BasicBlock *, 4> Exiting;
  Lk.getExitingBlocks(Exiting);
  unsigned Before = count_if(Exiting, [&](const BasicBlock *E) {
    return E != At && DT.dominates(E, At);
  });
  if (Before == 0)
    return Taken;
  if (Before == Exiting.size())
    return SE.getMinusSCEV(Taken, SE.getOne(Taken->getType()));
  return std::nullopt;
}

std::optional<Bounds> StateFinder::bounds(const SCEV *E, const BasicBlock *At) {
  if (SE.isLoopInvariant(E, &L))
    return Bounds{E, E};
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(E)) {
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (!AR->isAffine() || !SE.isLoopInvariant(Step, &L))
      return std::nullopt;
    std::optional<const SCEV *> Last = lastIteration(*AR->getLoop(), At);
    if (!Last)
      return std::nullopt;
    std::optional<Bounds> Start = bounds(AR->getStart(), At);
    std::optional<Bounds> Count = bounds(*Last, At);
    if (!Start || !Count)
      return std::nullopt;
    const SCEV *Span = SE.getMulExpr(
        Step, SE.getTruncateOrZeroExtend(Count->Max, Step->getType()));
    if (SE.isKnownNonNegative(Step))
      return Bounds{Start->Min, SE.getAddExpr(Start->Max, Span)};
    if (SE.isKnownNonPositive(Step))
      return Bounds{SE.getAddExpr(Start->Min, Span), Start->Max};
    return std::nullopt;
  }
  // Each operand's least and greatest.
  SmallVector<const SCEV *, 4> Mins, Maxs;
  auto OperandBounds = [&](ArrayRef<const SCEV *> Ops) {
    for (const SCEV *Op : Ops) {
      std::optional<Bounds> B = bounds(Op, At);
      if (!B)
        return false;
      Mins.push_back(B->Min);
      Maxs.push_back(B->Max);
    }
    return true;
  };
  if (const auto *Add = dyn_cast<SCEVAddExpr>(E)) {
    if (!OperandBounds(Add->operands()))
      return std::nullopt;
    return Bounds{SE.getAddExpr(Mins), SE.getAddExpr(Maxs)};
  }
  if (const auto *Mul = dyn_cast<SCEVMulExpr>(E)) {
    const auto *Factor = dyn_cast<SCEVConstant>(Mul->getOperand(0));
    if (!Factor || Mul->getNumOperands() != 2)
      return std::nullopt;
    std::optional<Bounds> B = bounds(Mul->getOperand(1), At);
    if (!B)
      return std::nullopt;
    const SCEV *A = SE.getMulExpr(Factor, B->Min);
    const SCEV *Z = SE.getMulExpr(Factor, B->Max);
    return Factor->getAPInt().isNegative() ? Bounds{Z, A} : Bounds{A, Z};
  }
  if (const auto *Cast = dyn_cast<SCEVCastExpr>(E)) {
    std::optional<Bounds> B = bounds(Cast->getOperand(0), At);
    if (!B)
      return std::nullopt;
    Type *T = Cast->getType();
    if (isa<SCEVSignExtendExpr>(Cast))
      return Bounds{SE.getSignExtendExpr(B->Min, T),
                    SE.getSignExtendExpr(B->Max, T)};
    if (isa<SCEVZeroExtendExpr>(Cast))
      return Bounds{SE.getZeroExtendExpr(B->Min, T),
                    SE.getZeroExtendExpr(B->Max, T)};
    return std::nullopt;
  }
  // A join of values the loop does not change (the same index computed on
  // two paths): between their least and greatest.
  if (const auto *U = dyn_cast<SCEVUnknown>(E)) {
    auto *Phi = dyn_cast<PHINode>(U->getValue());
    if (!Phi || Phi->getParent() == L.getHeader() ||
        !SE.isSCEVable(Phi->getType()))
      return std::nullopt;
    for (Value *In : Phi->incoming_values()) {
      const SCEV *S = SE.getSCEV(In);
      if (!SE.isLoopInvariant(S, &L))
        return std::nullopt;
      Mins.push_back(S);
      Maxs.push_back(S);
    }
    return Bounds{SE.getSMinExpr(Mins), SE.getSMaxExpr(Maxs)};
  }
  if (const auto *MM = dyn_cast<SCEVMinMaxExpr>(E);
      MM && (isa<SCEVSMaxExpr>(MM) || isa<SCEVSMinExpr>(MM))) {
    if (!OperandBounds(MM->operands()))
      return std::nullopt;
    return Bounds{SE.getSMinExpr(Mins), SE.getSMaxExpr(Maxs)};
  }
  return std::nullopt;
}

} // namespace gpuad
