//===- ArgumentWrites.cpp - Which parameters a function writes through ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ArgumentWrites.h"

#include "Rules/KnownFunctions.h"

#include "llvm/Analysis/ValueTracking.h"
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

SmallBitVector ArgumentWrites::writtenArguments(const CallBase &Call) {
  return ofCall(Call, 0);
}

SmallBitVector ArgumentWrites::ofCall(const CallBase &Call, unsigned Depth) {
  SmallBitVector Bits(Call.arg_size());
  if (!mayWriteSomething(Call))
    return Bits;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
      classifyHeapCall(Call)) {
    // Unknown code (or a heap function releasing its argument): every
    // pointer argument.
    for (unsigned K = 0; K < Call.arg_size(); ++K)
      Bits[K] = Call.getArgOperand(K)->getType()->isPointerTy();
    return Bits;
  }
  const SmallBitVector &F = ofFunction(*Callee, Depth);
  for (unsigned K = 0; K < Call.arg_size() && K < F.size(); ++K)
    Bits[K] = F[K];
  return Bits;
}

const SmallBitVector &ArgumentWrites::ofFunction(const Function &F,
                                                 unsigned Depth) {
  if (auto It = Known.find(&F); It != Known.end())
    return It->second;
  SmallBitVector All(F.arg_size());
  for (const Argument &A : F.args())
    All[A.getArgNo()] = A.getType()->isPointerTy();
  // Too deep, or recursive: assume every pointer parameter.
  if (Depth > 4 || !InProgress.insert(&F).second)
    return Known[&F] = All;

  SmallBitVector Bits(F.arg_size());
  bool Everything = false;
  // The parameter (or nothing) a written address comes from.
  auto Written = [&](const Value *Ptr) {
    const Value *U = getUnderlyingObject(Ptr);
    if (const auto *A = dyn_cast<Argument>(U))
      Bits[A->getArgNo()] = true;
    else if (!isa<AllocaInst>(U) &&
             !(isa<CallBase>(U) && classifyHeapCall(*cast<CallBase>(U))))
      Everything = true; // a loaded pointer, a global, ...
  };
  for (const Instruction &I : instructions(F)) {
    if (const auto *SI = dyn_cast<StoreInst>(&I))
      Written(SI->getPointerOperand());
    else if (const auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
      Written(MI->getRawDest());
    else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Written(RMW->getPointerOperand());
    else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      Written(CX->getPointerOperand());
    else if (const auto *Call = dyn_cast<CallBase>(&I);
             Call && !isa<DbgInfoIntrinsic>(Call) &&
             !Call->isLifetimeStartOrEnd()) {
      SmallBitVector Inner = ofCall(*Call, Depth + 1);
      for (unsigned K = 0; K < Inner.size(); ++K)
        if (Inner[K])
          Written(Call->getArgOperand(K));
    }
    if (Everything)
      break;
  }
  InProgress.erase(&F);
  return Known[&F] = Everything ? All : Bits;
}

} // namespace gpuad
