//===- GlobalShadows.cpp - Shadows of mutable host globals ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A mutable global that carries derivatives (an array of doubles the
/// differentiated function writes and reads back, or a table of pointers to
/// such data) gets a shadow global, as LLVM-level AD users expect: a twin of
/// the same type that the derivative reads and writes where the primal reads
/// and writes the global.  Forward mode leaves tangents there; reverse mode
/// accumulates adjoints there, so after a reverse call the shadow holds the
/// gradient with respect to the global's value on entry (its value on entry
/// seeds the adjoint of the global's value on exit).  A shadow the program
/// defines or declares is the program's: nothing zeroes it between calls,
/// as nothing zeroes a dup argument's shadow.  One made here the program
/// can neither seed nor read: its floats are zeroed where each request's
/// run starts (zeroMadeShadowsAtRequests).
///
/// Which globals carry derivatives is decided for the module
/// (carriesDerivatives), so that a callee writing one and a caller reading
/// it agree on its shadow.
///
/// Which global is the shadow, in order: the one named by the primal's
/// `enzyme_shadow` metadata (Enzyme's convention, `!{ptr @shadow}`); a
/// global of the same type named `<name>_shadow` (lane k of a batch:
/// `<name>_shadow_<k>`) that the program defines or declares -- a
/// declaration is defined here, so `extern double g_shadow[N];` is how a
/// program reads the gradient; else a new one.  A shadow made here is local
/// where the primal is and weak otherwise (every translation unit that
/// differentiates through an external global makes the same one).  Its
/// initializer is the shadow of the primal's: zero for floats, the same
/// integers (shadow structures keep counts), and for pointers to other
/// globals their shadows (a table of `Shape *` whose shapes carry
/// derivatives).  One shadow serves every mode: it holds tangents after a
/// forward call and adjoints after a reverse one, so a program that mixes
/// them zeroes its own in between, as it would a reused dup shadow.
//===----------------------------------------------------------------------===//

#include "Planner/DerivativeContext.h"

#include "Rules/CallTable.h"
#include "Support/EntryPoints.h"
#include "Support/GlobalAddresses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "gpuad-global-shadow"

using namespace llvm;

namespace gpuad {

/// Whether \p V is (an address in) a mutable global.
static bool isMutableGlobalAddress(const Value *V) {
  if (!V->getType()->isPointerTy() || !isa<Constant>(V))
    return false;
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(V));
  return GV && !GV->isConstant();
}

/// Whether \p F (or what it calls, \p Depth calls deep at most) may access
/// a mutable global: names one, or calls code gpuad cannot see.
/// A call that reads nothing a derivative depends on, or a scalar rule's:
/// it hands no global's memory to code that could keep derivatives there.
static bool isInactiveOrRule(const CallClass &C) {
  return C.inactive() || C.Scalar;
}

static bool mayAccessGlobals(const Function &F, const CallTable &Calls,
                             unsigned Depth,
                             SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || Depth > 4)
    return true;
  if (!Seen.insert(&F).second)
    return false;
  for (const Instruction &I : instructions(F)) {
    if (any_of(I.operands(),
               [](const Use &U) { return isMutableGlobalAddress(U.get()); }))
      return true;
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || isa<IntrinsicInst>(Call) || Calls.classify(*Call).known())
      continue;
    const Function *Callee = Call->getCalledFunction();
    if (!Callee || mayAccessGlobals(*Callee, Calls, Depth + 1, Seen))
      return true;
  }
  return false;
}

const CallBase *DerivativeContext::callAccessingGlobals(const Function &F) {
  auto [It, New] = CallsAccessingGlobals.try_emplace(&F, nullptr);
  if (!New)
    return It->second;
  for (const Instruction &I : instructions(F)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call || isa<IntrinsicInst>(Call) || Calls.classify(*Call).known())
      continue;
    const Function *Callee = Call->getCalledFunction();
    SmallPtrSet<const Function *, 8> Seen;
    if (!Callee || mayAccessGlobals(*Callee, Calls, 0, Seen))
      return CallsAccessingGlobals[&F] = Call;
  }
  return nullptr;
}

/// The global \p GV's `enzyme_shadow` metadata names, if any.
static GlobalVariable *declaredShadow(const GlobalVariable &GV) {
  auto *MD = dyn_cast_or_null<MDTuple>(GV.getMetadata("enzyme_shadow"));
  if (!MD || MD->getNumOperands() == 0)
    return nullptr;
  auto *CM = dyn_cast_or_null<ConstantAsMetadata>(MD->getOperand(0).get());
  return CM ? dyn_cast<GlobalVariable>(CM->getValue()->stripPointerCasts())
            : nullptr;
}

bool DerivativeContext::hasProgramShadow(const GlobalVariable &GV) const {
  if (declaredShadow(GV))
    return true;
  const GlobalVariable *S =
      M.getGlobalVariable((GV.getName() + "_shadow").str(), true);
  return S && !is_contained(MadeGlobalShadows, S);
}

SmallPtrSet<const Function *, 32>
DerivativeContext::mayRunInDerivatives() const {
  SmallPtrSet<const Function *, 32> Reach;
  SmallVector<const Function *, 16> Work;
  auto AddressTaken = [&] {
    for (const Function &F : M)
      if (F.hasAddressTaken())
        Work.push_back(&F);
  };
  for (const Function *F : RequestedFunctions) {
    if (!F)
      AddressTaken();
    Work.push_back(F);
  }
  bool Indirect = false;
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!F || F->isDeclaration() || !Reach.insert(F).second)
      continue;
    for (const Instruction &I : instructions(*F))
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (const Function *Callee = Call->getCalledFunction())
          Work.push_back(Callee);
        else if (!Call->isInlineAsm() && !Indirect) {
          Indirect = true;
          AddressTaken();
        }
      }
  }
  return Reach;
}

/// The mutable global \p Ptr's address was loaded from, if any: `*gp` or
/// `gp[i]` names no global but writes through `gp`'s contents.  At -O0 the
/// address may pass through a local first (`double *p = gp; p[i] = ...`).
static const GlobalVariable *tableOfAddress(const Value *Ptr,
                                            unsigned Depth = 0) {
  const auto *LI = dyn_cast<LoadInst>(getUnderlyingObject(Ptr));
  if (!LI || Depth > 2)
    return nullptr;
  const Value *From = getUnderlyingObject(LI->getPointerOperand());
  if (const auto *G = dyn_cast<GlobalVariable>(From))
    return G->isConstant() ? nullptr : G;
  if (const auto *AI = dyn_cast<AllocaInst>(From))
    for (const User *U : AI->users())
      if (const auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getPointerOperand() == AI)
        if (const GlobalVariable *G =
                tableOfAddress(SI->getValueOperand(), Depth + 1))
          return G;
  return nullptr;
}

/// The tables of pointers through whose contents \p Reach (the code the
/// requests may run) may write floats: stores of computed floats, copies,
/// atomics, calls of defined functions that write float data through an
/// argument.
static SmallPtrSet<const GlobalVariable *, 8>
tablesWrittenThrough(const Module &M,
                     const SmallPtrSetImpl<const Function *> &Reach,
                     const CallTable &Calls, ArgumentWrites &Writes) {
  SmallPtrSet<const GlobalVariable *, 8> Tables;
  auto Note = [&](const Value *Ptr) {
    if (const GlobalVariable *G = tableOfAddress(Ptr))
      Tables.insert(G);
  };
  for (const Function *F : Reach)
    for (const Instruction &I : instructions(*F)) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!isa<Constant>(SI->getValueOperand()) &&
            carriesFloat(SI->getValueOperand()->getType()))
          Note(SI->getPointerOperand());
      } else if (const auto *MT = dyn_cast<MemTransferInst>(&I)) {
        Note(MT->getRawDest());
      } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Note(RMW->getPointerOperand());
      } else if (const auto *Call = dyn_cast<CallBase>(&I);
                 Call && Call->getCalledFunction() &&
                 !Call->getCalledFunction()->isDeclaration() &&
                 !isInactiveOrRule(Calls.classify(*Call))) {
        // Code gpuad can see (library code a derivative calls has a rule,
        // is inactive, or is an error of its own): `std::cerr`'s facets
        // handed to libstdc++ carry nothing.
        SmallBitVector Data = Writes.dataWrittenArguments(*Call);
        for (unsigned K : Data.set_bits())
          if (K < Call->arg_size())
            Note(Call->getArgOperand(K));
      }
    }
  return Tables;
}

const SmallPtrSetImpl<const GlobalVariable *> &
DerivativeContext::carryingGlobals() {
  if (CarryingGlobals)
    return *CarryingGlobals;
  CarryingGlobals.emplace();
  if (target().isGPU())
    return *CarryingGlobals;
  auto Mutable = [](const GlobalVariable *G) {
    return G && !G->isConstant() && !G->hasMetadata("enzyme_inactive");
  };
  auto Note = [&](const Value *Ptr) {
    const auto *G = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
    if (Mutable(G) && carriesFloat(G->getValueType()))
      CarryingGlobals->insert(G);
  };
  // Tables of pointers: (table, what a store puts in it).
  SmallVector<std::pair<const GlobalVariable *, const Value *>, 8> Pointers;
  SmallPtrSet<const Function *, 32> Reach = mayRunInDerivatives();
  SmallPtrSet<const GlobalVariable *, 8> WrittenThrough =
      tablesWrittenThrough(M, Reach, Calls, Writes);
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        if (!isa<Constant>(SI->getValueOperand()))
          Note(SI->getPointerOperand());
        if (SI->getValueOperand()->getType()->isPointerTy())
          if (const auto *G = dyn_cast<GlobalVariable>(
                  getUnderlyingObject(SI->getPointerOperand()));
              Mutable(G))
            Pointers.push_back({G, SI->getValueOperand()});
      } else if (const auto *MT = dyn_cast<MemTransferInst>(&I)) {
        Note(MT->getRawDest());
      } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Note(RMW->getPointerOperand());
      } else if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (isa<IntrinsicInst>(Call) || isInactiveOrRule(Calls.classify(*Call)))
          continue;
        for (const Use &A : Call->args())
          if (A->getType()->isPointerTy())
            Note(A.get());
      }
    }
  for (const GlobalVariable &G : M.globals())
    if (Mutable(&G) && carriesFloat(G.getValueType()) && addressEscapes(G))
      CarryingGlobals->insert(&G);
  // A table of pointers carries derivatives where what it points to does:
  // by its initializer, by a store of a carrying global's address or of a
  // local holding floats, or because the program gave it a shadow (it
  // means to differentiate through it).  To a fixed point: tables of
  // tables.
  auto PointsToCarrying = [&](const GlobalVariable &G) {
    if (G.hasMetadata("enzyme_inactive"))
      return false;
    if (!G.isConstant() && (hasProgramShadow(G) || WrittenThrough.count(&G)))
      return true;
    SmallVector<const GlobalVariable *, 4> Pointees;
    if (G.hasInitializer())
      collectAddressedGlobals(G.getInitializer(), Pointees);
    if (any_of(Pointees, [&](const GlobalVariable *P) {
          return CarryingGlobals->count(P);
        }))
      return true;
    for (auto [Table, Stored] : Pointers) {
      if (Table != &G)
        continue;
      const Value *Obj = getUnderlyingObject(Stored);
      if (const auto *P = dyn_cast<GlobalVariable>(Obj);
          P && CarryingGlobals->count(P))
        return true;
      // A local's address stored by derivative code: the code that
      // writes it may write through the table too.
      if (const auto *AI = dyn_cast<AllocaInst>(Obj);
          AI && carriesFloat(AI->getAllocatedType()) &&
          Reach.count(AI->getFunction()))
        return true;
    }
    return false;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const GlobalVariable &G : M.globals())
      if (!CarryingGlobals->count(&G) && typeHoldsPointer(G.getValueType()) &&
          PointsToCarrying(G))
        Changed |= CarryingGlobals->insert(&G).second;
  }
  return *CarryingGlobals;
}

bool DerivativeContext::carriesDerivatives(const GlobalVariable &GV) {
  return carryingGlobals().count(&GV);
}

/// Whether \p I names (an address in) a global that \p Carries.
static bool
namesCarryingGlobal(const Instruction &I,
                    function_ref<bool(const GlobalVariable &)> Carries) {
  return any_of(I.operands(), [&](const Use &U) {
    const auto *GV = dyn_cast_or_null<GlobalVariable>(
        U->getType()->isPointerTy() ? getUnderlyingObject(U.get()) : nullptr);
    return GV && Carries(*GV);
  });
}

bool DerivativeContext::functionReachesCarrying(const Function &F) {
  if (F.isDeclaration())
    return false; // library code cannot name the module's globals
  auto Carries = [&](const GlobalVariable &GV) {
    return carriesDerivatives(GV);
  };
  auto DirectCallee = [](const Instruction &I) -> const Function * {
    const auto *Call = dyn_cast<CallBase>(&I);
    return Call && !isa<IntrinsicInst>(Call) ? Call->getCalledFunction()
                                             : nullptr;
  };
  if (ReachesCarrying.empty()) {
    // The module's functions as they are before any derivative: those that
    // name a carrying global, then their callers, to a fixed point (so
    // recursion is exact).
    for (const Function &G : M)
      ReachesCarrying[&G] = false;
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (const Function &G : M) {
        bool &Reaches = ReachesCarrying[&G];
        if (Reaches)
          continue;
        for (const Instruction &I : instructions(G)) {
          const Function *Callee = DirectCallee(I);
          if (namesCarryingGlobal(I, Carries) ||
              (Callee && ReachesCarrying.lookup(Callee))) {
            Reaches = Changed = true;
            break;
          }
        }
      }
    }
  }
  if (auto It = ReachesCarrying.find(&F); It != ReachesCarrying.end())
    return It->second;
  // Made since (a dispatcher of indirect calls): what it names and calls.
  bool Found = any_of(instructions(F), [&](const Instruction &I) {
    const Function *Callee = DirectCallee(I);
    return namesCarryingGlobal(I, Carries) ||
           (Callee && ReachesCarrying.lookup(Callee));
  });
  return ReachesCarrying[&F] = Found;
}

bool DerivativeContext::reachesCarryingGlobals(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && !isa<IntrinsicInst>(Call) && !carryingGlobals().empty() &&
         functionReachesCarrying(*Callee);
}

/// Stores zero into the floats of the \p Ty object at \p Ptr (not its
/// integers and pointers: a shadow structure's counts and shadow pointers).
static void zeroFloats(IRBuilderBase &B, Value *Ptr, Type *Ty) {
  if (Ty->isFPOrFPVectorTy()) {
    B.CreateStore(Constant::getNullValue(Ty), Ptr);
    return;
  }
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (carriesFloat(ST->getElementType(I)))
        zeroFloats(B, B.CreateStructGEP(ST, Ptr, I), ST->getElementType(I));
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty); AT && carriesFloat(AT)) {
    Type *Elt = AT->getElementType();
    const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
    if (Elt->getScalarType()->isFloatingPointTy() ||
        (isa<ArrayType>(Elt) &&
         Elt->getArrayElementType()->isFloatingPointTy())) {
      B.CreateMemSet(Ptr, B.getInt8(0), DL.getTypeAllocSize(AT), Align(1));
      return;
    }
    if (AT->getNumElements() <= 16) {
      for (uint64_t K = 0; K < AT->getNumElements(); ++K)
        zeroFloats(B, B.CreateConstInBoundsGEP2_64(AT, Ptr, 0, K), Elt);
      return;
    }
    // Many records: a loop over them.
    auto [Body, K] = SplitBlockAndInsertSimpleForLoop(
        B.getInt64(AT->getNumElements()), B.GetInsertPoint());
    IRBuilder<> LB(Body);
    zeroFloats(LB, LB.CreateInBoundsGEP(AT, Ptr, {LB.getInt64(0), K}), Elt);
  }
}

void DerivativeContext::zeroMadeShadowsAtRequests() {
  Function *Marker = M.getFunction(ZeroMadeShadowsMarker);
  if (!Marker)
    return;
  for (User *U : make_early_inc_range(Marker->users())) {
    auto *Call = cast<CallInst>(U);
    IRBuilder<> B(Call);
    for (GlobalVariable *S : MadeGlobalShadows)
      zeroFloats(B, S, S->getValueType());
    Call->eraseFromParent();
  }
  Marker->eraseFromParent();
}

GlobalVariable *DerivativeContext::globalShadowOf(GlobalVariable &GV,
                                                  unsigned Lane) {
  GlobalVariable *&Cached = GlobalShadows[{&GV, Lane}];
  if (Cached)
    return Cached;
  if (Lane == 0)
    if (GlobalVariable *S = declaredShadow(GV))
      return Cached = S;
  std::string Name = (GV.getName() + "_shadow").str();
  if (Lane)
    Name += "_" + std::to_string(Lane);
  Type *Ty = GV.getValueType();
  GlobalVariable *S = M.getGlobalVariable(Name, /*AllowInternal=*/true);
  if (S && S->getValueType() != Ty &&
      !(S->isDeclaration() &&
        M.getDataLayout().getTypeAllocSize(S->getValueType()) ==
            M.getDataLayout().getTypeAllocSize(Ty)))
    S = nullptr; // an unrelated variable of that name
  if (!S) {
    S = new GlobalVariable(M, Ty, /*isConstant=*/false,
                           GlobalValue::ExternalLinkage, nullptr, Name, nullptr,
                           GV.getThreadLocalMode(), GV.getAddressSpace());
    S->setAlignment(GV.getAlign());
    MadeGlobalShadows.push_back(S);
  }
  Cached = S;
  if (!S->isDeclaration())
    return S;
  // Defined here: before the initializer, so globals pointing at each
  // other find each other's shadows.
  S->setLinkage(GV.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                     : GlobalValue::WeakAnyLinkage);
  S->setInitializer(Constant::getNullValue(S->getValueType()));
  if (GV.hasInitializer() && S->getValueType() == Ty)
    S->setInitializer(shadowInitializer(GV.getInitializer(), Lane));
  return S;
}

GlobalVariable *DerivativeContext::constantShadowOf(GlobalVariable &GV,
                                                    unsigned Lane) {
  SmallVector<const GlobalVariable *, 4> Pointees;
  if (GV.hasInitializer() && !Target->isGPU())
    collectAddressedGlobals(GV.getInitializer(), Pointees);
  bool PointsToMutable = any_of(
      Pointees, [](const GlobalVariable *P) { return !P->isConstant(); });
  if (!PointsToMutable)
    Lane = 0; // all zero: one serves every lane
  GlobalVariable *&Shadow = ConstantShadows[{&GV, Lane}];
  if (Shadow)
    return Shadow;
  std::string Name = (GV.getName() + ".gpuad.zero").str();
  if (Lane)
    Name += "." + std::to_string(Lane);
  Shadow = new GlobalVariable(
      M, GV.getValueType(), /*isConstant=*/true, GlobalValue::InternalLinkage,
      Constant::getNullValue(GV.getValueType()), Name, nullptr,
      GV.getThreadLocalMode(), GV.getAddressSpace());
  if (PointsToMutable)
    Shadow->setInitializer(shadowInitializer(GV.getInitializer(), Lane));
  return Shadow;
}

Constant *DerivativeContext::shadowInitializer(Constant *C, unsigned Lane) {
  Type *Ty = C->getType();
  if (isa<ConstantInt>(C) || isa<Function>(C))
    return C;
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->isConstant())
      return constantShadowOf(*GV, Lane);
    return Target->isGPU() ? Constant::getNullValue(Ty)
                           : globalShadowOf(*GV, Lane);
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<Constant *, 4> Ops;
    for (Value *Op : CE->operands())
      Ops.push_back(Op->getType()->isPointerTy()
                        ? shadowInitializer(cast<Constant>(Op), Lane)
                        : cast<Constant>(Op));
    return CE->getWithOperands(Ops);
  }
  if (isa<ConstantAggregate>(C) || isa<ConstantDataSequential>(C)) {
    SmallVector<Constant *, 8> Elts;
    unsigned N = isa<ConstantDataSequential>(C)
                     ? cast<ConstantDataSequential>(C)->getNumElements()
                     : C->getNumOperands();
    for (unsigned K = 0; K < N; ++K)
      Elts.push_back(shadowInitializer(C->getAggregateElement(K), Lane));
    if (auto *ST = dyn_cast<StructType>(Ty))
      return ConstantStruct::get(ST, Elts);
    if (auto *AT = dyn_cast<ArrayType>(Ty))
      return ConstantArray::get(AT, Elts);
    return ConstantVector::get(Elts);
  }
  // Floats, null, undef, zero aggregates: no derivative.
  return Constant::getNullValue(Ty);
}

} // namespace gpuad
