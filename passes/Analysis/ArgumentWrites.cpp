//===- ArgumentWrites.cpp - Which parameters a function writes through ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ArgumentWrites.h"

#include "Rules/KernelLaunch.h"

#include "Rules/CallTable.h"
#include "Support/EntryPoints.h"
#include "Support/LocalSlots.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace gpuad {

/// Whether \p Call's memory effects allow writing through arguments or
/// other reachable memory (errno and inaccessible memory do not count).
static bool mayWriteSomething(const CallBase &Call) {
  MemoryEffects ME = Call.getMemoryEffects();
  return isModSet(ME.getModRef(IRMemLocation::ArgMem)) ||
         isModSet(ME.getModRef(IRMemLocation::Other));
}

/// The object \p Ptr points into, seen through -O0's local copies of
/// pointer parameters: a load from a local that is only ever assigned a
/// parameter (`store ptr %p, ptr %p.addr`, then only loads) is that
/// parameter.
static const Value *objectOf(const Value *Ptr) {
  const Value *U = getUnderlyingObject(Ptr);
  const auto *Load = dyn_cast<LoadInst>(U);
  const auto *Slot =
      Load
          ? dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts())
          : nullptr;
  const Value *Stored = Slot ? onlyStoredValue(*Slot) : nullptr;
  return Stored && isa<Argument>(Stored->stripPointerCasts())
             ? Stored->stripPointerCasts()
             : U;
}

/// The address \p I writes itself (a store, a memory intrinsic's
/// destination, an atomic's location), or null.
static const Value *writtenAddress(const Instruction &I) {
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getPointerOperand();
  if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
    return MI->getRawDest();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  return nullptr;
}

/// Whether \p I may write data that can carry a derivative where it writes:
/// a float (or a vector or aggregate holding one), an integer moved from
/// memory whole (a double copied as an i64), a copy of unknown bytes.  A
/// pointer, an integer the function computes, a memset's constant do not.
static bool writesData(const Instruction &I) {
  if (const auto *SI = dyn_cast<StoreInst>(&I)) {
    const Value *V = SI->getValueOperand();
    if (carriesFloat(V->getType()))
      return true;
    if (V->getType()->isPtrOrPtrVectorTy())
      return false;
    const Value *Moved = V->stripPointerCasts();
    return isa<LoadInst, BitCastInst, ExtractValueInst, ExtractElementInst,
               PHINode, SelectInst, Argument>(Moved) &&
           V->getType()->getScalarSizeInBits() >= 16;
  }
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return carriesFloat(RMW->getValOperand()->getType());
  return isa<MemTransferInst>(I);
}

SmallBitVector ArgumentWrites::writtenArguments(const CallBase &Call) {
  return ofCall(Call, 0).Any;
}

SmallBitVector ArgumentWrites::dataWrittenArguments(const CallBase &Call) {
  return ofCall(Call, 0).Data;
}

ParameterWrites ArgumentWrites::ofCall(const CallBase &Call, unsigned Depth) {
  ParameterWrites W{SmallBitVector(Call.arg_size()),
                    SmallBitVector(Call.arg_size())};
  if (!mayWriteSomething(Call))
    return W;
  CallClass Class = Calls.classify(Call);
  if (Class.Effect == CallEffect::Buffer) {
    // The buffers its row says it writes, with floats; LAPACK's status and
    // row interchanges, integers.
    const BufferRoutine &R = *Class.Routine;
    for (auto [K, Arg] : enumerate(R.Args)) {
      std::optional<unsigned> Op = R.operand(K, Class.Spelling.Convention);
      if (Op && Arg.isBuffer() && (Arg.Access & Writes))
        W.Any[*Op] = W.Data[*Op] = true;
      else if (Op && (Arg.Kind == ArgKind::Info ||
                      (Arg.Kind == ArgKind::Pivots && (Arg.Access & Writes))))
        W.Any[*Op] = true;
    }
    // cuBLAS writes a scalar result through a pointer.
    if (R.ReturnsScalar && Class.Spelling.Convention == BufferSpelling::Cublas)
      W.Any[R.resultOperand()] = W.Data[R.resultOperand()] = true;
    return W;
  }
  if (Class.Effect == CallEffect::Message) {
    // Its buffers (a send's too, as far as anyone here can tell: the
    // analyses take every buffer as exchanged), and the status it fills.
    for (int8_t Op : Class.Mpi->buffers())
      W.Any[Op] = W.Data[Op] = true;
    for (int8_t Op : {Class.Mpi->Status, Class.Mpi->Handle, Class.Mpi->Flag})
      if (Op >= 0)
        W.Any[Op] = true;
    return W;
  }
  if (Class.Effect == CallEffect::KernelLaunch) {
    // The kernel's pointer arguments but those to const data (not the
    // runtime function, the handle or the stream: `readnone`), with
    // anything.  (A runtime launch gpuad did not normalise: everything.)
    std::optional<KernelLaunch> L =
        KernelLaunch::match(const_cast<CallBase &>(Call));
    unsigned First = Call.arg_size() - (L ? L->numArgs() : 0);
    for (unsigned K = 0; K < Call.arg_size(); ++K)
      W.Any[K] = W.Data[K] = Call.getArgOperand(K)->getType()->isPointerTy() &&
                             !Call.paramHasAttr(K, Attribute::ReadNone) &&
                             !(L && K >= First && L->readsOnly(K - First));
    return W;
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
      Class.isHeap()) {
    // Unknown code (or a heap function releasing its argument): every
    // pointer argument, with anything.
    for (unsigned K = 0; K < Call.arg_size(); ++K)
      W.Any[K] = W.Data[K] = Call.getArgOperand(K)->getType()->isPointerTy();
    if (Class.isHeap())
      W.Data.reset();
    return W;
  }
  const ParameterWrites &F = ofFunction(*Callee, Depth);
  for (unsigned K = 0; K < Call.arg_size() && K < F.Any.size(); ++K) {
    W.Any[K] = F.Any[K];
    W.Data[K] = F.Data[K];
  }
  return W;
}

const ParameterWrites &ArgumentWrites::ofFunction(const Function &F,
                                                  unsigned Depth) {
  if (auto It = Known.find(&F); It != Known.end())
    return It->second;
  SmallBitVector All(F.arg_size());
  for (const Argument &A : F.args())
    All[A.getArgNo()] = A.getType()->isPointerTy();
  // Too deep, or recursive: assume every pointer parameter.
  if (Depth > 4 || !InProgress.insert(&F).second)
    return Known[&F] = ParameterWrites{All, All};

  ParameterWrites W{SmallBitVector(F.arg_size()), SmallBitVector(F.arg_size())};
  bool Everything = false;
  // The parameter (or nothing) a written address comes from.
  auto Written = [&](const Value *Ptr, bool Data) {
    const Value *U = objectOf(Ptr);
    if (const auto *A = dyn_cast<Argument>(U)) {
      W.Any[A->getArgNo()] = true;
      W.Data[A->getArgNo()] = W.Data[A->getArgNo()] || Data;
    } else if (!isa<AllocaInst>(U) && !Calls.heapCall(U).has_value()) {
      Everything = true; // a loaded pointer, a global, ...
    }
  };
  for (const Instruction &I : instructions(F)) {
    if (const Value *Ptr = writtenAddress(I))
      Written(Ptr, writesData(I));
    else if (const auto *Call = dyn_cast<CallBase>(&I);
             Call && !isa<DbgInfoIntrinsic>(Call) &&
             !Call->isLifetimeStartOrEnd()) {
      ParameterWrites Inner = ofCall(*Call, Depth + 1);
      for (unsigned K = 0; K < Inner.Any.size(); ++K)
        if (Inner.Any[K])
          Written(Call->getArgOperand(K), Inner.Data[K]);
    }
    if (Everything)
      break;
  }
  InProgress.erase(&F);
  if (Everything)
    W = ParameterWrites{All, All};
  return Known[&F] = W;
}

GlobalWrites ArgumentWrites::writtenGlobals(const CallBase &Call) {
  return globalsOfCall(Call, 0);
}

GlobalWrites ArgumentWrites::globalsOfCall(const CallBase &Call,
                                           unsigned Depth) {
  GlobalWrites W;
  if (!mayWriteSomething(Call) ||
      (isa<IntrinsicInst>(Call) && !isa<AnyMemIntrinsic>(Call)))
    return W;
  CallClass Class = Calls.classify(Call);
  if (Class.inactive() || Class.Effect == CallEffect::Buffer ||
      Class.Effect == CallEffect::Message ||
      Class.Effect == CallEffect::KernelLaunch)
    return W; // no global, or only the buffers it is given
  if (Class.isHeap())
    return W; // its own blocks, or the block it is given
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg()) {
    W.Any = true;
    return W;
  }
  return globalsOf(*Callee, Depth);
}

const GlobalWrites &ArgumentWrites::globalsOf(const Function &F,
                                              unsigned Depth) {
  if (auto It = KnownGlobals.find(&F); It != KnownGlobals.end())
    return It->second;
  // Too deep, or recursive: any global.
  if (Depth > 4 || !GlobalsInProgress.insert(&F).second) {
    GlobalWrites Unknown;
    Unknown.Any = true;
    return KnownGlobals[&F] = Unknown;
  }
  GlobalWrites W;
  auto Written = [&](const Value *Ptr) {
    const Value *U = objectOf(Ptr);
    if (const auto *GV = dyn_cast<GlobalVariable>(U)) {
      if (!GV->isConstant())
        W.Globals.insert(GV);
    } else if (!isa<Argument, AllocaInst>(U) &&
               !Calls.heapCall(U).has_value()) {
      W.Any = true; // an address loaded from memory, ...
    }
  };
  for (const Instruction &I : instructions(F)) {
    if (const Value *Ptr = writtenAddress(I))
      Written(Ptr);
    else if (const auto *Call = dyn_cast<CallBase>(&I)) {
      GlobalWrites Inner = globalsOfCall(*Call, Depth + 1);
      W.Any |= Inner.Any;
      W.Globals.insert(Inner.Globals.begin(), Inner.Globals.end());
    }
    if (W.Any)
      break;
  }
  GlobalsInProgress.erase(&F);
  return KnownGlobals[&F] = W;
}

} // namespace gpuad
