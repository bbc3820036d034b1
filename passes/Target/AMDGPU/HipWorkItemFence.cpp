//===- HipWorkItemFence.cpp - A body for HIP's __atomic_work_item_fence ---===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Target/AMDGPU/HipWorkItemFence.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace gpuad {

namespace {

/// OpenCL's memory scopes (__OPENCL_MEMORY_SCOPE_*), by value, as AMDGPU
/// sync scopes.
constexpr const char *ScopeNames[] = {"singlethread", "workgroup", "agent", "",
                                      "wavefront"};

/// C11 memory orders (__ATOMIC_*), by value; relaxed and consume need no
/// fence.
AtomicOrdering orderOf(unsigned C11) {
  switch (C11) {
  case 2:
    return AtomicOrdering::Acquire;
  case 3:
    return AtomicOrdering::Release;
  case 4:
    return AtomicOrdering::AcquireRelease;
  case 5:
    return AtomicOrdering::SequentiallyConsistent;
  default:
    return AtomicOrdering::NotAtomic;
  }
}

/// switch (scope) { case s: switch (order) { case o: fence o, s } }.
void defineBody(Function &F) {
  LLVMContext &C = F.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", &F);
  BasicBlock *Done = BasicBlock::Create(C, "done", &F);
  ReturnInst::Create(C, Done);
  Value *Order = F.getArg(1), *Scope = F.getArg(2);
  IRBuilder<> B(Entry);
  SwitchInst *ByScope = B.CreateSwitch(Scope, Done);
  for (unsigned S = 0; S < std::size(ScopeNames); ++S) {
    BasicBlock *ScopeBB = BasicBlock::Create(C, "scope", &F, Done);
    ByScope->addCase(B.getInt32(S), ScopeBB);
    B.SetInsertPoint(ScopeBB);
    SwitchInst *ByOrder = B.CreateSwitch(Order, Done);
    SyncScope::ID ID = C.getOrInsertSyncScopeID(ScopeNames[S]);
    for (unsigned O = 2; O <= 5; ++O) {
      BasicBlock *FenceBB = BasicBlock::Create(C, "fence", &F, Done);
      ByOrder->addCase(B.getInt32(O), FenceBB);
      IRBuilder<> FB(FenceBB);
      FB.CreateFence(orderOf(O), ID);
      FB.CreateBr(Done);
    }
  }
}

} // namespace

PreservedAnalyses DefineWorkItemFencePass::run(Module &M,
                                               ModuleAnalysisManager &) {
  Function *F = M.getFunction("__atomic_work_item_fence");
  if (!M.getTargetTriple().isAMDGPU() || !F || !F->isDeclaration() ||
      F->arg_size() != 3 || !F->getReturnType()->isVoidTy())
    return PreservedAnalyses::all();
  for (Argument &A : F->args())
    if (!A.getType()->isIntegerTy(32))
      return PreservedAnalyses::all();
  defineBody(*F);
  F->setLinkage(GlobalValue::InternalLinkage);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);
  return PreservedAnalyses::none();
}

} // namespace gpuad
