//===- LocalSlots.cpp - What -O0 keeps in local variables -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/LocalSlots.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace gpuad {

Value *onlyStoredValue(const AllocaInst &Slot) {
  const Value *Stored = nullptr;
  SmallVector<const Value *, 4> Addresses = {&Slot};
  while (!Addresses.empty()) {
    const Value *Address = Addresses.pop_back_val();
    for (const User *U : Address->users()) {
      if (const auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() != Address || Stored)
          return nullptr;
        Stored = SI->getValueOperand();
      } else if (isa<AddrSpaceCastInst>(U) || isa<BitCastInst>(U)) {
        Addresses.push_back(U);
      } else if (const auto *II = dyn_cast<IntrinsicInst>(U);
                 !isa<LoadInst>(U) && !U->isDroppable() &&
                 !(II && II->isLifetimeStartOrEnd())) {
        return nullptr;
      }
    }
  }
  // Only read here; callers may build on the value.
  return const_cast<Value *>(Stored);
}

} // namespace gpuad
