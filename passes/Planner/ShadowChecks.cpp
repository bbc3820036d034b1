//===- ShadowChecks.cpp - Run-time checks of shadows the program set ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Some shadows come from the program, and only the running program shows
/// whether they follow their primals: a pointer a global holds that the
/// program set outside derivative code (its shadow gpuad made stays null),
/// or a function pointer whose shadow holds something other than the
/// function (Enzyme's hand-written {augmented, reverse} pair, which gpuad
/// would not call).  Host derivative code checks them where it uses them,
/// through the helpers made here, and stops with the message the call site
/// passes rather than write through null or silently ignore the shadow.
//===----------------------------------------------------------------------===//

#include "Planner/DerivativeContext.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// The helper `(primal, shadow, message) -> shadow` named \p Name, which
/// prints the message and traps where \p Wrong holds.
static Function *
makeCheck(Module &M, TargetHooks &Target, StringRef Name,
          function_ref<Value *(IRBuilderBase &, Value *, Value *)> Wrong) {
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Function *F = Function::Create(FunctionType::get(Ptr, {Ptr, Ptr, Ptr}, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  // Inlined where it is used: a compare and a branch to the cold stop.
  F->addFnAttr(Attribute::AlwaysInline);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Stop = BasicBlock::Create(C, "stop", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Primal = F->getArg(0), *Shadow = F->getArg(1);
  B.CreateCondBr(Wrong(B, Primal, Shadow), Stop, Done);
  B.SetInsertPoint(Stop);
  Target.emitPrintString(B, F->getArg(2));
  B.CreateIntrinsic(Intrinsic::trap, {});
  B.CreateUnreachable();
  B.SetInsertPoint(Done);
  B.CreateRet(Shadow);
  return F;
}

Function *DerivativeContext::shadowAddressCheck() {
  MadeInlineHelpers = true;
  return makeCheck(M, target(), "gpuad.check_shadow_address",
                   [](IRBuilderBase &B, Value *Primal, Value *Shadow) {
                     return B.CreateAnd(B.CreateIsNull(Shadow),
                                        B.CreateIsNotNull(Primal));
                   });
}

Function *DerivativeContext::functionShadowCheck() {
  MadeInlineHelpers = true;
  return makeCheck(M, target(), "gpuad.check_function_shadow",
                   [](IRBuilderBase &B, Value *Primal, Value *Shadow) {
                     return B.CreateAnd(B.CreateIsNotNull(Shadow),
                                        B.CreateICmpNE(Shadow, Primal));
                   });
}

} // namespace gpuad
