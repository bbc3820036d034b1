//===- MemoryClasses.cpp - Which memory a pointer may reach ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/MemoryClasses.h"

#include "Analysis/TypeInfo.h"
#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Support/GlobalAddresses.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

/// Whether values of \p Ty can hold a pointer (directly or as an element).
static bool holdsPointer(Type *Ty) {
  if (Ty->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), holdsPointer);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return holdsPointer(AT->getElementType());
  return false;
}

MemoryClasses::MemoryClasses(Function &F, const CallTable &Calls,
                             ArrayRef<bool> ArgHasShadow,
                             MayHoldPointersFn MayHoldPointers,
                             IsAddressFn IsAddress, unsigned Depth,
                             std::shared_ptr<CallSummaries> Summaries)
    : Calls(Calls), MayHoldPointers(std::move(MayHoldPointers)),
      IsAddress(std::move(IsAddress)), Depth(Depth),
      Summaries(Summaries ? std::move(Summaries)
                          : std::make_shared<CallSummaries>()) {
  Unknown = make(OriginUnknown, nullptr);
  for (Argument &A : F.args()) {
    if (!holdsPointer(A.getType()))
      continue;
    bool Shadowed =
        A.getArgNo() < ArgHasShadow.size() && ArgHasShadow[A.getArgNo()];
    int C = make(Shadowed ? OriginShadowedArg : OriginConstArg, &A);
    // All memory reachable from an argument belongs to the argument's class:
    // a shadow structure holds shadow pointers.
    Nodes[C].Content = C;
    ClassOf[&A] = C;
  }
  build(F);
}

int MemoryClasses::make(unsigned Origins, const Value *Example) {
  Nodes.push_back({int(Nodes.size()), -1, Origins, Example});
  return Nodes.size() - 1;
}

int MemoryClasses::find(int C) const {
  while (Nodes[C].Parent != C) {
    Nodes[C].Parent = Nodes[Nodes[C].Parent].Parent;
    C = Nodes[C].Parent;
  }
  return C;
}

int MemoryClasses::unite(int A, int B) {
  A = find(A);
  B = find(B);
  if (A == B)
    return A;
  if (B < A)
    std::swap(A, B);
  int CA = Nodes[A].Content, CB = Nodes[B].Content;
  Nodes[B].Parent = A;
  Nodes[A].Origins |= Nodes[B].Origins;
  // A content that pointed at B now points at the merged class.
  if (CA != -1 && find(CA) == A)
    CA = A;
  if (CB != -1 && find(CB) == A)
    CB = A;
  Nodes[A].Content = CA != -1 ? CA : CB;
  if (CA != -1 && CB != -1)
    unite(CA, CB);
  return find(A);
}

int MemoryClasses::contentOf(int C) {
  C = find(C);
  if (Nodes[C].Content == -1) {
    int N = make(0, nullptr);
    Nodes[C].Content = N;
  }
  return find(Nodes[C].Content);
}

int MemoryClasses::classOf(const Value *V) const {
  auto It = ClassOf.find(V);
  if (It != ClassOf.end())
    return find(It->second);
  if (isa<Constant>(V) && V->getType()->isPointerTy()) {
    const Value *Obj = getUnderlyingObject(V);
    if (Obj != V) {
      It = ClassOf.find(Obj);
      if (It != ClassOf.end())
        return find(It->second);
    }
  }
  return -1;
}

void MemoryClasses::assign(const Value *V, int C) {
  auto [It, Inserted] = ClassOf.try_emplace(V, C);
  if (!Inserted)
    It->second = unite(It->second, C);
}

/// The class of an operand, creating it for globals and for values defined
/// later in the walk (PHI operands from back edges).
int MemoryClasses::classOrMake(const Value *V) {
  // Integers that hold addresses (ptrtoint) are already known.
  if (!isa<Constant>(V))
    if (auto It = ClassOf.find(V); It != ClassOf.end())
      return find(It->second);
  if (isa<ConstantPointerNull>(V) || isa<UndefValue>(V) || isa<Function>(V) ||
      !holdsPointer(V->getType()))
    return -1;
  if (isa<Constant>(V)) {
    const Value *Obj = getUnderlyingObject(V);
    if (const auto *GV = dyn_cast<GlobalVariable>(Obj)) {
      auto It = ClassOf.find(GV);
      if (It != ClassOf.end())
        return find(It->second);
      // A global the program marks inactive (__enzyme_inactive_global) is
      // never shadowed: its contents carry no derivative.
      int C = make(GV->isConstant() ? OriginConstGlobal
                   : GV->hasMetadata("enzyme_inactive")
                       ? OriginGlobal | OriginInactive
                       : OriginGlobal,
                   GV);
      ClassOf[GV] = C;
      // What a table of pointers holds: the globals its initializer
      // addresses, and, for a mutable one, whatever the program stores
      // there -- memory that outlives the function, as a global's.
      SmallVector<const GlobalVariable *, 4> Pointees;
      if (GV->hasInitializer())
        collectAddressedGlobals(GV->getInitializer(), Pointees);
      if (!Pointees.empty() ||
          (!GV->isConstant() && holdsPointer(GV->getValueType()))) {
        if (!GV->isConstant())
          Nodes[contentOf(C)].Origins |= OriginGlobal;
        for (const GlobalVariable *P : Pointees)
          unite(contentOf(C), classOrMake(P));
      }
      return find(C);
    }
    if (isa<ConstantPointerNull>(Obj) || isa<UndefValue>(Obj) ||
        isa<Function>(Obj))
      return -1;
    return Unknown;
  }
  auto It = ClassOf.find(V);
  if (It != ClassOf.end())
    return find(It->second);
  int C = make(0, V);
  ClassOf[V] = C;
  return C;
}

bool MemoryClasses::readsAddress(const LoadInst &LI) const {
  // A pointer field read as an integer and made a pointer again (a tuple of
  // references at -O2) reads an address like a pointer load; so does one
  // the types call an address that is only stored again (a reference
  // member copied by a memcpy the optimiser made an integer load and
  // store): its shadow must move as the shadow address.
  if (any_of(LI.users(), [](const User *U) { return isa<IntToPtrInst>(U); }))
    return true;
  return IsAddress && LI.getType()->isIntegerTy() && IsAddress(&LI) &&
         all_of(LI.users(), [&](const User *U) {
           const auto *SI = dyn_cast<StoreInst>(U);
           return SI && SI->getValueOperand() == &LI;
         });
}

void MemoryClasses::build(Function &F) {
  auto Join = [&](const Value *Result, const Value *Operand) {
    int C = classOrMake(Operand);
    if (C != -1)
      assign(Result, C);
  };
  for (Instruction &I : instructions(F)) {
    bool PtrResult = holdsPointer(I.getType());
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      assign(AI, make(OriginLocal, AI));
    } else if (auto *RI = dyn_cast<ReturnInst>(&I)) {
      // A global returned as it is (an accessor of a static buffer) gets
      // its class, so the returned memory is known.
      if (Value *RV = RI->getReturnValue())
        classOrMake(RV);
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
      Join(GEP, GEP->getPointerOperand());
    } else if (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I) ||
               isa<FreezeInst>(I) || isa<PtrToIntInst>(I)) {
      Join(&I, I.getOperand(0));
    } else if (isa<IntToPtrInst>(I)) {
      int C = ClassOf.count(I.getOperand(0)) ? classOrMake(I.getOperand(0))
                                             : Unknown;
      assign(&I, C);
    } else if (auto *PN = dyn_cast<PHINode>(&I)) {
      for (Value *In : PN->incoming_values())
        Join(PN, In);
    } else if (auto *Sel = dyn_cast<SelectInst>(&I)) {
      Join(Sel, Sel->getTrueValue());
      Join(Sel, Sel->getFalseValue());
    } else if (isa<ExtractValueInst>(I) || isa<ExtractElementInst>(I) ||
               isa<ShuffleVectorInst>(I)) {
      Join(&I, I.getOperand(0));
      if (isa<ShuffleVectorInst>(I))
        Join(&I, I.getOperand(1));
    } else if (isa<InsertValueInst>(I) || isa<InsertElementInst>(I)) {
      Join(&I, I.getOperand(0));
      Join(&I, I.getOperand(1));
    } else if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
      // Address arithmetic through integers (ptrtoint; add; inttoptr): an
      // address plus or minus an offset, or masked, is still an address;
      // the difference of two addresses is not.
      int C0 = ClassOf.count(BO->getOperand(0)) ? classOrMake(BO->getOperand(0))
                                                : -1;
      int C1 = ClassOf.count(BO->getOperand(1)) ? classOrMake(BO->getOperand(1))
                                                : -1;
      switch (BO->getOpcode()) {
      case Instruction::Add:
      case Instruction::Or:
      case Instruction::Xor:
      case Instruction::And:
        if ((C0 == -1) != (C1 == -1))
          assign(BO, C0 != -1 ? C0 : C1);
        break;
      case Instruction::Sub:
        if (C0 != -1 && C1 == -1)
          assign(BO, C0);
        break;
      default:
        break;
      }
    } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
      if (PtrResult || readsAddress(*LI)) {
        int P = classOrMake(LI->getPointerOperand());
        assign(LI, P == -1 ? Unknown : contentOf(P));
      } else if (isa<GlobalVariable>(
                     getUnderlyingObject(LI->getPointerOperand()))) {
        // A global read by value has a class too: a callee may have
        // written it (ArgumentWrites::writtenGlobals).
        classOrMake(LI->getPointerOperand());
      }
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      int V = classOrMake(SI->getValueOperand());
      int P = classOrMake(SI->getPointerOperand());
      if (V != -1 && P != -1)
        unite(contentOf(P), V);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      int V = classOrMake(RMW->getValOperand());
      int P = classOrMake(RMW->getPointerOperand());
      if (V != -1 && P != -1) {
        unite(contentOf(P), V);
        assign(RMW, contentOf(P));
      }
    } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      int D = classOrMake(MT->getRawDest());
      int S = classOrMake(MT->getRawSource());
      bool CopiesPointers = !MayHoldPointers ||
                            MayHoldPointers(MT->getRawSource()) ||
                            MayHoldPointers(MT->getRawDest());
      // Memory the user declared constant holds no pointers to
      // differentiated data, so copying it relates nothing (its shadow copy
      // is zero).
      bool FromConst =
          D != -1 && S != -1 &&
          ((origins(D) | origins(S)) & (OriginConstArg | OriginInactive));
      if (D != -1 && S != -1 && CopiesPointers && !FromConst)
        unite(contentOf(D), contentOf(S));
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      CallClass Class = Calls.classify(*Call);
      std::optional<HeapFn> Heap = Class.heap();
      if (Heap == HeapFn::PosixMemalign || Heap == HeapFn::DeviceMalloc) {
        int P = classOrMake(Call->getArgOperand(0));
        if (P != -1)
          unite(contentOf(P), make(OriginHeap, Call));
      } else if (Heap && PtrResult) {
        int C = make(OriginHeap, Call);
        if (Heap == HeapFn::Realloc &&
            classOrMake(Call->getArgOperand(0)) != -1)
          C = unite(C, classOrMake(Call->getArgOperand(0)));
        assign(Call, C);
      } else if (!Class.known() && Class.Effect != CallEffect::KernelLaunch) {
        // (Rows move no pointers: a buffer routine reads and writes floats
        // only, a rule's results are values; a kernel launch is taken to
        // store no pointer where another argument could read it.)
        int C = applyCall(*Call);
        if (PtrResult)
          assign(Call, C);
      } else if (PtrResult) {
        assign(Call, Unknown);
      }
    }
  }
}

int MemoryClasses::applyCall(const CallBase &Call) {
  // Calls that return no pointer still relate their arguments; the result
  // class then stays empty (and unnamed).
  bool PtrResult = holdsPointer(Call.getType());
  int Result = make(PtrResult ? unsigned(OriginCallResult) : 0u,
                    PtrResult ? &Call : nullptr);
  Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->isDeclaration() || Callee->isVarArg()) {
    // Unknown code: the result may point into anything it was given, or
    // into memory of its own (a buffer another file's function returns).
    // Not a call through a pointer: gpuad dispatches it to the module's
    // functions.
    if (PtrResult && Callee)
      Nodes[Result].Origins |= OriginUnknown;
    for (const Use &A : Call.args())
      if (int C = classOrMake(A.get()); C != -1)
        Result = unite(Result, C);
    return Result;
  }
  const CallSummary &S = summaryOf(*Callee);
  SmallVector<int, 8> GroupClass(Call.arg_size(), -1);
  for (unsigned I = 0; I < Call.arg_size() && I < S.Group.size(); ++I) {
    int C = classOrMake(Call.getArgOperand(I));
    if (C == -1 || S.Group[I] < 0)
      continue;
    int &G = GroupClass[S.Group[I]];
    G = G == -1 ? C : unite(G, C);
    if (!S.Returned.test(I))
      continue;
    // In the callee everything reachable from a parameter is one class; here
    // it is the argument's class and the classes behind it.
    for (unsigned Level = 0; Level < 3 && C != -1; ++Level) {
      Result = unite(Result, C);
      int Next = contentIfAny(C);
      C = Next == find(C) ? -1 : Next;
    }
  }
  // The same global's memory in both functions: `buf()[0] = v` and a later
  // `buf()[0]` reach one class (the global's), as in the callee.
  for (const GlobalVariable *G : S.ReturnedGlobals)
    Result = unite(Result, classOrMake(G));
  if (S.ReturnsUnknown)
    Result = unite(Result, Unknown);
  return Result;
}

const CallSummary &MemoryClasses::summaryOf(Function &F) {
  if (auto It = Summaries->find(&F); It != Summaries->end())
    return It->second;
  // Conservative until computed (recursion) and beyond the depth bound:
  // every pointer parameter in one group, all of them returned.
  CallSummary Conservative;
  Conservative.Returned = SmallBitVector(F.arg_size(), true);
  for (Argument &A : F.args())
    Conservative.Group.push_back(holdsPointer(A.getType()) ? 0 : -1);
  constexpr unsigned MaxDepth = 4;
  (*Summaries)[&F] = Conservative;
  if (Depth >= MaxDepth)
    return (*Summaries)[&F];

  // Activities do not matter for a summary; treat every pointer parameter
  // as shadowed so no const-memory shortcut hides a relation.
  TypeInfo TI(F, Calls);
  SmallVector<bool, 8> AllShadowed(F.arg_size(), true);
  MemoryClasses Callee(
      F, Calls, AllShadowed,
      [&TI](const Value *P) { return TI.mayHoldPointers(P); },
      [&TI](const Value *V) { return TI.isAddress(V); }, Depth + 1, Summaries);
  CallSummary S;
  S.Returned = SmallBitVector(F.arg_size(), false);
  DenseMap<int, int> GroupOfRoot;
  for (Argument &A : F.args()) {
    int C = Callee.classOf(&A);
    if (C == -1) {
      S.Group.push_back(-1);
      continue;
    }
    auto [It, New] = GroupOfRoot.try_emplace(C, GroupOfRoot.size());
    S.Group.push_back(It->second);
  }
  for (const BasicBlock &BB : F) {
    const auto *RI = dyn_cast<ReturnInst>(BB.getTerminator());
    if (!RI || !RI->getReturnValue())
      continue;
    int R = Callee.classOf(RI->getReturnValue());
    if (R == -1)
      continue; // null, or no pointer
    if (Callee.origins(R) &
        (OriginUnknown | OriginGlobal | OriginConstGlobal)) {
      S.Returned.set();
      S.ReturnsUnknown |= bool(Callee.origins(R) & OriginUnknown);
      for (unsigned N = 0; N < Callee.numClasses(); ++N)
        if (const auto *G = dyn_cast_or_null<GlobalVariable>(Callee.example(N));
            G && Callee.find(N) == Callee.find(R) &&
            !is_contained(S.ReturnedGlobals, G))
          S.ReturnedGlobals.push_back(G);
      continue;
    }
    for (Argument &A : F.args())
      if (int C = Callee.classOf(&A); C != -1 && C == R)
        S.Returned.set(A.getArgNo());
  }
  return (*Summaries)[&F] = S;
}

std::string MemoryClasses::describe(int C) const {
  C = find(C);
  // The first-created member with a name is the class's name: arguments
  // come first, then values in program order.
  const Value *Best = nullptr;
  for (unsigned N = 0; N < Nodes.size() && !Best; ++N)
    if (find(N) == C)
      Best = Nodes[N].Example;
  if (!Best)
    return (origins(C) & OriginUnknown) ? "<unknown>" : "<memory>";
  std::string S;
  raw_string_ostream OS(S);
  Best->printAsOperand(OS, /*PrintType=*/false);
  return S;
}

} // namespace gpuad
