//===- LaneVariant.cpp - The width-1 derivative made for a lane -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every lane of a group runs the calling thread's primal.  Which memory an
/// access touches decides what it needs (the origin of its address):
///   - private (a local, a tape) and shadow memory (an argument's shadow:
///     each lane its own direction's) are the lane's alone;
///   - primal memory is the calling thread's, shared by the group: a write
///     waits until the group's lanes meet (all have read what it
///     overwrites), then each lane writes the same value; an atomic, a
///     volatile access and printf are done by the leader lane alone and
///     their results read by the others.
/// An atomic whose address cannot be traced to one of these keeps the
/// vector form: done once it could drop a direction's shadow update, done
/// per lane it could repeat the primal's.
//===----------------------------------------------------------------------===//

#include "Planner/LaneVariant.h"

#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace gpuad {

namespace {

/// Own: gpuad's state (the tape pool, warn-once flags), per lane as it is
/// per thread.
enum class Origin { Private, Own, Primal, Shadow, Unknown };

Origin merge(Origin A, Origin B) {
  if (A == B)
    return A;
  // A tape in a local region or in the heap: the lane's either way.
  auto LanesOwn = [](Origin O) {
    return O == Origin::Private || O == Origin::Own;
  };
  return LanesOwn(A) && LanesOwn(B) ? Origin::Own : Origin::Unknown;
}

/// gpuad's state: the tape pool, warn-once flags, message texts.
bool isGpuadOwned(const GlobalVariable &GV) {
  return GV.getName().starts_with("gpuad.") ||
         GV.getName().starts_with("__gpuad_");
}

/// The memory a pointer in the lane variant addresses.
class Origins {
public:
  Origins(const Function &V, const DerivativeSignature &Sig,
          const SmallPtrSetImpl<const GlobalVariable *> &PrimalGlobals,
          const CallTable &Calls)
      : PrimalGlobals(PrimalGlobals), Calls(Calls) {
    for (unsigned I = 0; I < Sig.PrimalParam.size(); ++I) {
      Args[V.getArg(Sig.PrimalParam[I])] = Origin::Primal;
      if (Sig.ShadowParam[I] >= 0)
        Args[V.getArg(Sig.ShadowParam[I])] = Origin::Shadow;
    }
  }

  Origin of(const Value *P, unsigned Depth = 0) {
    if (auto It = Memo.find(P); It != Memo.end())
      return It->second;
    SmallPtrSet<const Value *, 16> Seen;
    std::optional<Origin> O = walk(P, Seen, Depth);
    Origin R = O.value_or(Origin::Unknown);
    Memo[P] = R;
    return R;
  }

private:
  /// The merged origin of the roots \p P comes from (none: only cycles).
  std::optional<Origin>
  walk(const Value *P, SmallPtrSetImpl<const Value *> &Seen, unsigned Depth) {
    P = P->stripPointerCasts();
    if (!Seen.insert(P).second)
      return std::nullopt;
    if (auto *GEP = dyn_cast<GEPOperator>(P))
      return walk(GEP->getPointerOperand(), Seen, Depth);
    if (auto *Phi = dyn_cast<PHINode>(P)) {
      std::optional<Origin> O;
      for (const Value *In : Phi->incoming_values())
        if (std::optional<Origin> I = walk(In, Seen, Depth))
          O = O ? merge(*O, *I) : *I;
      return O;
    }
    if (auto *Sel = dyn_cast<SelectInst>(P)) {
      std::optional<Origin> T = walk(Sel->getTrueValue(), Seen, Depth);
      std::optional<Origin> F = walk(Sel->getFalseValue(), Seen, Depth);
      if (!T || !F)
        return T ? T : F;
      return merge(*T, *F);
    }
    return root(P, Depth);
  }

  Origin root(const Value *P, unsigned Depth) {
    if (isa<AllocaInst>(P))
      return Origin::Private;
    if (isa<ConstantPointerNull>(P) || isa<UndefValue>(P))
      return Origin::Primal;
    if (auto *A = dyn_cast<Argument>(P)) {
      auto It = Args.find(A);
      return It == Args.end() ? Origin::Unknown : It->second;
    }
    if (auto *GV = dyn_cast<GlobalVariable>(P)) {
      if (isGpuadOwned(*GV))
        return Origin::Own;
      return GV->isConstant() || PrimalGlobals.count(GV) ? Origin::Primal
                                                         : Origin::Unknown;
    }
    if (auto *Call = dyn_cast<CallBase>(P)) {
      // The derivative's own heap tapes: one per lane.
      // (The planner refuses a primal that allocates.)
      CallClass Class = Calls.classify(*Call);
      if ((Class.isHeap() && Class.Heap == HeapFn::Malloc) ||
          Call->returnDoesNotAlias())
        return Origin::Own;
      return Origin::Unknown;
    }
    if (auto *Load = dyn_cast<LoadInst>(P)) {
      // A pointer read from primal memory is primal, from a shadow a
      // shadow, from a tape the tape's; what a local holds is not known.
      if (Depth > 4)
        return Origin::Unknown;
      Origin From = of(Load->getPointerOperand(), Depth + 1);
      return From == Origin::Private ? Origin::Unknown : From;
    }
    return Origin::Unknown;
  }

  const SmallPtrSetImpl<const GlobalVariable *> &PrimalGlobals;
  const CallTable &Calls;
  DenseMap<const Value *, Origin> Args;
  DenseMap<const Value *, Origin> Memo;
};

/// The mutable globals \p Primal and the functions it calls use.
void collectPrimalGlobals(const Function &Primal,
                          SmallPtrSetImpl<const GlobalVariable *> &Out) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&Primal};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    for (const Instruction &I : instructions(*F))
      for (const Value *Op : I.operands()) {
        const Value *Base = Op->stripPointerCasts();
        if (auto *GEP = dyn_cast<GEPOperator>(Base))
          Base = GEP->getPointerOperand()->stripPointerCasts();
        if (auto *GV = dyn_cast<GlobalVariable>(Base))
          Out.insert(GV);
        if (auto *G = dyn_cast<Function>(Base); G && !G->isDeclaration())
          Work.push_back(G);
      }
  }
}

/// The device library functions a lane variant calls as they are: math
/// (pure, differentiated by rule), and the runtime's heap and host calls,
/// which gpuad's own code makes (a lane's tape, its messages; the planner
/// refuses the program's).
bool keptAsCall(const TargetHooks &Target, const Function &F) {
  using DeviceCall = TargetHooks::DeviceCall;
  DeviceCall Kind = Target.classifyDeviceCall(F);
  return Kind == DeviceCall::Math || Kind == DeviceCall::Runtime ||
         Kind == DeviceCall::HostCall;
}

/// A copy of \p One with the lane parameters, everything it calls inlined.
Function *cloneWithLaneParams(Function &One, const TargetHooks &Target,
                              std::string &Refusal) {
  LLVMContext &C = One.getContext();
  SmallVector<Type *, 16> Params(One.getFunctionType()->params());
  Params.push_back(Type::getInt64Ty(C));
  Params.push_back(Type::getInt32Ty(C));
  auto *Ty = FunctionType::get(One.getReturnType(), Params, false);
  Function *V = Function::Create(Ty, GlobalValue::InternalLinkage,
                                 One.getName() + ".lanes", One.getParent());
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < One.arg_size(); ++I) {
    VMap[One.getArg(I)] = V->getArg(I);
    V->getArg(I)->setName(One.getArg(I)->getName());
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(V, &One, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  V->getArg(One.arg_size())->setName("lanes.mask");
  V->getArg(One.arg_size() + 1)->setName("lanes.leader");
  V->setLinkage(GlobalValue::InternalLinkage);
  // It meets the other lanes of its group: no call to it may move under a
  // condition.
  V->addFnAttr(Attribute::Convergent);
  for (unsigned Round = 0; Round < 16; ++Round) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(*V))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && !keptAsCall(Target, *Callee))
          Calls.push_back(Call);
    if (Calls.empty())
      return V;
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      if (!InlineFunction(*Call, IFI).isSuccess()) {
        Refusal = "'" + Call->getCalledFunction()->getName().str() +
                  "' cannot be inlined into the lane's derivative";
        V->eraseFromParent();
        return nullptr;
      }
    }
  }
  Refusal = "'" + One.getName().str() + "' is recursive";
  V->eraseFromParent();
  return nullptr;
}

/// What the variant does to each instruction.
struct Rewrites {
  SmallVector<Instruction *, 8> SyncBefore; ///< lanes meet, then all write
  SmallVector<Instruction *, 8> Once;       ///< the leader alone, result read
  SmallVector<const Value *, 8> WriteRoots, ReadRoots; ///< primal memory
};

bool isGpuadMessage(const Value *Format) {
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Format));
  return GV && GV->getName().starts_with("gpuad.");
}

/// Classifies \p I; returns why it cannot be made once-only, or "".
std::string classify(Instruction &I, Origins &O, Rewrites &R,
                     const TargetHooks &Target, const CallTable &Calls) {
  auto Named = [&](const Value *P) {
    return P->hasName() ? "'" + P->getName().str() + "'"
                        : std::string("memory");
  };
  auto Mine = [](Origin Of) {
    return Of == Origin::Private || Of == Origin::Own || Of == Origin::Shadow;
  };
  auto Note = [&](const Value *P, Origin Of, bool Write) {
    if (Of == Origin::Primal || Of == Origin::Unknown)
      (Write ? R.WriteRoots : R.ReadRoots).push_back(getUnderlyingObject(P));
  };
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    Origin Of = O.of(Load->getPointerOperand());
    Note(Load->getPointerOperand(), Of, false);
    if (!Load->isSimple() && Of == Origin::Primal)
      R.Once.push_back(Load);
    else if (!Load->isSimple() && Of == Origin::Unknown)
      return "an atomic or volatile read of " +
             Named(Load->getPointerOperand()) + " of unknown origin";
    return "";
  }
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Origin Of = O.of(Store->getPointerOperand());
    Note(Store->getPointerOperand(), Of, true);
    if (Mine(Of))
      return "";
    if (Store->isSimple())
      R.SyncBefore.push_back(Store);
    else if (Of == Origin::Primal)
      R.Once.push_back(Store);
    else
      return "an atomic or volatile write to " +
             Named(Store->getPointerOperand()) + " of unknown origin";
    return "";
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    Value *P = isa<AtomicRMWInst>(I)
                   ? cast<AtomicRMWInst>(I).getPointerOperand()
                   : cast<AtomicCmpXchgInst>(I).getPointerOperand();
    Origin Of = O.of(P);
    Note(P, Of, true);
    Note(P, Of, false);
    if (Of == Origin::Primal)
      R.Once.push_back(&I);
    else if (Of == Origin::Unknown)
      return "an atomic on " + Named(P) +
             ", which may be primal or shadow memory";
    return "";
  }
  auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return "";
  if (auto *MI = dyn_cast<MemIntrinsic>(Call)) {
    if (MI->isVolatile())
      return "a volatile memory intrinsic";
    Origin Of = O.of(MI->getDest());
    Note(MI->getDest(), Of, true);
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      Note(MT->getSource(), O.of(MT->getSource()), false);
    if (Of == Origin::Primal || Of == Origin::Unknown)
      R.SyncBefore.push_back(MI);
    return "";
  }
  const Function *Callee = Call->getCalledFunction();
  if (!Callee)
    return "a call through a function pointer";
  if (Target.classifyDeviceCall(*Callee) == TargetHooks::DeviceCall::Print) {
    // gpuad's own messages (a lane's heap, its tape) are the lane's; the
    // program's output is the calling thread's.
    if (!isGpuadMessage(Call->getArgOperand(0)))
      R.Once.push_back(Call);
    return "";
  }
  if (auto *II = dyn_cast<IntrinsicInst>(Call)) {
    // Warp operations, fences and the like touch no memory a program sees;
    // an intrinsic that writes memory (a target's atomic) is not known.
    if (!II->mayWriteToMemory() || II->onlyAccessesInaccessibleMemory() ||
        II->isAssumeLikeIntrinsic() || II->isLifetimeStartOrEnd())
      return "";
    return "a call to '" + Callee->getName().str() +
           "', which writes memory a lane cannot tell is its own";
  }
  if (Callee->onlyReadsMemory() || Callee->doesNotReturn() ||
      Calls.classify(*Call).isHeap() || keptAsCall(Target, *Callee))
    return "";
  return "a call to '" + Callee->getName().str() +
         "', whose effects a lane cannot make once";
}

bool isNoAliasRoot(const Value *Root, const Function &V,
                   const DerivativeSignature &Sig, const Function *Primal,
                   bool AssumeNoAlias) {
  const auto *A = dyn_cast<Argument>(Root);
  if (!A || A->getParent() != &V)
    return false;
  for (unsigned I = 0; I < Sig.PrimalParam.size(); ++I)
    if (Sig.PrimalParam[I] == A->getArgNo())
      return AssumeNoAlias || Primal->getArg(I)->hasNoAliasAttr();
  return false;
}

/// No write to primal memory may change what a read of it sees.
bool writesAreUnseen(const Rewrites &R, const Function &V,
                     const DerivativeSignature &Sig, const Function *Primal,
                     bool AssumeNoAlias) {
  for (const Value *W : R.WriteRoots)
    for (const Value *Rd : R.ReadRoots) {
      if (W == Rd)
        return false;
      if (isNoAliasRoot(W, V, Sig, Primal, AssumeNoAlias) ||
          isNoAliasRoot(Rd, V, Sig, Primal, AssumeNoAlias))
        continue;
      if (isa<GlobalVariable>(W) && isa<GlobalVariable>(Rd))
        continue;
      return false;
    }
  return true;
}

/// \p V (any first-class type) as lane \p Lane holds it.
Value *readLane(IRBuilderBase &B, TargetHooks &Target, Value *V, Value *Lane,
                Value *Mask) {
  if (auto *ST = dyn_cast<StructType>(V->getType())) {
    Value *Out = PoisonValue::get(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      Out = B.CreateInsertValue(
          Out, readLane(B, Target, B.CreateExtractValue(V, I), Lane, Mask), I);
    return Out;
  }
  if (V->getType()->isIntegerTy(1))
    return B.CreateTrunc(
        Target.emitReadLane(B, B.CreateZExt(V, B.getInt32Ty()), Lane, Mask),
        B.getInt1Ty());
  return Target.emitReadLane(B, V, Lane, Mask);
}

/// The leader lane alone runs \p I; the others read its result.
void makeOnce(Instruction &I, Value *Mask, Value *Leader, TargetHooks &Target) {
  IRBuilder<> B(&I);
  Target.emitLaneSync(B, Mask);
  Value *IsLeader = B.CreateICmpEQ(Target.emitLaneIndex(B), Leader);
  SmallVector<Use *, 4> Uses;
  for (Use &U : I.uses())
    Uses.push_back(&U);
  BasicBlock *Head = I.getParent();
  Instruction *Then = SplitBlockAndInsertIfThen(IsLeader, &I, false);
  BasicBlock *Tail = I.getParent();
  I.moveBefore(Then->getIterator());
  B.SetInsertPoint(Tail, Tail->getFirstInsertionPt());
  if (!Uses.empty()) {
    PHINode *Phi = B.CreatePHI(I.getType(), 2);
    Phi->addIncoming(&I, Then->getParent());
    Phi->addIncoming(PoisonValue::get(I.getType()), Head);
    Value *Shared = readLane(B, Target, Phi, Leader, Mask);
    for (Use *U : Uses)
      U->set(Shared);
  }
  Target.emitLaneSync(B, Mask);
}

/// A mutable global \p I uses that the primal does not: a global's shadow,
/// which the width-1 derivative keeps once for all directions.
const GlobalVariable *
foreignGlobal(const Instruction &I,
              const SmallPtrSetImpl<const GlobalVariable *> &PrimalGlobals) {
  SmallVector<const Value *, 8> Work(I.op_begin(), I.op_end());
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
      if (!GV->isConstant() && !isGpuadOwned(*GV) && !PrimalGlobals.count(GV))
        return GV;
    } else if (const auto *CE = dyn_cast<ConstantExpr>(V)) {
      Work.append(CE->op_begin(), CE->op_end());
    }
  }
  return nullptr;
}

} // namespace

LaneVariant makeLaneVariant(Function &One, const DerivativeSignature &Sig,
                            const Function *Primal, bool AssumeNoAlias,
                            TargetHooks &Target, const CallTable &Calls,
                            function_ref<void(Function &)> Simplify) {
  LaneVariant Out;
  Function *V = cloneWithLaneParams(One, Target, Out.Refusal);
  if (!V)
    return Out;
  // What the inlined calls passed through memory, in registers again: the
  // origins below follow values, not stack slots.
  Simplify(*V);
  SmallPtrSet<const GlobalVariable *, 8> PrimalGlobals;
  collectPrimalGlobals(*Primal, PrimalGlobals);
  Origins O(*V, Sig, PrimalGlobals, Calls);
  Rewrites R;
  for (Instruction &I : instructions(*V)) {
    std::string Why = classify(I, O, R, Target, Calls);
    if (const GlobalVariable *GV = foreignGlobal(I, PrimalGlobals))
      Why = "'" + GV->getName().str() +
            "', a global's shadow, which a lane would share with the other "
            "directions";
    if (!Why.empty()) {
      Out.Refusal = "its derivative has " + Why;
      V->eraseFromParent();
      return Out;
    }
  }
  Out.Replayable =
      R.Once.empty() && writesAreUnseen(R, *V, Sig, Primal, AssumeNoAlias);
  Value *Mask = V->getArg(V->arg_size() - 2);
  Value *Leader = V->getArg(V->arg_size() - 1);
  for (Instruction *I : R.SyncBefore) {
    IRBuilder<> B(I);
    Target.emitLaneSync(B, Mask);
  }
  for (Instruction *I : R.Once)
    makeOnce(*I, Mask, Leader, Target);
  Out.F = V;
  return Out;
}

} // namespace gpuad
