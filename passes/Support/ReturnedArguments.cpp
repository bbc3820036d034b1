//===- ReturnedArguments.cpp - Which arguments a function returns ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/ReturnedArguments.h"

#include "Support/LocalSlots.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

namespace {

/// \p V, or the one value stored to the -O0 local slot \p V is loaded from
/// (a parameter's own slot); null for a load from anywhere else.
const Value *throughLocalSlot(const Value *V) {
  const auto *Load = dyn_cast<LoadInst>(V);
  if (!Load)
    return V;
  const auto *Slot =
      dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts());
  return Slot ? onlyStoredValue(*Slot) : nullptr;
}

/// Calls are followed this deep (accessor chains are short).
constexpr unsigned MaxDepth = 6;

class Walker {
public:
  Walker(const Function &F, unsigned Depth) : F(F), Depth(Depth) {
    R.Params.resize(F.arg_size());
  }

  ReturnedArguments run(ArrayRef<unsigned> Idx) {
    for (const BasicBlock &BB : F)
      if (const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        if (const Value *V = Ret->getReturnValue())
          walkAt(V, Idx);
    return R;
  }

private:
  const Function &F;
  unsigned Depth;
  ReturnedArguments R;
  SmallPtrSet<const Value *, 16> Seen;

  void walkAt(const Value *Agg, ArrayRef<unsigned> Idx) {
    if (Idx.empty())
      return walk(Agg);
    if (Value *Leaf = FindInsertedValue(const_cast<Value *>(Agg), Idx))
      return walk(Leaf);
    if (const auto *Call = dyn_cast<CallBase>(Agg))
      return walkCall(*Call, Idx);
    R.Other = true;
  }

  void walkCall(const CallBase &Call, ArrayRef<unsigned> Idx) {
    const Function *Callee = Call.getCalledFunction();
    if (!Callee || Callee->isDeclaration() || Callee->isVarArg() ||
        Depth >= MaxDepth) {
      R.Other = true;
      return;
    }
    ReturnedArguments Inner = Walker(*Callee, Depth + 1).run(Idx);
    R.Other |= Inner.Other;
    for (unsigned K : Inner.Params.set_bits())
      if (K < Call.arg_size())
        walk(Call.getArgOperand(K));
  }

  void walk(const Value *V) {
    if (!Seen.insert(V).second)
      return;
    if (const auto *A = dyn_cast<Argument>(V)) {
      R.Params.set(A->getArgNo());
    } else if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
      walk(GEP->getPointerOperand());
    } else if (isa<BitCastInst, AddrSpaceCastInst>(V)) {
      walk(cast<Instruction>(V)->getOperand(0));
    } else if (const auto *PN = dyn_cast<PHINode>(V)) {
      for (const Value *In : PN->incoming_values())
        walk(In);
    } else if (const auto *Sel = dyn_cast<SelectInst>(V)) {
      walk(Sel->getTrueValue());
      walk(Sel->getFalseValue());
    } else if (const auto *EV = dyn_cast<ExtractValueInst>(V)) {
      walkAt(EV->getAggregateOperand(), EV->getIndices());
    } else if (const auto *Call = dyn_cast<CallBase>(V)) {
      walkCall(*Call, {});
    } else if (isa<LoadInst>(V)) {
      if (const Value *Stored = throughLocalSlot(V))
        walk(Stored);
      else
        R.Other = true;
    } else if (!isa<ConstantPointerNull, UndefValue>(V)) {
      R.Other = true;
    }
  }
};

} // namespace

std::optional<unsigned> alwaysReturnedParameter(const Function &F) {
  if (F.isDeclaration() || !F.getReturnType()->isPointerTy())
    return std::nullopt;
  for (const Argument &A : F.args())
    if (A.hasReturnedAttr())
      return A.getArgNo();
  std::optional<unsigned> Which;
  for (const BasicBlock &BB : F) {
    const auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!Ret)
      continue;
    const Value *V =
        throughLocalSlot(Ret->getReturnValue()->stripPointerCasts());
    const auto *A = V ? dyn_cast<Argument>(V->stripPointerCasts()) : nullptr;
    if (!A || (Which && *Which != A->getArgNo()))
      return std::nullopt;
    Which = A->getArgNo();
  }
  return Which;
}

ReturnedArguments returnedArguments(const Function &F, ArrayRef<unsigned> Idx) {
  if (F.isDeclaration()) {
    ReturnedArguments R;
    R.Params.resize(F.arg_size());
    R.Other = true;
    return R;
  }
  return Walker(F, 0).run(Idx);
}

} // namespace gpuad
