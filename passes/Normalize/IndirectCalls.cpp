//===- IndirectCalls.cpp - Calls through function pointers ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/IndirectCalls.h"

#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Support/EntryPoints.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumDispatchedCalls, "Indirect calls dispatched on the primal callee");
STATISTIC(NumRestoredCalls,
          "Dispatched calls left inactive, made indirect again");

namespace gpuad {

/// Above this many candidates a dispatcher still works, but each call
/// compares the pointer with all of them: a warning says so.
static constexpr unsigned ManyCandidates = 64;

/// Whether a value of type \p T can carry a derivative (a float) or lead to
/// memory that does (a pointer).
static bool mayCarry(Type *T) {
  if (T->isFPOrFPVectorTy() || T->isPtrOrPtrVectorTy())
    return true;
  if (auto *S = dyn_cast<StructType>(T))
    return any_of(S->elements(), mayCarry);
  if (auto *A = dyn_cast<ArrayType>(T))
    return mayCarry(A->getElementType());
  return false;
}

/// The indirect calls rewrite() dispatches (not those the program marked
/// inactive: __enzyme_call_inactive through a pointer).
static bool isDispatched(const CallBase &Call) {
  FunctionType *Ty = Call.getFunctionType();
  return Call.isIndirectCall() && !Call.isInlineAsm() && !Ty->isVarArg() &&
         !Call.hasFnAttr("enzyme_inactive") && !isa<CallBrInst>(Call) &&
         (mayCarry(Ty->getReturnType()) || any_of(Ty->params(), mayCarry));
}

/// Whether the program may call \p F through a pointer: a use other than a
/// direct call, a request naming the function to differentiate, or
/// llvm.used.
static bool isAddressTaken(const Function &F) {
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (const auto *Call = dyn_cast<CallBase>(Usr)) {
      if (Call->isCallee(&U))
        continue;
      if (const Function *Callee = Call->getCalledFunction();
          Callee && classifyEntryPoint(Callee->getName()))
        continue;
      return true;
    }
    if (const auto *GV = dyn_cast<GlobalVariable>(Usr);
        GV && GV->getName().starts_with("llvm."))
      continue;
    // Constants (vtables, tables, casts) and instructions keep it.
    return true;
  }
  return false;
}

ArrayRef<Function *> IndirectCalls::possibleCallees(const CallBase &Call) {
  if (!isDispatched(Call))
    return {};
  return candidatesOf(Call.getFunctionType(), nullptr);
}

ArrayRef<Function *> IndirectCalls::candidatesOf(FunctionType *Ty,
                                                 const Function *User) {
  auto [It, New] = Candidates.try_emplace(Ty);
  if (!New)
    return It->second;
  for (Function &F : M) {
    if (F.getFunctionType() != Ty || F.isIntrinsic() || Made.count(&F) ||
        classifyEntryPoint(F.getName()) || !isAddressTaken(F))
      continue;
    // A declaration without a row has no derivative: the default case
    // names it at run time.  Rows (malloc through a table of allocators,
    // a BLAS routine) are differentiated by what they are, as direct calls.
    if (F.isDeclaration() && !Calls.hasDerivativeRow(F))
      continue;
    // A body that never returns (an abstract class's deleting destructor
    // traps) is left to the default case too.
    if (!F.isDeclaration() &&
        none_of(instructions(F),
                [](const Instruction &I) { return isa<ReturnInst>(I); }))
      continue;
    It->second.push_back(&F);
  }
  if (User && It->second.size() > ManyCandidates)
    Diags.warning(*User, DebugLoc(),
                  "a call through a function pointer has " +
                      Twine(It->second.size()) +
                      " possible callees in this module: its derivative "
                      "compares the pointer with each");
  return It->second;
}

Function *IndirectCalls::missHelper(const Function &User,
                                    const std::string &Message) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
                       GlobalValue::InternalLinkage, "gpuad.dispatch.miss", M);
  MissHelpers.insert(F);
  for (const Attribute &A : User.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      F->addFnAttr(A);
  // Not noreturn, though it never returns: the dispatcher's default case
  // must keep a path to its return, which the reverse sweep starts from.
  F->addFnAttr(InactiveAttr);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  if (Target.isGPU()) {
    Target.emitTrap(B, Message);
  } else {
    // dprintf(2, ...): stderr without naming the C library's FILE object.
    FunctionCallee Print = M.getOrInsertFunction(
        "dprintf", FunctionType::get(B.getInt32Ty(), {B.getInt32Ty(), Ptr},
                                     /*isVarArg=*/true));
    B.CreateCall(Print, {B.getInt32(2),
                         B.CreateGlobalString(Message + " (address %p)\n",
                                              "gpuad.dispatch.msg"),
                         F->getArg(0)});
    FunctionCallee Abort = M.getOrInsertFunction(
        "abort", FunctionType::get(Type::getVoidTy(C), false));
    B.CreateCall(Abort)->setDoesNotReturn();
  }
  B.CreateUnreachable();
  return F;
}

Function *IndirectCalls::dispatcherFor(CallBase &Call, const Function &User) {
  FunctionType *Ty = Call.getFunctionType();
  std::string Message =
      "gpuad: no derivative for the function called through a pointer in '" +
      demangle(User.getName()) + "'" + describeLocation(Call.getDebugLoc()) +
      ": its body was not in the module gpuad differentiated";
  Function *&D = Dispatchers[{Ty, Message}];
  if (D)
    return D;
  ArrayRef<Function *> Cands = candidatesOf(Ty, &User);
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  SmallVector<Type *, 8> Params = {Ptr};
  append_range(Params, Ty->params());
  D = Function::Create(FunctionType::get(Ty->getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, "gpuad.dispatch", M);
  Made[D] = true;
  for (const Attribute &A : User.getAttributes().getFnAttrs())
    if (A.isStringAttribute())
      D->addFnAttr(A);
  // The parameters keep the call's attributes (byval, sret, noundef, ...).
  AttributeList CallAttrs = Call.getAttributes();
  for (unsigned I = 0; I < Ty->getNumParams(); ++I)
    D->addParamAttrs(I + 1, AttrBuilder(C, CallAttrs.getParamAttrs(I)));
  // The function pointer is only compared: no memory is reached through it.
  D->addParamAttr(0, Attribute::ReadNone);
  D->addParamAttr(0, Attribute::getWithCaptureInfo(C, CaptureInfo::none()));
  D->setCallingConv(Call.getCallingConv());

  Value *Fp = D->getArg(0);
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < Ty->getNumParams(); ++I)
    Args.push_back(D->getArg(I + 1));
  BasicBlock *Test = BasicBlock::Create(C, "entry", D);
  for (Function *Cand : Cands) {
    BasicBlock *Hit = BasicBlock::Create(C, Cand->getName(), D);
    BasicBlock *Next = BasicBlock::Create(C, "next", D);
    IRBuilder<> B(Test);
    B.CreateCondBr(B.CreateICmpEQ(Fp, Cand), Hit, Next);
    B.SetInsertPoint(Hit);
    CallInst *R = B.CreateCall(Cand, Args);
    R->setAttributes(CallAttrs);
    R->setCallingConv(Cand->getCallingConv());
    if (Ty->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(R);
    Test = Next;
  }
  IRBuilder<> B(Test);
  Function *Miss = missHelper(User, Message);
  B.CreateCall(Miss, {Fp});
  if (Ty->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(PoisonValue::get(Ty->getReturnType()));
  return D;
}

/// Replaces \p Call (a call or an invoke) by one of \p Callee with \p Args,
/// keeping its function and return attributes, name, location and uses.
static void replaceCall(CallBase &Call, FunctionCallee Callee,
                        ArrayRef<Value *> Args,
                        ArrayRef<AttributeSet> ParamAttrs,
                        CallingConv::ID Conv) {
  IRBuilder<> B(&Call);
  CallBase *New;
  if (auto *Inv = dyn_cast<InvokeInst>(&Call))
    New = B.CreateInvoke(Callee, Inv->getNormalDest(), Inv->getUnwindDest(),
                         Args);
  else
    New = B.CreateCall(Callee, Args);
  AttributeList A = Call.getAttributes();
  New->setAttributes(AttributeList::get(Call.getContext(), A.getFnAttrs(),
                                        A.getRetAttrs(), ParamAttrs));
  New->setCallingConv(Conv);
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
}

bool IndirectCalls::rewrite(Function &Clone, const Function &Original) {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(Clone))
    if (auto *Call = dyn_cast<CallBase>(&I); Call && isDispatched(*Call))
      Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    Function *D = dispatcherFor(*Call, Original);
    SmallVector<Value *, 8> Args = {Call->getCalledOperand()};
    append_range(Args, Call->args());
    AttributeList A = Call->getAttributes();
    SmallVector<AttributeSet, 8> ParamAttrs = {AttributeSet()};
    for (unsigned I = 0; I < Call->arg_size(); ++I)
      ParamAttrs.push_back(A.getParamAttrs(I));
    replaceCall(*Call, D, Args, ParamAttrs, D->getCallingConv());
    ++NumDispatchedCalls;
  }
  return !Calls.empty();
}

void IndirectCalls::restore() {
  for (auto &[Key, D] : Dispatchers) {
    for (User *U : make_early_inc_range(D->users())) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != D)
        continue;
      SmallVector<Value *, 8> Args(drop_begin(Call->args()));
      AttributeList A = Call->getAttributes();
      SmallVector<AttributeSet, 8> ParamAttrs;
      for (unsigned I = 1; I < Call->arg_size(); ++I)
        ParamAttrs.push_back(A.getParamAttrs(I));
      replaceCall(*Call, FunctionCallee(Key.first, Call->getArgOperand(0)),
                  Args, ParamAttrs, Call->getCallingConv());
      ++NumRestoredCalls;
    }
  }
  // Dispatchers, then the helpers only they called.
  SmallVector<Function *, 8> Helpers;
  for (auto &[Key, D] : Dispatchers) {
    for (Instruction &I : instructions(*D))
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && MissHelpers.count(Call->getCalledFunction()))
        Helpers.push_back(Call->getCalledFunction());
    if (D->use_empty())
      D->eraseFromParent();
  }
  for (Function *H : Helpers)
    if (H->use_empty())
      H->eraseFromParent();
  Dispatchers.clear();
  Made.clear();
  MissHelpers.clear();
}

} // namespace gpuad
