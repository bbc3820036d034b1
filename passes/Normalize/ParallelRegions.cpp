//===- ParallelRegions.cpp - OpenMP's parallel regions as calls -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/ParallelRegions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

static constexpr const char *ParallelTag = "gpuad.parallel";
static constexpr const char *ForkName = "__kmpc_fork_call";

static StringRef calleeName(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F ? F->getName() : StringRef();
}

/// The microtask a fork runs, where it is a function whose parameters
/// match the fork's operands.
static Function *microtaskOf(const CallBase &Fork) {
  if (calleeName(Fork) != ForkName || Fork.arg_size() < 3)
    return nullptr;
  auto *Task = dyn_cast<Function>(Fork.getArgOperand(2)->stripPointerCasts());
  if (!Task || Task->isDeclaration() || Task->isVarArg() ||
      Task->arg_size() != Fork.arg_size() - 1)
    return nullptr;
  for (unsigned I = 3; I < Fork.arg_size(); ++I)
    if (Task->getArg(I - 1)->getType() != Fork.getArgOperand(I)->getType())
      return nullptr;
  return Task;
}

static FunctionCallee runtimeFunction(Module &M, StringRef Name, Type *Result,
                                      ArrayRef<Type *> Params) {
  return M.getOrInsertFunction(Name, FunctionType::get(Result, Params, false));
}

/// A reduction's entry and exit as a critical section on its lock.
static bool reductionsAsCriticalSections(Function &F) {
  Module &M = *F.getParent();
  LLVMContext &C = F.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C),
       *Void = Type::getVoidTy(C);
  SmallVector<CallBase *, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (calleeName(*Call).starts_with("__kmpc_reduce") ||
            calleeName(*Call).starts_with("__kmpc_end_reduce"))
          Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    StringRef Name = calleeName(*Call);
    IRBuilder<> B(Call);
    Value *Loc = Call->getArgOperand(0), *Gtid = Call->getArgOperand(1);
    if (Name == "__kmpc_reduce_nowait" || Name == "__kmpc_reduce") {
      // (loc, gtid, count, bytes, list, reduce_func, lock)
      if (Call->arg_size() != 7)
        continue;
      B.CreateCall(runtimeFunction(M, "__kmpc_critical", Void, {Ptr, I32, Ptr}),
                   {Loc, Gtid, Call->getArgOperand(6)});
      Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 1));
    } else if (Name == "__kmpc_end_reduce_nowait" ||
               Name == "__kmpc_end_reduce") {
      // (loc, gtid, lock)
      if (Call->arg_size() != 3)
        continue;
      B.CreateCall(
          runtimeFunction(M, "__kmpc_end_critical", Void, {Ptr, I32, Ptr}),
          {Loc, Gtid, Call->getArgOperand(2)});
      if (Name == "__kmpc_end_reduce")
        B.CreateCall(runtimeFunction(M, "__kmpc_barrier", Void, {Ptr, I32}),
                     {Loc, Gtid});
    } else {
      continue;
    }
    Call->eraseFromParent();
  }
  return !Calls.empty();
}

/// The critical section that \p Exit (`__kmpc_end_critical`) leaves: the
/// nearest entry on the same lock that dominates it.
static CallBase *entryOf(CallBase &Exit, const DominatorTree &DT) {
  Value *Lock = Exit.getArgOperand(2);
  for (DomTreeNode *N = DT.getNode(Exit.getParent()); N; N = N->getIDom()) {
    BasicBlock *BB = N->getBlock();
    auto End = BB == Exit.getParent() ? Exit.getIterator() : BB->end();
    for (Instruction &I : reverse(make_range(BB->begin(), End)))
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && calleeName(*Call).starts_with("__kmpc_critical") &&
          Call->arg_size() >= 3 && Call->getArgOperand(2) == Lock)
        return Call;
  }
  return nullptr;
}

/// Critical sections whose entry takes a ticket the reverse sweep orders
/// them by (runtime/OpenMP.h): `__kmpc_critical` becomes
/// `gpuad_omp_critical_enter`, which returns it, and `__kmpc_end_critical`
/// `gpuad_omp_critical_exit`, which is given it.  A section whose entry is
/// not found keeps the runtime's calls, which have no derivative rule.
static bool ticketedCriticalSections(Function &F) {
  SmallVector<CallBase *, 4> Exits;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && calleeName(*Call) == "__kmpc_end_critical" &&
          Call->arg_size() == 3)
        Exits.push_back(Call);
  if (Exits.empty())
    return false;
  Module &M = *F.getParent();
  LLVMContext &C = F.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C), *Void = Type::getVoidTy(C);
  FunctionCallee Enter =
      runtimeFunction(M, "gpuad_omp_critical_enter", I64, {Ptr, I32, Ptr});
  FunctionCallee Leave =
      runtimeFunction(M, "gpuad_omp_critical_exit", Void, {Ptr, I32, Ptr, I64});
  DominatorTree DT(F);
  DenseMap<CallBase *, Value *> Tickets;
  SmallVector<std::pair<CallBase *, CallBase *>, 4> Pairs;
  for (CallBase *Exit : Exits)
    if (CallBase *Entry = entryOf(*Exit, DT))
      Pairs.push_back({Entry, Exit});
  for (auto [Entry, Exit] : Pairs) {
    Value *&Ticket = Tickets[Entry];
    if (!Ticket) {
      IRBuilder<> B(Entry);
      Ticket = B.CreateCall(Enter,
                            {Entry->getArgOperand(0), Entry->getArgOperand(1),
                             Entry->getArgOperand(2)},
                            "omp.ticket");
    }
    IRBuilder<> B(Exit);
    B.CreateCall(Leave, {Exit->getArgOperand(0), Exit->getArgOperand(1),
                         Exit->getArgOperand(2), Ticket});
    Exit->eraseFromParent();
  }
  for (auto &[Entry, Ticket] : Tickets)
    Entry->eraseFromParent();
  return !Pairs.empty();
}

bool normalizeParallelRegions(Function &F) {
  bool Changed = reductionsAsCriticalSections(F);
  Changed |= ticketedCriticalSections(F);
  SmallVector<CallBase *, 4> Forks;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I); Call && microtaskOf(*Call))
        Forks.push_back(Call);
  if (Forks.empty())
    return Changed;
  LLVMContext &C = F.getContext();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  for (CallBase *Fork : Forks) {
    Function *Task = microtaskOf(*Fork);
    // The thread ids' slots: the fork's threads fill their own.
    Value *Gtid = Entry.CreateAlloca(Entry.getInt32Ty(), nullptr, "omp.gtid");
    Value *Btid = Entry.CreateAlloca(Entry.getInt32Ty(), nullptr, "omp.btid");
    IRBuilder<> B(Fork);
    B.CreateStore(B.getInt32(0), Gtid);
    B.CreateStore(B.getInt32(0), Btid);
    SmallVector<Value *, 8> Args{Gtid, Btid};
    for (unsigned I = 3; I < Fork->arg_size(); ++I)
      Args.push_back(Fork->getArgOperand(I));
    CallInst *Region = B.CreateCall(Task, Args);
    Region->setDebugLoc(Fork->getDebugLoc());
    Region->addFnAttr(Attribute::NoInline);
    Region->setMetadata(
        ParallelTag,
        MDNode::get(C, ValueAsMetadata::get(Fork->getArgOperand(0))));
    Fork->eraseFromParent();
  }
  return true;
}

bool isParallelRegion(const CallBase &Call) {
  return Call.getMetadata(ParallelTag) != nullptr;
}

Value *parallelRegionLocation(const CallBase &Call) {
  const MDNode *N = Call.getMetadata(ParallelTag);
  return cast<ValueAsMetadata>(N->getOperand(0))->getValue();
}

/// `void __kmpc_fork_call(ident_t *, i32 argc, microtask, ...)`.
static FunctionCallee forkFunction(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  return M.getOrInsertFunction(
      ForkName,
      FunctionType::get(Type::getVoidTy(C), {Ptr, Type::getInt32Ty(C), Ptr},
                        /*isVarArg=*/true));
}

CallInst *emitFork(IRBuilderBase &B, Value *Loc, Function *Microtask,
                   Value *Context) {
  return B.CreateCall(forkFunction(*B.GetInsertBlock()->getModule()),
                      {Loc, B.getInt32(1), Microtask, Context});
}

bool lowerParallelRegions(Function &F) {
  SmallVector<CallBase *, 4> Regions;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I); Call && isParallelRegion(*Call))
        Regions.push_back(Call);
  Module &M = *F.getParent();
  for (CallBase *Region : Regions) {
    IRBuilder<> B(Region);
    SmallVector<Value *, 8> Args{parallelRegionLocation(*Region),
                                 B.getInt32(Region->arg_size() - 2),
                                 Region->getCalledOperand()};
    append_range(Args, drop_begin(Region->args(), 2));
    B.CreateCall(forkFunction(M), Args)->setDebugLoc(Region->getDebugLoc());
    Region->eraseFromParent();
  }
  return !Regions.empty();
}

} // namespace gpuad
