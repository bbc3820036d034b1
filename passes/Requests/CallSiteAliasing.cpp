//===- CallSiteAliasing.cpp - Arguments a request proves disjoint ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/CallSiteAliasing.h"

#include "Planner/DiffRequest.h"
#include "Requests/RequestParser.h"
#include "Rules/CallTable.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

bool CallSiteAliasing::anyDisjoint() const {
  return any_of(Disjoint, [](bool B) { return B; });
}

namespace {

/// How deep the walk follows a pointer into the functions it is passed to.
constexpr unsigned MaxCallDepth = 4;

/// A local pointer variable: an alloca holding a pointer, only loaded as a
/// pointer and stored to (clang's form of `double *x = malloc(...)` before
/// mem2reg).  Its loads hold what its stores wrote.
bool isPointerVariable(const Value *V) {
  const auto *AI = dyn_cast<AllocaInst>(V);
  if (!AI || !AI->getAllocatedType()->isPointerTy())
    return false;
  return all_of(AI->users(), [&](const User *U) {
    if (const auto *LI = dyn_cast<LoadInst>(U))
      return LI->getType()->isPointerTy();
    if (const auto *SI = dyn_cast<StoreInst>(U))
      return SI->getPointerOperand() == AI && SI->getValueOperand() != AI;
    if (const auto *II = dyn_cast<IntrinsicInst>(U))
      return II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II);
    return false;
  });
}

/// What the pass can say about a value it could not trace to an object.
std::string untraced(const Value *V, const Function &Caller) {
  if (isa<Argument>(V))
    return "it is a parameter of '" + Caller.getName().str() + "'";
  if (isa<LoadInst>(V))
    return "it is loaded from memory";
  if (const auto *CB = dyn_cast<CallBase>(V))
    if (const Function *F = CB->getCalledFunction())
      return "it is returned by '" + F->getName().str() + "'";
  return "gpuad cannot tell what it points into";
}

class Prover {
public:
  Prover(const DiffRequest &Req, const CallTable &Calls)
      : Req(Req), Calls(Calls), Caller(*Req.Call->getFunction()),
        OnGpu(Caller.getParent()->getTargetTriple().isGPU()) {}

  /// Whether parameter \p ArgNo is disjoint; otherwise \p Why says why not.
  bool disjoint(unsigned ArgNo, std::string &Why);

private:
  bool objectsOf(const Value *V, SmallPtrSetImpl<const Value *> &Objects,
                 SmallPtrSetImpl<const Value *> &Variables, std::string &Why);
  bool reachesOnlyThrough(const Value *Object, unsigned ArgNo,
                          std::string &Why);
  bool namedByCallee(const GlobalVariable &G);
  void collectCalleeTree();

  const DiffRequest &Req;
  const CallTable &Calls;
  const Function &Caller;
  bool OnGpu;
  /// The differentiated function and what it may call (collected once).
  SmallPtrSet<const Function *, 16> Tree;
  bool TreeCollected = false;
  /// The tree calls something unseen: an indirect call or an unknown
  /// external function, which could name a global with external linkage.
  bool TreeOpaque = false;
};

bool Prover::objectsOf(const Value *V, SmallPtrSetImpl<const Value *> &Objects,
                       SmallPtrSetImpl<const Value *> &Variables,
                       std::string &Why) {
  SmallVector<const Value *, 4> Under;
  getUnderlyingObjects(V, Under, nullptr, /*MaxLookup=*/0);
  for (const Value *U : Under) {
    if (const auto *LI = dyn_cast<LoadInst>(U);
        LI && isPointerVariable(LI->getPointerOperand())) {
      const Value *Var = LI->getPointerOperand();
      if (!Variables.insert(Var).second)
        continue;
      for (const User *Usr : Var->users())
        if (const auto *SI = dyn_cast<StoreInst>(Usr))
          if (!objectsOf(SI->getValueOperand(), Objects, Variables, Why))
            return false;
      continue;
    }
    if (isa<ConstantPointerNull>(U) || isa<UndefValue>(U))
      continue;
    bool Allocated = false;
    if (const auto *CB = dyn_cast<CallBase>(U)) {
      CallClass Class = Calls.classify(*CB);
      HeapFn H = Class.Heap;
      Allocated = Class.isHeap() &&
                  (H == HeapFn::Malloc || H == HeapFn::Calloc ||
                   H == HeapFn::AlignedAlloc || H == HeapFn::UserAlloc);
    }
    if (isa<AllocaInst>(U) || Allocated) {
      Objects.insert(U);
      continue;
    }
    if (const auto *G = dyn_cast<GlobalVariable>(U)) {
      // A GPU global is visible to every thread of the grid.
      if (OnGpu) {
        Why = "it points into a device global other threads may reach";
        return false;
      }
      if (namedByCallee(*G)) {
        Why = "it points into global '" + G->getName().str() +
              "', which the differentiated code may name";
        return false;
      }
      Objects.insert(U);
      continue;
    }
    Why = untraced(U, Caller);
    return false;
  }
  return true;
}

bool Prover::reachesOnlyThrough(const Value *Object, unsigned ArgNo,
                                std::string &Why) {
  const Value *Primal = Req.Args[ArgNo].Primal;
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<std::pair<const Value *, unsigned>, 16> Work = {{Object, 0}};
  auto Push = [&](const Value *V, unsigned Depth) {
    if (Seen.insert(V).second)
      Work.push_back({V, Depth});
  };
  auto Fail = [&](const std::string &Reason) {
    Why = Reason;
    return false;
  };
  while (!Work.empty()) {
    auto [V, Depth] = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isa<ConstantExpr>(Usr)) {
        Push(Usr, Depth);
        continue;
      }
      const auto *I = dyn_cast<Instruction>(Usr);
      if (!I)
        return Fail("its address is part of a constant");
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
          isa<AddrSpaceCastInst>(I) || isa<PHINode>(I) ||
          (isa<SelectInst>(I) && U.getOperandNo() != 0)) {
        Push(I, Depth);
        continue;
      }
      if (isa<LoadInst>(I) || isa<ICmpInst>(I))
        continue;
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        if (U.getOperandNo() == SI->getPointerOperandIndex())
          continue;
        if (!isPointerVariable(SI->getPointerOperand()))
          return Fail("it is stored to memory");
        for (const User *Load : SI->getPointerOperand()->users())
          if (isa<LoadInst>(Load))
            Push(Load, Depth);
        continue;
      }
      if (isa<AtomicRMWInst>(I) &&
          U.getOperandNo() == AtomicRMWInst::getPointerOperandIndex())
        continue;
      if (isa<AtomicCmpXchgInst>(I) &&
          U.getOperandNo() == AtomicCmpXchgInst::getPointerOperandIndex())
        continue;
      const auto *CB = dyn_cast<CallBase>(I);
      if (!CB || !CB->isArgOperand(&U))
        return Fail("it is used by a '" + std::string(I->getOpcodeName()) +
                    "'");
      unsigned A = CB->getArgOperandNo(&U);
      if (CB == Req.Call) {
        if (V != Primal || count(CB->args(), V) != 1)
          return Fail("the request also passes it as another argument");
        // The differentiated function must not keep it either: a copy in a
        // global it reads back would reach the memory another way.
        Push(Req.Key.Fn->getArg(ArgNo), Depth + 1);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II) ||
            isa<MemIntrinsic>(II))
          continue;
      if (CB->doesNotCapture(A))
        continue;
      if (Calls.classify(*CB).Effect == CallEffect::Deallocator)
        continue;
      const Function *F = CB->getCalledFunction();
      if (F && Calls.keepsNoPointer(*F))
        continue;
      // Another request: its derivative keeps a pointer only where the
      // function it differentiates would.
      if (F && F->isDeclaration() && classifyEntryPoint(F->getName())) {
        const Function *G = requestedFunction(*CB);
        if (!G || G == &Caller || Depth >= MaxCallDepth)
          return Fail("it is passed to another request");
        for (const Argument &P : G->args())
          if (P.getType()->isPointerTy())
            Push(&P, Depth + 1);
        continue;
      }
      if (F && !F->isDeclaration() && A < F->arg_size() && F != &Caller &&
          Depth < MaxCallDepth) {
        Push(F->getArg(A), Depth + 1);
        continue;
      }
      return Fail("it is passed to " +
                  (F ? "'" + F->getName().str() + "'"
                     : std::string("a function pointer")) +
                  ", which may keep it");
    }
  }
  return true;
}

void Prover::collectCalleeTree() {
  TreeCollected = true;
  SmallVector<const Function *, 16> Work = {Req.Key.Fn};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Tree.insert(F).second)
      continue;
    for (const Instruction &I : instructions(*F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<IntrinsicInst>(CB))
        continue;
      const Function *Callee = CB->getCalledFunction();
      if (!Callee) {
        TreeOpaque = true;
      } else if (!Callee->isDeclaration()) {
        Work.push_back(Callee);
      } else if (!Calls.classify(*CB).known()) {
        TreeOpaque = true;
      }
    }
  }
}

bool Prover::namedByCallee(const GlobalVariable &G) {
  if (!TreeCollected)
    collectCalleeTree();
  if (TreeOpaque && !G.hasLocalLinkage())
    return true;
  SmallVector<const User *, 16> Work(G.users());
  SmallPtrSet<const User *, 16> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (const auto *I = dyn_cast<Instruction>(U)) {
      if (Tree.count(I->getFunction()))
        return true;
    } else {
      append_range(Work, U->users());
    }
  }
  return false;
}

bool Prover::disjoint(unsigned ArgNo, std::string &Why) {
  SmallPtrSet<const Value *, 4> Objects, Variables;
  if (!objectsOf(Req.Args[ArgNo].Primal, Objects, Variables, Why))
    return false;
  if (Objects.empty()) {
    Why = "it points into no object the pass can see";
    return false;
  }
  for (const Value *O : Objects)
    if (!reachesOnlyThrough(O, ArgNo, Why))
      return false;
  return true;
}

} // namespace

CallSiteAliasing proveDisjointArguments(const DiffRequest &Req,
                                        const CallTable &Calls) {
  CallSiteAliasing R;
  unsigned N = Req.Args.size();
  R.Disjoint.assign(N, false);
  R.Why.resize(N);
  Prover P(Req, Calls);
  for (unsigned I = 0; I < N; ++I) {
    const Value *V = Req.Args[I].Primal;
    if (V && V->getType()->isPointerTy())
      R.Disjoint[I] = P.disjoint(I, R.Why[I]);
  }
  return R;
}

} // namespace gpuad
