//===- ActivityAnalysis.cpp - Which values carry derivatives --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ActivityAnalysis.h"

#include "Analysis/TypeInfo.h"
#include "Rules/CallTable.h"
#include "Rules/ComplexCalls.h"
#include "Support/EntryPoints.h"
#include "Support/FunctionPointers.h"
#include "Support/GlobalAddresses.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "gpuad-activity"

STATISTIC(NumActive, "Number of active values (varied and useful data)");
STATISTIC(NumLostDerivatives,
          "Number of bit manipulations of active floats reported");

using namespace llvm;

namespace gpuad {

SmallVector<bool, 8>
argumentShadows(Function &F,
                ArrayRef<std::pair<const Argument *, ArgActivity>> Args) {
  SmallVector<bool, 8> Shadow(F.arg_size(), false);
  for (auto [A, Act] : Args)
    Shadow[A->getArgNo()] =
        Act == ArgActivity::Dup || Act == ArgActivity::DupNoNeed;
  return Shadow;
}

ActivityAnalysis::ActivityAnalysis(
    Function &F, ArrayRef<std::pair<const Argument *, ArgActivity>> Args,
    ReturnShadow Ret, const TypeInfo &TI, const CallTable &Calls,
    CarryingGlobalFn CarriesDerivatives, CarryingCallFn ReachesCarrying)
    : F(F), TI(TI), Calls(Calls), ReachesCarrying(std::move(ReachesCarrying)),
      Classes(
          F, Calls, argumentShadows(F, Args),
          [&TI](const Value *Ptr) { return TI.mayHoldPointers(Ptr); },
          [&TI](const Value *V) { return TI.isAddress(V); }),
      Writes(Calls) {
  for (auto [A, Act] : Args) {
    if (Act != ArgActivity::Const && isData(A))
      Varied.insert(A);
    if (A->getType()->isPointerTy() && Act != ArgActivity::Const) {
      int C = Classes.classOf(A);
      VariedMem.insert(C);
      UsefulMem.insert(C);
    }
  }
  // A global that carries derivatives somewhere in the module carries them
  // here: another function may have stored a value with a derivative there
  // (this one reads it), or read back what this one stores.
  if (CarriesDerivatives)
    for (unsigned C = 0; C < Classes.numClasses(); ++C)
      if (const auto *GV = dyn_cast_or_null<GlobalVariable>(Classes.example(C));
          GV && CarriesDerivatives(*GV)) {
        // A table of pointers carries them in what it points to.
        int Mem = Classes.find(C);
        for (unsigned Depth = 0; Mem != -1 && Depth < 4; ++Depth) {
          VariedMem.insert(Mem);
          UsefulMem.insert(Mem);
          Mem = Classes.contentIfAny(Mem);
        }
      }
  if (Ret == ReturnShadow::Shadow)
    for (Instruction &I : instructions(F))
      if (auto *RI = dyn_cast<ReturnInst>(&I))
        if (Value *RV = RI->getReturnValue()) {
          if (isData(RV))
            Useful.insert(RV);
          else if (int C = Classes.classOf(RV); C != -1) {
            // Returned memory is an output: it is shadowed, and what is
            // stored in it matters -- and so is the memory reachable from
            // it, as for a duplicated argument (whose reachable memory is
            // its own class): a constructor's `v->data = malloc(...)` must
            // get a shadow block the caller can differentiate through.
            for (unsigned Depth = 0; C != -1 && Depth < 8; ++Depth) {
              if ((Classes.origins(C) & (OriginUnknown | OriginInactive)) ||
                  !ForcedShadow.insert(C).second)
                break;
              UsefulMem.insert(C);
              C = Classes.contentIfAny(C);
            }
          }
        }

  // Both directions to a common fixed point; each pass only adds facts.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Instruction &I : instructions(F))
      Changed |= propagateVaried(I);
    for (BasicBlock &BB : reverse(F))
      for (Instruction &I : reverse(BB))
        Changed |= propagateUseful(I);
  }
  computeShadowed();
  findLostDerivatives();
  LLVM_DEBUG({
    unsigned Active = 0, Shadowed = 0;
    for (Instruction &I : instructions(F))
      Active += isActive(&I);
    for (unsigned C = 0; C < Classes.numClasses(); ++C)
      Shadowed += Classes.find(C) == int(C) && isShadowed(C);
    dbgs() << "gpuad-activity: " << F.getName() << ": " << Active
           << " active values, " << Shadowed << " shadowed memory classes, "
           << LostDerivatives.size() << " lost derivatives\n";
  });
#if LLVM_ENABLE_STATS
  for (Instruction &I : instructions(F))
    NumActive += isActive(&I);
#endif
  NumLostDerivatives += LostDerivatives.size();
}

/// Conversions between a float's value and an integer's: piecewise
/// constant, so their derivative is zero whatever the integer holds.
static bool convertsValue(const Instruction &I) {
  return isa<SIToFPInst>(I) || isa<UIToFPInst>(I) || isa<FPToSIInst>(I) ||
         isa<FPToUIInst>(I) || isa<CmpInst>(I);
}

void ActivityAnalysis::findLostDerivatives() {
  // Reported where the bits first leave data known to be a float's (an
  // integer the type analysis cannot tell, in memory that also holds
  // doubles, is taken for the integer it is used as).
  for (Instruction &I : instructions(F)) {
    if (!VariedBits.count(&I) || !UsefulBits.count(&I))
      continue;
    bool FromData = any_of(I.operands(), [&](const Use &Op) {
      return (Varied.count(Op.get()) && TI.typeOf(Op.get()).mayBeFloat()) ||
             (VariedBits.count(Op.get()) && !UsefulBits.count(Op.get()));
    });
    if (FromData)
      LostDerivatives.push_back(&I);
  }
}

/// Whether \p V, computed here, is an integer wide enough to hold a float's
/// bits.
static bool mayHoldBits(const Value *V) {
  Type *Ty = V->getType();
  return isa<Instruction>(V) && Ty->isIntOrIntVectorTy() &&
         !Ty->isIntOrIntVectorTy(1);
}

bool ActivityAnalysis::setVariedBits(const Value *V) {
  return !isData(V) && mayHoldBits(V) && VariedBits.insert(V).second;
}

void ActivityAnalysis::computeShadowed() {
  // A class is shadowed if it holds a duplicated argument's memory, or
  // carries derivatives (varied and useful), or is a mutable global holding
  // varied data (it outlives the call: anyone may read it back), or holds
  // pointers to shadowed memory (their shadows must be stored somewhere).
  // That includes the memory of an argument passed as enzyme_const: no
  // derivative is wanted of it, but derivatives flow through it (the
  // forward sweep gives it a scratch shadow, ScratchShadows.cpp) -- where
  // there is evidence: the function stores values that carry derivatives
  // there, or calls a function with varied inputs that may store data
  // there (floats, moved bits: not only pointers or a count it computes),
  // or the memory is merged with its own locals or heap blocks (a pointer
  // choosing between them).  Globals the program marks inactive are not,
  // unless merged with the function's own differentiated memory.
  SmallVector<int, 16> Roots;
  for (unsigned C = 0; C < Classes.numClasses(); ++C)
    if (Classes.find(C) == int(C))
      Roots.push_back(C);
  for (int C : Roots) {
    unsigned O = Classes.origins(C);
    if (inactiveGlobalsOnly(C) || constArgumentsOnly(C))
      continue;
    if ((O & OriginShadowedArg) || ForcedShadow.count(C) ||
        (VariedMem.count(C) && (UsefulMem.count(C) || (O & OriginGlobal))))
      Shadowed.insert(C);
  }
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (int C : Roots) {
      int Content = Classes.contentIfAny(C);
      if (Content != -1 && Shadowed.count(Content) && !Shadowed.count(C) &&
          !inactiveGlobalsOnly(C) && !constArgumentsOnly(C))
        Changed |= Shadowed.insert(C).second;
    }
  }
}

/// Whether the aggregate \p V of integers holds floats by the type analysis
/// (AMDGPU passes and returns a struct of two floats as [2 x i32]).
static bool aggregateOfFloatBits(const Value *V, const TypeInfo &TI) {
  if (!V->getType()->isAggregateType())
    return false;
  TypeTree Tree = TI.tree(V);
  for (const auto &[Path, C] : Tree.entries())
    if (Path.size() == 1 && C.kind() == ConcreteType::Float)
      return true;
  return false;
}

bool ActivityAnalysis::isData(const Value *V) const {
  Type *Ty = V->getType();
  if (carriesFloat(Ty) || aggregateOfFloatBits(V, TI))
    return true;
  if (!Ty->isIntOrIntVectorTy() || Ty->isIntOrIntVectorTy(1))
    return false;
  // An integer may hold float bits when it only moves data around (clang
  // copies doubles through i64) and the type analysis does not rule it out.
  // An integer the types call a pointer (a pointer field loaded as i64,
  // then inttoptr) is an address: it gets a shadow address, not a tangent.
  if (TI.isInteger(V) || TI.typeOf(V).kind() == ConcreteType::Pointer)
    return false;
  if (isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (isa<LoadInst>(I) || isa<PHINode>(I) || isa<SelectInst>(I) ||
      isa<BitCastInst>(I) || isa<ExtractValueInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertValueInst>(I) ||
      isa<InsertElementInst>(I) || isa<FreezeInst>(I) ||
      isa<ShuffleVectorInst>(I) || isa<AtomicRMWInst>(I))
    return true;
  // Integer arithmetic is data only when the types say it works on floats.
  return TI.typeOf(V).kind() == ConcreteType::Float;
}

bool ActivityAnalysis::isActive(const Value *V) const {
  return isData(V) && Varied.count(V) && Useful.count(V);
}

bool ActivityAnalysis::isShadowed(int C) const {
  return C != -1 && Shadowed.count(Classes.find(C));
}

bool ActivityAnalysis::isVariedMemory(int C) const {
  return C != -1 && VariedMem.count(Classes.find(C));
}
bool ActivityAnalysis::isUsefulMemory(int C) const {
  return C != -1 && UsefulMem.count(Classes.find(C));
}

bool ActivityAnalysis::needsShadow(const Value *V) const {
  return isShadowed(Classes.classOf(V));
}

bool ActivityAnalysis::isRuleCall(const CallBase &Call) const {
  // Rules with results written through pointers behave like any call that
  // writes its pointer arguments.
  const DerivativeRule *R = Calls.classify(Call).Scalar;
  if (R && R->Kind == RuleKind::Complex)
    return ComplexCall::match(Call, *R).has_value();
  return R && R->Kind != RuleKind::MultipleOutputs;
}

bool ActivityAnalysis::exchangedBuffers(const CallBase &Call,
                                        const MpiRoutine &Mpi,
                                        DenseSet<int> &Set) {
  // Every rank runs the derivative, and a message's ends must agree on
  // whether it carries one: every buffer does, both ways.
  bool Changed = false;
  for (int8_t Op : Mpi.buffers())
    Changed |= setMemory(Set, Call.getArgOperand(Op));
  return Changed;
}

bool ActivityAnalysis::isInactiveCall(const CallBase &Call) const {
  return Calls.classify(Call).inactive();
}

bool ActivityAnalysis::setVaried(const Value *V) {
  return isData(V) && Varied.insert(V).second;
}

bool ActivityAnalysis::setUseful(const Value *V) {
  if (isData(V))
    return Useful.insert(V).second;
  return mayHoldBits(V) && UsefulBits.insert(V).second;
}

bool ActivityAnalysis::setMemory(DenseSet<int> &Set, const Value *Ptr) {
  int C = Classes.classOf(Ptr);
  return C != -1 && Set.insert(Classes.find(C)).second;
}

/// The class of \p Ptr and the classes reachable from it (a callee may follow
/// pointers stored in its arguments' memory).
bool ActivityAnalysis::setMemoryReach(DenseSet<int> &Set, const Value *Ptr) {
  bool Changed = false;
  int C = Classes.classOf(Ptr);
  for (unsigned Depth = 0; C != -1 && Depth < 4; ++Depth) {
    Changed |= Set.insert(Classes.find(C)).second;
    int Next = Classes.contentOf(C);
    if (Classes.find(Next) == Classes.find(C))
      break;
    C = Next;
  }
  return Changed;
}

bool ActivityAnalysis::memoryIn(const DenseSet<int> &Set,
                                const Value *Ptr) const {
  int C = Classes.classOf(Ptr);
  return C != -1 && Set.count(Classes.find(C));
}

bool ActivityAnalysis::memoryReachIn(const DenseSet<int> &Set,
                                     const Value *Ptr) const {
  int C = Classes.classOf(Ptr);
  for (unsigned Depth = 0; C != -1 && Depth < 4; ++Depth) {
    if (Set.count(Classes.find(C)))
      return true;
    int Next = const_cast<MemoryClasses &>(Classes).contentOf(C);
    if (Classes.find(Next) == Classes.find(C))
      break;
    C = Next;
  }
  return false;
}

/// Whether a call may reach memory through argument \p A: a pointer the
/// callee neither reads, writes nor keeps (`readnone captures(none)`: a
/// dispatcher's function pointer), or only calls (a callback), does not.
static bool reachesMemory(const CallBase &Call, const Use &A) {
  unsigned No = Call.getArgOperandNo(&A);
  if (!A->getType()->isPointerTy() ||
      (Call.doesNotAccessMemory(No) && Call.doesNotCapture(No)))
    return false;
  const Function *Callee = Call.getCalledFunction();
  return !(Callee && !Callee->isDeclaration() && !Callee->isVarArg() &&
           No < Callee->arg_size() && isOnlyCalled(*Callee->getArg(No)));
}

bool ActivityAnalysis::inactiveGlobalsOnly(int C) const {
  // Merged with the function's own differentiated memory (a pointer
  // choosing between the global and a local), the class is shadowed; the
  // global's shadow is then zeroed at entry (its derivative is always 0).
  unsigned O = Classes.origins(C);
  return (O & OriginInactive) && !(O & (OriginShadowedArg | OriginLocal |
                                        OriginHeap | OriginCallResult));
}

bool ActivityAnalysis::constArgumentsOnly(int C) const {
  unsigned O = Classes.origins(C);
  return (O & OriginConstArg) &&
         !(O & (OriginShadowedArg | OriginLocal | OriginHeap |
                OriginCallResult | OriginGlobal | OriginUnknown)) &&
         !StoredVariedMem.count(Classes.find(C)) && !ForcedShadow.count(C);
}

/// Whether anything may write \p GV: a store to it, or its address going
/// anywhere but a load (a call, memory, a cast to an integer).
static bool mayBeWritten(const GlobalVariable &GV) {
  return anyAddressUse(
      GV, [](const Use &U) { return !isa<LoadInst>(U.getUser()); });
}

const SmallVector<const GlobalVariable *, 8> &
ActivityAnalysis::writableGlobals() {
  if (!WritableGlobals) {
    WritableGlobals.emplace();
    for (unsigned C = 0; C < Classes.numClasses(); ++C)
      if (const auto *GV = dyn_cast_or_null<GlobalVariable>(Classes.example(C));
          GV && !GV->isConstant() && !GV->hasMetadata("enzyme_inactive") &&
          carriesFloat(GV->getValueType()) && mayBeWritten(*GV))
        WritableGlobals->push_back(GV);
  }
  return *WritableGlobals;
}

bool ActivityAnalysis::propagateVaried(Instruction &I) {
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return carriesVaried(SI->getValueOperand()) &&
           (setMemory(StoredVariedMem, SI->getPointerOperand()) |
            setMemory(VariedMem, SI->getPointerOperand()));
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return memoryIn(VariedMem, MT->getRawSource()) &&
           (setMemory(StoredVariedMem, MT->getRawDest()) |
            setMemory(VariedMem, MT->getRawDest()));
  // A load the type analysis calls an integer is one: memory varies per
  // class, not per field (a count next to doubles in a struct).  Bits that
  // reach it through memory are caught where they were stored.
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return memoryIn(VariedMem, LI->getPointerOperand()) && setVaried(LI);
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    bool Changed = false;
    if (Varied.count(RMW->getValOperand()))
      Changed |= setMemory(VariedMem, RMW->getPointerOperand());
    if (memoryIn(VariedMem, RMW->getPointerOperand()))
      Changed |= setVaried(RMW);
    return Changed;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (isa<MemSetInst>(Call) || isInactiveCall(*Call) ||
        Calls.classify(*Call).isHeap())
      return false;
    // What another rank sent depends on its inputs.
    if (const MpiRoutine *Mpi = Calls.classify(*Call).Mpi)
      return exchangedBuffers(*Call, *Mpi, VariedMem);
    // A call that reads or writes a global carrying derivatives may
    // return or store what another function left there.
    bool AnyVaried =
        (ReachesCarrying && ReachesCarrying(*Call)) ||
        any_of(Call->args(), [&](const Use &A) {
          return carriesVaried(A.get()) ||
                 (reachesMemory(*Call, A) && memoryReachIn(VariedMem, A.get()));
        });
    if (!AnyVaried)
      return false;
    bool Changed = setVaried(Call);
    if (isRuleCall(*Call))
      return Changed;
    // Its integer result may be bits of what it was given, unless the type
    // analysis knows it is an integer (a container's size read from varied
    // memory) and no value it was given is varied.
    if (!TI.isInteger(Call) || any_of(Call->args(), [&](const Use &A) {
          return carriesVaried(A.get());
        }))
      Changed |= setVariedBits(Call);
    // Varied inputs vary only the memory the call may write: a method
    // reading an object through `this` leaves the object inactive.
    // Where it may store data that carries a derivative, that is evidence
    // for memory passed as enzyme_const (it needs a scratch shadow).
    SmallBitVector Written = Writes.writtenArguments(*Call);
    SmallBitVector Data = Writes.dataWrittenArguments(*Call);
    for (const Use &A : Call->args()) {
      unsigned No = Call->getArgOperandNo(&A);
      if (!reachesMemory(*Call, A) || !Written.test(No))
        continue;
      Changed |= setMemoryReach(VariedMem, A.get());
      if (Data.test(No))
        Changed |= setMemoryReach(StoredVariedMem, A.get());
    }
    // And the mutable globals it may write (it may store what it was given
    // there, and this function read it back).
    GlobalWrites Globals = Writes.writtenGlobals(*Call);
    for (const GlobalVariable *GV : Globals.Globals)
      if (carriesFloat(GV->getValueType()))
        Changed |= setMemory(VariedMem, GV);
    if (Globals.Any)
      for (const GlobalVariable *GV : writableGlobals())
        Changed |= setMemory(VariedMem, GV);
    // The callee may store what it was given (a double's bits in an integer
    // among them) into the memory it returns.
    if (Call->getType()->isPointerTy())
      Changed |= setMemoryReach(VariedMem, Call);
    return Changed;
  }
  // Converting an integer's value is piecewise constant, even where the
  // integer may hold float bits elsewhere (a union of a double and a long).
  if (convertsValue(I))
    return false;
  // Everything else computes its result from its operands: as data, or as
  // integer bits that may still be a float's.
  for (const Use &Op : I.operands())
    if (carriesVaried(Op.get()))
      return setVaried(&I) || setVariedBits(&I);
  return false;
}

bool ActivityAnalysis::propagateUseful(Instruction &I) {
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return memoryIn(UsefulMem, SI->getPointerOperand()) &&
           setUseful(SI->getValueOperand());
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return memoryIn(UsefulMem, MT->getRawDest()) &&
           setMemory(UsefulMem, MT->getRawSource());
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return (Useful.count(LI) || UsefulBits.count(LI)) &&
           setMemory(UsefulMem, LI->getPointerOperand());
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    bool Changed = false;
    if (Useful.count(RMW))
      Changed |= setMemory(UsefulMem, RMW->getPointerOperand());
    if (memoryIn(UsefulMem, RMW->getPointerOperand()) || Useful.count(RMW))
      Changed |= setUseful(RMW->getValOperand());
    return Changed;
  }
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (isa<MemSetInst>(Call) || isInactiveCall(*Call) ||
        Calls.classify(*Call).isHeap())
      return false;
    // What this rank sends may reach another rank's result.
    if (const MpiRoutine *Mpi = Calls.classify(*Call).Mpi)
      return exchangedBuffers(*Call, *Mpi, UsefulMem);
    bool Rule = isRuleCall(*Call);
    // What a call stores in a global carrying derivatives may be read
    // anywhere: its inputs matter.
    bool Needed =
        Useful.count(Call) || UsefulBits.count(Call) ||
        (ReachesCarrying && ReachesCarrying(*Call)) ||
        (!Rule &&
         ((Call->getType()->isPointerTy() && memoryReachIn(UsefulMem, Call)) ||
          any_of(Call->args(), [&](const Use &A) {
            return reachesMemory(*Call, A) && memoryReachIn(UsefulMem, A.get());
          })));
    if (!Needed)
      return false;
    bool Changed = false;
    for (const Use &A : Call->args()) {
      Changed |= setUseful(A.get());
      if (!Rule && reachesMemory(*Call, A))
        Changed |= setMemoryReach(UsefulMem, A.get());
    }
    return Changed;
  }
  if ((!Useful.count(&I) && !UsefulBits.count(&I)) || convertsValue(I))
    return false;
  bool Changed = false;
  unsigned First = isa<SelectInst>(I) ? 1 : 0;
  for (unsigned K = First; K < I.getNumOperands(); ++K)
    Changed |= setUseful(I.getOperand(K));
  return Changed;
}

void ActivityAnalysis::print(raw_ostream &OS) const {
  auto Name = [](const Value &V) {
    std::string S;
    raw_string_ostream SOS(S);
    V.printAsOperand(SOS, /*PrintType=*/false);
    return S;
  };
  auto Describe = [&](const Value &V) -> std::string {
    if (V.getType()->isPointerTy())
      return needsShadow(&V) ? "shadowed pointer" : "pointer without shadow";
    if (!isData(&V))
      return "inactive (not differentiable data)";
    if (isActive(&V))
      return "active";
    if (Varied.count(&V))
      return "inactive (varied, not useful)";
    if (Useful.count(&V))
      return "inactive (useful, not varied)";
    return "inactive";
  };
  for (const Argument &A : F.args())
    OS << "  " << Name(A) << ": " << Describe(A) << "\n";
  for (const Instruction &I : instructions(F)) {
    if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      OS << "  store to " << Name(*SI->getPointerOperand()) << ": "
         << (needsShadow(SI->getPointerOperand()) ? "writes shadow memory"
                                                  : "no shadow")
         << "\n";
      continue;
    }
    if (I.getType()->isVoidTy())
      continue;
    OS << "  " << Name(I) << ": " << Describe(I) << "\n";
  }
  // Memory classes, in creation order of their names.
  std::vector<int> Roots;
  for (unsigned C = 0; C < Classes.numClasses(); ++C)
    if (Classes.find(C) == int(C) && Classes.origins(C) &&
        Classes.origins(C) != OriginUnknown)
      Roots.push_back(C);
  for (int C : Roots) {
    OS << "  memory " << Classes.describe(C) << ": "
       << (isShadowed(C) ? "shadowed" : "not shadowed");
    if (VariedMem.count(C))
      OS << ", varied";
    if (UsefulMem.count(C))
      OS << ", useful";
    OS << "\n";
  }
}

} // namespace gpuad
