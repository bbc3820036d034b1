//===- InactiveCalls.cpp - Enzyme's __enzyme_call_inactive ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/InactiveCalls.h"

#include "Requests/RequestParser.h"
#include "Requests/ResultPacking.h"
#include "Support/Diagnostics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

bool lowerInactiveCall(CallBase &Call, Diagnostics &Diags) {
  Function &Caller = *Call.getFunction();
  if (Call.arg_size() == 0 ||
      !Call.getArgOperand(0)->getType()->isPointerTy()) {
    Diags.error(Caller, Call,
                "__enzyme_call_inactive takes the function to call first");
    return false;
  }
  if (Call.hasStructRetAttr() || isa<InvokeInst>(Call)) {
    Diags.error(Caller, Call,
                "__enzyme_call_inactive: a result returned through memory, "
                "or an invoke, is not supported; call the function directly "
                "from a function marked enzyme_inactive");
    return false;
  }
  SmallVector<Value *, 8> Args(drop_begin(Call.args()));
  IRBuilder<> B(&Call);
  // A known function is called with its own type: C's variadic promotions
  // of the arguments (float to double) are undone.  A pointer is called
  // with the types as passed.
  Function *F = resolveFunction(Call.getArgOperand(0));
  FunctionType *Ty = nullptr;
  if (F && F->arg_size() == Args.size() && !F->isVarArg() &&
      all_of(enumerate(Args), [&](auto A) {
        return canCoerce(A.value()->getType(), F->getArg(A.index())->getType());
      })) {
    Ty = F->getFunctionType();
    for (unsigned I = 0; I < Args.size(); ++I)
      Args[I] = coerceArgument(B, Args[I], Ty->getParamType(I));
  } else {
    SmallVector<Type *, 8> Types;
    for (Value *A : Args)
      Types.push_back(A->getType());
    Ty = FunctionType::get(Call.getType(), Types, /*isVarArg=*/false);
  }
  CallInst *New = B.CreateCall(Ty, F ? F : Call.getArgOperand(0), Args);
  New->setDebugLoc(Call.getDebugLoc());
  New->addFnAttr(Attribute::get(Call.getContext(), "enzyme_inactive"));
  Value *Result = New;
  if (F) {
    New->setCallingConv(F->getCallingConv());
    // The declared result, from the function's (a float read as the double
    // C's declaration promises).
    if (New->getType() != Call.getType() && !Call.getType()->isVoidTy()) {
      if (!New->getType()->isFloatingPointTy() ||
          !Call.getType()->isFloatingPointTy()) {
        Diags.error(Caller, Call,
                    "__enzyme_call_inactive: '" + F->getName() + "' returns " +
                        typeName(New->getType()) + ", but the call declares " +
                        typeName(Call.getType()));
        New->eraseFromParent();
        return false;
      }
      Result = B.CreateFPCast(New, Call.getType());
    }
  }
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return true;
}

} // namespace gpuad
