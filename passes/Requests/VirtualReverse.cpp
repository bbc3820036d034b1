//===- VirtualReverse.cpp - Enzyme's __enzyme_virtualreverse --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/VirtualReverse.h"

#include "Requests/RequestParser.h"
#include "Support/Diagnostics.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

bool lowerVirtualReverse(CallBase &Call, Diagnostics &Diags) {
  Function &Caller = *Call.getFunction();
  Value *Op = Call.arg_size() == 1 ? Call.getArgOperand(0) : nullptr;
  if (!Op || !Op->getType()->isPointerTy() || !Call.getType()->isPointerTy() ||
      isa<InvokeInst>(Call)) {
    Diags.error(Caller, Call,
                "__enzyme_virtualreverse takes one pointer (a function or a "
                "vtable) and returns a pointer; got '" +
                    (Op ? describe(*Op) : std::string("no argument")) + "'");
    return false;
  }
  IRBuilder<> B(&Call);
  Call.replaceAllUsesWith(
      B.CreatePointerBitCastOrAddrSpaceCast(Op, Call.getType()));
  Call.eraseFromParent();
  return true;
}

} // namespace gpuad
