//===- FunctionPointers.cpp - How a function pointer is used --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/FunctionPointers.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

/// Whether \p V is only called, compared or passed on to arguments that are
/// (through the stack slot -O0 keeps it in, too).
static bool isOnlyCalledValue(const Value &V, unsigned Depth) {
  if (!V.getType()->isPointerTy() || Depth > 3)
    return false;
  return all_of(V.uses(), [&](const Use &U) {
    const User *Usr = U.getUser();
    if (isa<ICmpInst>(Usr))
      return true;
    // A member function pointer's two cases (virtual, or not) joined.
    if (isa<PHINode>(Usr) || isa<SelectInst>(Usr))
      return isOnlyCalledValue(*Usr, Depth + 1);
    // An -O0 spill: a local that is only stored to and loaded from.
    if (const auto *SI = dyn_cast<StoreInst>(Usr)) {
      const auto *Slot = dyn_cast<AllocaInst>(SI->getPointerOperand());
      return SI->getValueOperand() == &V && Slot &&
             all_of(Slot->users(), [&](const User *S) {
               if (const auto *L = dyn_cast<LoadInst>(S))
                 return isOnlyCalledValue(*L, Depth + 1);
               const auto *Other = dyn_cast<StoreInst>(S);
               return Other && Other->getPointerOperand() == Slot;
             });
    }
    const auto *Call = dyn_cast<CallBase>(Usr);
    if (!Call)
      return false;
    if (Call->isCallee(&U))
      return true;
    unsigned No = Call->getArgOperandNo(&U);
    if (Call->doesNotAccessMemory(No) && Call->doesNotCapture(No))
      return true;
    const Function *Callee = Call->getCalledFunction();
    return Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
           No < Callee->arg_size() && Callee->getArg(No) != &V &&
           isOnlyCalledValue(*Callee->getArg(No), Depth + 1);
  });
}

bool isOnlyCalled(const Value &V) { return isOnlyCalledValue(V, 0); }

} // namespace gpuad
