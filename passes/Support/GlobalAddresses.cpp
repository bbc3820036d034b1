//===- GlobalAddresses.cpp - Where a global's address goes ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/GlobalAddresses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gpuad {

static void collect(const Constant *C,
                    SmallVectorImpl<const GlobalVariable *> &Out,
                    unsigned Depth) {
  if (Depth > 8 || isa<ConstantData>(C) || isa<Function>(C))
    return;
  if (C->getType()->isPointerTy())
    if (const auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(C))) {
      Out.push_back(G);
      return;
    }
  for (const Use &Op : C->operands())
    collect(cast<Constant>(Op.get()), Out, Depth + 1);
}

void collectAddressedGlobals(const Constant *C,
                             SmallVectorImpl<const GlobalVariable *> &Out) {
  collect(C, Out, 0);
}

/// Whether \p U is only llvm.used or the like (keeps a global alive).
static bool isCompilerUsedList(const User *U) {
  const auto *G = dyn_cast<GlobalVariable>(U);
  return G && G->getName().starts_with("llvm.");
}

bool anyAddressUse(const GlobalVariable &GV,
                   function_ref<bool(const Use &)> Counts) {
  SmallVector<const Value *, 8> Work = {&GV};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isCompilerUsedList(Usr))
        continue;
      if (isa<GEPOperator, BitCastOperator, AddrSpaceCastOperator>(Usr)) {
        Work.push_back(Usr);
        continue;
      }
      if (Counts(U))
        return true;
    }
  }
  return false;
}

bool addressEscapes(const GlobalVariable &GV) {
  return anyAddressUse(GV, [](const Use &U) {
    const User *Usr = U.getUser();
    // Calls are followed where they are made (their arguments).
    if (isa<LoadInst>(Usr) || isa<ICmpInst>(Usr) || isa<CallBase>(Usr))
      return false;
    if (const auto *SI = dyn_cast<StoreInst>(Usr))
      return SI->getPointerOperand() != U.get();
    return !(isa<ConstantAggregate>(Usr) &&
             all_of(Usr->users(), isCompilerUsedList));
  });
}

} // namespace gpuad
