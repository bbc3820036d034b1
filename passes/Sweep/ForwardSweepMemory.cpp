//===- ForwardSweepMemory.cpp - Shadows through memory and calls ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The forward sweep through memory and calls.  Stores to shadowed memory
/// store the value's shadow when the mode says so (forward mode: every
/// value -- its tangent, the primal itself for integers and for pointers
/// without shadow, so shadow structures stay well-formed; reverse mode:
/// pointers only).  Loads load shadows of values that have one.  Allocas and
/// heap blocks in shadowed classes get zeroed shadow twins.  A call is, in
/// order: a nested request (an error), a known-inactive call, a memory
/// intrinsic, a rule of the table, a heap function, a call that touches
/// nothing active, or a call to a defined function the mode differentiates.
//===----------------------------------------------------------------------===//

#include "Normalize/KernelLaunches.h"
#include "Normalize/ParallelRegions.h"
#include "Normalize/RuntimeMemory.h"
#include "Support/DemangledTypes.h"
#include "Sweep/ForwardSweep.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/AlgorithmCalls.h"
#include "Rules/CallTable.h"
#include "Rules/DerivativeRules.h"
#include "Rules/KnownFunctions.h"
#include "Rules/OpenMPCalls.h"
#include "Support/DebugScopes.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/EntryPoints.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

void ForwardSweep::forEachLane(Value *ShadowPtr,
                               function_ref<void(Value *, unsigned)> Emit) {
  Type *PtrTy = ShadowPtr->getType();
  if (Batch.width() > 1)
    PtrTy = cast<ArrayType>(PtrTy)->getElementType();
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane)
    Emit(Batch.extract(B, ShadowPtr, PtrTy, Lane), Lane);
}

Value *ForwardSweep::constantShadow(Constant *C, Instruction &At) {
  Type *Ty = C->getType();
  if (isa<ConstantPointerNull>(C))
    return Batch.zero(Ty);
  if (isa<UndefValue>(C))
    return PoisonValue::get(Batch.shadowType(Ty));
  // A function is its own shadow: calls through it dispatch on the primal.
  if (isa<Function>(C))
    return Batch.splat(B, C);
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->isConstant()) {
      SmallVector<Value *, 4> Lanes;
      for (unsigned Lane = 0; Lane < Batch.width(); ++Lane)
        Lanes.push_back(Ctx.constantShadowOf(*GV, Lane));
      return Batch.pack(B, Ty, Lanes);
    }
    if (Ctx.target().isBlockShared(*GV)) {
      const DataLayout &DL = GV->getParent()->getDataLayout();
      if ((GV->isDeclaration() ||
           DL.getTypeAllocSize(GV->getValueType()) == 0) &&
          Batch.width() > 1) {
        fail(At, "dynamic (extern) __shared__ memory '" + GV->getName() +
                     "' carries derivatives at width " + Twine(Batch.width()) +
                     ": not supported (its shadow is the second half of "
                     "the launch's dynamic shared memory, one lane only)");
        return PoisonValue::get(Batch.shadowType(Ty));
      }
      SmallVector<Value *, 4> Lanes;
      for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
        GlobalVariable *S = Ctx.sharedShadowOf(*GV, Lane);
        SharedShadows.insert(S);
        Lanes.push_back(S);
      }
      return Batch.pack(B, Ty, Lanes);
    }
    // A byte holds no float (C++'s empty classes: std::placeholders::_1,
    // merged with a bound call's data): it is its own shadow.
    if (GV->getParent()->getDataLayout().getTypeAllocSize(GV->getValueType()) <=
        1)
      return Batch.splat(B, GV);
    if (!Ctx.target().isGPU()) {
      // Every function agrees on a global that carries derivatives in the
      // module; any other one is shadowed only where no callee can see it.
      if (const CallBase *Call = Ctx.carriesDerivatives(*GV)
                                     ? nullptr
                                     : Ctx.callAccessingGlobals(*Key.Fn)) {
        fail(At, "global variable '" + GV->getName() +
                     "' carries derivatives, and the call '" + describe(*Call) +
                     "' may read or write globals: a callee cannot see "
                     "which globals carry derivatives; pass its data as an "
                     "argument instead");
        return PoisonValue::get(Batch.shadowType(Ty));
      }
      SmallVector<Value *, 4> Lanes;
      for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
        GlobalVariable *S = Ctx.globalShadowOf(*GV, Lane);
        // An inactive global merged with differentiated memory: its
        // derivative is 0 on every entry, whatever the twin held before.
        if (GV->hasMetadata("enzyme_inactive") &&
            ZeroedInactiveShadows.insert(S).second) {
          IRBuilder<> EB(&Derivative.getEntryBlock(),
                         Derivative.getEntryBlock().getFirstInsertionPt());
          const DataLayout &DL = Derivative.getParent()->getDataLayout();
          EB.CreateMemSet(S, EB.getInt8(0),
                          DL.getTypeAllocSize(S->getValueType()),
                          S->getAlign());
        }
        Lanes.push_back(S);
      }
      return Batch.pack(B, Ty, Lanes);
    }
    fail(At, "device global variable '" + GV->getName() +
                 "' would need a shadow to carry derivatives, and device "
                 "globals have none; pass its data as an argument instead");
    return PoisonValue::get(Batch.shadowType(Ty));
  }
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    // Rebuild the expression, lane by lane, on the shadows of its pointer
    // operands (a global's shadow differs per lane).
    SmallVector<Value *, 4> OpShadows;
    for (Value *Op : CE->operands())
      OpShadows.push_back(Op->getType()->isPointerTy()
                              ? constantShadow(cast<Constant>(Op), At)
                              : nullptr);
    SmallVector<Value *, 4> Lanes;
    for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
      SmallVector<Constant *, 4> Ops;
      for (unsigned K = 0; K < CE->getNumOperands(); ++K) {
        Value *S = OpShadows[K];
        if (S && Batch.width() > 1 && isa<Constant>(S))
          S = cast<Constant>(S)->getAggregateElement(Lane);
        if (S && !isa<Constant>(S)) {
          fail(At, "no constant shadow for '" + describe(*C) + "'");
          return PoisonValue::get(Batch.shadowType(Ty));
        }
        Ops.push_back(cast<Constant>(S ? S : CE->getOperand(K)));
      }
      Lanes.push_back(CE->getWithOperands(Ops));
    }
    return Batch.pack(B, Ty, Lanes);
  }
  fail(At, "no shadow for constant '" + describe(*C) + "'");
  return PoisonValue::get(Batch.shadowType(Ty));
}

/// Whether \p V is a function or a select or PHI of functions.
static bool isFunctionChoice(const Value *V, unsigned Depth = 0) {
  V = V->stripPointerCasts();
  if (isa<Function>(V))
    return true;
  if (Depth > 4)
    return false;
  if (const auto *S = dyn_cast<SelectInst>(V))
    return isFunctionChoice(S->getTrueValue(), Depth + 1) &&
           isFunctionChoice(S->getFalseValue(), Depth + 1);
  if (const auto *P = dyn_cast<PHINode>(V))
    return all_of(P->incoming_values(), [&](const Value *In) {
      return In == P || isFunctionChoice(In, Depth + 1);
    });
  return false;
}

Value *ForwardSweep::shadowPointer(Value *V, Instruction &At) {
  if (Value *S = shadowOf(V))
    return S;
  if (auto *C = dyn_cast<Constant>(V))
    return constantShadow(C, At);
  // A choice between functions is its own shadow, as a function is.
  if (isFunctionChoice(V))
    return Batch.splat(B, V);
  if (auto *A = dyn_cast<Argument>(V))
    fail(At, "argument '" + A->getName() +
                 "' is passed as enzyme_const but may point to memory that "
                 "carries derivatives; pass it with enzyme_dup and a shadow");
  else
    fail(At, "no shadow for pointer '" + describe(*V) + "'");
  return PoisonValue::get(Batch.shadowType(V->getType()));
}

void ForwardSweep::visitAllocaInst(AllocaInst &I) {
  if (!hasShadow(&I))
    return;
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
    auto *S = cast<AllocaInst>(I.clone());
    B.Insert(S, I.getName() + ".d");
    Lanes.push_back(S);
  }
  // Zero the shadow: reads of memory the primal never wrote see zero
  // derivatives, and partially written aggregates stay well-defined.
  Value *Size = B.getInt64(DL.getTypeAllocSize(I.getAllocatedType()));
  if (I.isArrayAllocation())
    Size = B.CreateMul(Size,
                       B.CreateZExtOrTrunc(I.getArraySize(), B.getInt64Ty()));
  for (Value *S : Lanes)
    B.CreateMemSet(S, B.getInt8(0), Size, I.getAlign());
  setShadow(&I, Batch.pack(B, I.getType(), Lanes));
}

void ForwardSweep::visitLoadInst(LoadInst &I) {
  if (!hasShadow(&I))
    return;
  Value *Ptr = I.getPointerOperand();
  if (!needsShadow(Ptr)) {
    // Varied memory without shadow: a const argument the function wrote an
    // active value to (reported at the store).  Its derivative is zero.
    if (isData(&I))
      setShadow(&I, nullptr);
    else
      fail(I, "no shadow for the memory '" + describe(*Ptr) +
                  "' points to, which holds a pointer to differentiated data");
    return;
  }
  Value *SP = accessedShadow(Ptr, I);
  SmallVector<Value *, 4> Lanes;
  forEachLane(SP, [&](Value *LanePtr, unsigned) {
    auto *S = cast<LoadInst>(I.clone());
    S->setOperand(0, LanePtr);
    S->setMetadata(LLVMContext::MD_alias_scope, nullptr);
    S->setMetadata(LLVMContext::MD_noalias, nullptr);
    S->setMetadata(LLVMContext::MD_range, nullptr);
    S->setMetadata(LLVMContext::MD_nonnull, nullptr);
    Lanes.push_back(B.Insert(S, I.getName() + ".d"));
  });
  setShadow(&I, Batch.pack(B, I.getType(), Lanes));
}

Value *ForwardSweep::accessedShadow(Value *Ptr, Instruction &At) {
  checkShadowBase(Ptr);
  return shadowPointer(Ptr, At);
}

void ForwardSweep::checkShadowBase(Value *Ptr) {
  if (Ctx.target().isGPU())
    return;
  // Through PHIs and selects too: a vector's storage is the old block or
  // the one realloc just made.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *Object : Objects)
    if (const auto *Base = dyn_cast<LoadInst>(Object))
      checkLoadedShadow(const_cast<LoadInst &>(*Base));
}

void ForwardSweep::checkLoadedShadow(LoadInst &Base) {
  if (!Base.getType()->isPointerTy() || !CheckedBases.insert(&Base).second)
    return;
  auto *Shadow = dyn_cast_or_null<Instruction>(shadowOf(&Base));
  if (!Shadow || isa<PHINode>(Shadow))
    return;
  std::string Message;
  auto *GV =
      dyn_cast<GlobalVariable>(getUnderlyingObject(Base.getPointerOperand()));
  if (GV && !GV->isConstant() &&
      Ctx.isMadeShadow(*Ctx.globalShadowOf(*GV, 0))) {
    std::string G = GV->getName().str();
    Message = "gpuad: global '" + G +
              "' holds an address where its shadow "
              "holds none: the program stored it outside differentiated "
              "code, so the derivative cannot follow it; define a global '" +
              G + "_shadow' and set it where the program sets '" + G +
              "' (a zeroed buffer like the one '" + G +
              "' points to), or mark '" + G + "' inactive";
  } else {
    Message = "gpuad: the pointer '" + describe(Base) + "' loaded in '" +
              demangle(Key.Fn->getName()) + "'" +
              describeLocation(Base.getDebugLoc()) +
              " has an address where its shadow has none: the memory it "
              "was loaded from was set outside differentiated code (a "
              "global's shadow gpuad made, or a shadow the program did not "
              "fill like its primal), so the derivative cannot follow it";
  }
  IRBuilderBase::InsertPointGuard Guard(B);
  Instruction *Next = Shadow->getNextNode();
  B.SetInsertPoint(Next);
  // The check is inlined: in a function with debug information its call
  // needs a location (the load's), or the debug info is malformed.
  B.SetCurrentDebugLocation(locationBeside(Base));
  Value *Text = B.CreateGlobalString(Message, "gpuad.msg");
  Type *PtrTy = Base.getType();
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane)
    Lanes.push_back(
        B.CreateCall(Ctx.shadowAddressCheck(),
                     {&Base, Batch.extract(B, Shadow, PtrTy, Lane), Text}));
  Value *Checked = Batch.pack(B, PtrTy, Lanes);
  // Every other use of the shadow, here and in the reverse sweep, takes the
  // checked one.
  SmallPtrSet<const Instruction *, 8> Made;
  for (Instruction *M = Shadow->getNextNode(); M != Next; M = M->getNextNode())
    Made.insert(M);
  Shadow->replaceUsesWithIf(Checked, [&](Use &U) {
    return !Made.count(cast<Instruction>(U.getUser()));
  });
  setShadow(&Base, Checked);
}

bool ForwardSweep::storesShadowOf(const StoreInst &I) const { return true; }

/// Whether \p Ptr points into a global marked `enzyme_inactive`.
static bool isInactiveGlobal(const Value *Ptr) {
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  return GV && GV->hasMetadata("enzyme_inactive");
}

void ForwardSweep::visitStoreInst(StoreInst &I) {
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValueOperand();
  if (!needsShadow(Ptr)) {
    int C = classOf(Ptr);
    bool Varied = isData(Val) && isVaried(Val);
    if (C == -1 || !Varied)
      return;
    unsigned Origins = Act->classes().origins(C);
    // A global has no shadow; if anything may read the value back (a load
    // here, or any call), its derivative would silently vanish.
    // Unless the program says the global is inactive (Enzyme's
    // __enzyme_inactive_global): then its contents carry no derivative.
    if ((Origins & OriginGlobal) && mayReadBack(C) && !isInactiveGlobal(Ptr))
      fail(I, "an active value is stored to global memory ('" + describe(*Ptr) +
                  "'), which has no shadow, and may be read back; pass the "
                  "data as an argument instead");
    // Memory a call gpuad cannot see into handed out (a buffer another
    // file's function returns): the same.
    else if ((Origins & OriginUnknown) && mayReadBack(C))
      fail(I, "an active value is stored to memory gpuad cannot give a "
              "shadow ('" +
                  describe(*Ptr) +
                  "', from code it cannot see "
                  "into), and may be read back; pass the memory as an "
                  "argument instead, or define the function that returns it in "
                  "this file");
    return;
  }
  if (!storesShadowOf(I))
    return;
  // Integers are stored as they are, so shadow structures keep their sizes
  // and counts; float data stores its tangent; pointers their shadow.  An
  // integer that is a float's bits (the memory holds a float there, or the
  // value is one) stores its tangent: zero for a constant's bits.
  Value *ShadowVal = shadowOperand(Val, I);
  if (isInteger(Val))
    ShadowVal = holdsFloatAt(Ptr, 0) ? shadowOrZero(Val) : Batch.splat(B, Val);
  if (Val->getType()->isAggregateType())
    ShadowVal = Batch.map(B, Val->getType(), {ShadowVal}, {Val->getType()},
                          [&](ArrayRef<Value *> Lane, unsigned) {
                            return withPrimalIntegers(Lane[0], Val, Ptr, {});
                          });
  Value *SP = accessedShadow(Ptr, I);
  Type *ValTy = Val->getType();
  forEachLane(SP, [&](Value *LanePtr, unsigned Lane) {
    auto *S = cast<StoreInst>(I.clone());
    S->setOperand(0, Batch.extract(B, ShadowVal, ValTy, Lane));
    S->setOperand(1, LanePtr);
    S->setMetadata(LLVMContext::MD_alias_scope, nullptr);
    S->setMetadata(LLVMContext::MD_noalias, nullptr);
    B.Insert(S);
  });
}

Value *ForwardSweep::withPrimalIntegers(Value *Shadow, Value *Primal,
                                        const Value *Ptr,
                                        SmallVector<unsigned, 4> Path) {
  Type *Ty = ExtractValueInst::getIndexedType(Primal->getType(), Path);
  unsigned N = 0;
  if (auto *ST = dyn_cast<StructType>(Ty))
    N = ST->getNumElements();
  else if (auto *AT = dyn_cast<ArrayType>(Ty))
    N = AT->getNumElements();
  else if (Ty->isIntegerTy() && !Path.empty()) {
    SmallVector<Value *, 4> Indices = {B.getInt32(0)};
    for (unsigned K : Path)
      Indices.push_back(B.getInt32(K));
    int Offset = Derivative.getDataLayout().getIndexedOffsetInType(
        Primal->getType(), Indices);
    if (holdsFloatAt(Ptr, Offset))
      return Shadow;
    return B.CreateInsertValue(Shadow, B.CreateExtractValue(Primal, Path),
                               Path);
  }
  for (unsigned K = 0; K < N; ++K) {
    SmallVector<unsigned, 4> Sub = Path;
    Sub.push_back(K);
    Shadow = withPrimalIntegers(Shadow, Primal, Ptr, Sub);
  }
  return Shadow;
}

bool ForwardSweep::holdsFloatAt(const Value *Ptr, int Offset) const {
  return TI->memoryAt(orig(Ptr), Offset).kind() == ConcreteType::Float;
}

bool ForwardSweep::mayReadBack(int Class) const {
  if (Act->isUsefulMemory(Class))
    return true;
  for (const BasicBlock &BB : Derivative)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        CallClass C = Ctx.calls().classify(*Call);
        if (!isa<IntrinsicInst>(Call) && !C.inactive() && !C.Scalar &&
            !C.isHeap())
          return true;
      }
  return false;
}

void ForwardSweep::visitAtomicRMWInst(AtomicRMWInst &I) {
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValOperand();
  bool Involved =
      isActive(&I) || isActive(Val) || (!isData(Val) && needsShadow(Val));
  if (!needsShadow(Ptr) || !Involved)
    return;
  switch (I.getOperation()) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub:
  case AtomicRMWInst::Xchg:
    return emitAtomicRMW(I);
  default:
    return fail(I, "cannot differentiate atomic '" + describe(I) +
                       "' on differentiated memory (only fadd, fsub and xchg "
                       "have derivatives)");
  }
}

void ForwardSweep::visitAtomicCmpXchgInst(AtomicCmpXchgInst &I) {
  // A CAS loop on a float stored as an integer (atomicCAS on
  // __double_as_longlong(...), the usual atomic max/min of floats) moves
  // the bits of an active value: still a derivative gpuad cannot give.
  auto CarriesActive = [&](const Value *V) {
    // Varied is enough: the CAS itself is what would make it useful.
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      if (Act->isVaried(V))
        return true;
      const auto *Cast = dyn_cast<CastInst>(V);
      if (!Cast)
        return false;
      V = Cast->getOperand(0);
    }
    return false;
  };
  if (needsShadow(I.getPointerOperand()) &&
      (CarriesActive(I.getNewValOperand()) ||
       CarriesActive(I.getCompareOperand())))
    fail(I,
         "cannot differentiate compare-and-swap on differentiated memory "
         "('" +
             describe(I) +
             "'): an atomicCAS loop (e.g. an atomic max of "
             "floats) has no derivative rule; write it with atomicAdd, or keep "
             "that memory out of the derivative (enzyme_const)");
}

void ForwardSweep::emitMemTransfer(CallBase &Call) {
  auto &MT = cast<MemTransferInst>(Call);
  Value *Dst = MT.getRawDest();
  if (!needsShadow(Dst))
    return;
  Value *DstShadow = accessedShadow(Dst, Call);
  bool SrcShadowed = needsShadow(MT.getRawSource());
  Value *SrcShadow =
      SrcShadowed ? accessedShadow(MT.getRawSource(), Call) : nullptr;
  Type *PtrTy = MT.getRawSource()->getType();
  forEachLane(DstShadow, [&](Value *LaneDst, unsigned Lane) {
    if (SrcShadowed) {
      auto *S = cast<CallBase>(Call.clone());
      S->setArgOperand(0, LaneDst);
      S->setArgOperand(1, Batch.extract(B, SrcShadow, PtrTy, Lane));
      B.Insert(S);
    } else {
      // Copying inactive data: its shadow is zero.
      tagLike(*B.CreateMemSet(LaneDst, B.getInt8(0), MT.getLength(),
                              MT.getDestAlign(), MT.isVolatile()),
              MT);
    }
  });
}

bool ForwardSweep::callNeedsDerivative(CallBase &Call) const {
  // The result carries a derivative, or a shadowed pointer lets the callee
  // read or write differentiated memory.  Active arguments of a call whose
  // result carries nothing (isnan(x), llvm.is.fpclass, ilogb) go nowhere.
  if (!Call.getType()->isVoidTy() &&
      (isData(&Call) ? isActive(&Call) : needsShadow(&Call)))
    return true;
  // It may read or write a global that carries derivatives.
  if (Ctx.reachesCarryingGlobals(Call))
    return true;
  return any_of(Call.args(), [&](const Use &A) {
    return !isData(A.get()) && needsShadow(A.get());
  });
}

void ForwardSweep::visitCallBase(CallBase &Call) {
  if (const Function *Callee = Call.getCalledFunction();
      Callee && classifyEntryPoint(Callee->getName()))
    return fail(Call, "cannot differentiate a function that itself requests "
                      "a derivative ('" +
                          Callee->getName() +
                          "'): nested differentiation is not supported");
  checkSymbolCopy(Call);
  // Whatever it touches: a task's body, for one, runs out of sight.
  if (const Function *Callee = Call.getCalledFunction())
    if (std::optional<StringRef> Construct =
            unsupportedOpenMPConstruct(Callee->getName()))
      return fail(Call, "cannot differentiate the OpenMP construct '" +
                            *Construct + "' (its runtime call '" +
                            Callee->getName() +
                            "'): gpuad differentiates parallel regions, "
                            "worksharing loops, reductions, critical "
                            "sections, atomics, barriers, single and master");
  CallClass Class = Ctx.calls().classify(Call);
  // Nor an MPI call without a row, whatever it is given: what it receives
  // (a one-sided get, a persistent receive) may carry derivatives from
  // another rank that no analysis here sees.
  if (const Function *Callee = Call.getCalledFunction();
      Callee && Class.Effect == CallEffect::Unknown &&
      (Callee->getName().starts_with("MPI_") ||
       Callee->getName().starts_with("PMPI_")))
    return fail(Call, "cannot differentiate the MPI call '" +
                          Callee->getName() +
                          "': gpuad has no derivative for it (the user guide "
                          "lists the MPI calls it differentiates)");
  switch (Class.Effect) {
  case CallEffect::Inactive:
  case CallEffect::Barrier:
    return;
  case CallEffect::Shuffle:
    return emitShuffle(Call, Class.ShuffledOperand);
  case CallEffect::MemoryTransfer:
    return emitMemTransfer(Call);
  case CallEffect::RuntimeMemory:
    // Normalization made every runtime copy a tagged intrinsic.
    return fail(Call, "internal error: a GPU runtime copy ('" + describe(Call) +
                          "') was not normalized");
  case CallEffect::MemorySet:
    if (needsShadow(cast<MemSetInst>(Call).getRawDest()))
      emitMemSet(Call);
    return;
  case CallEffect::KernelLaunch:
    if (std::optional<KernelLaunch> L = KernelLaunch::match(Call))
      return emitKernelLaunch(*L);
    // (One no derivative flows through runs as it is: the adjoints of other
    // launches read their own copies of what it may overwrite.)
    if (callNeedsDerivative(Call)) {
      const Function *Stub = launchedStub(Call.getArgOperand(0));
      std::string Name = Stub ? "kernel '" + launchedKernelName(*Stub) + "'"
                              : "a kernel through a pointer";
      // At the user's line: the runtime's call may sit in a header's
      // inlined wrapper (cuda_runtime.h's cudaLaunchKernel<T>).
      DebugLoc Loc = Call.getDebugLoc();
      while (Loc && Loc.getInlinedAt())
        Loc = DebugLoc(Loc.getInlinedAt());
      Failed = true;
      Ctx.diags().error(*Key.Fn, Loc,
                        "cannot differentiate the launch of " + Name + " ('" +
                            Call.getCalledFunction()->getName() +
                            "'): " + whyLaunchNotNormalized(Call));
      return;
    }
    return;
  case CallEffect::InlineAsm:
    if (callNeedsDerivative(Call))
      fail(Call, "cannot differentiate inline assembly on values that carry "
                 "derivatives ('" +
                     describe(Call) + "')");
    return;
  case CallEffect::Elementwise:
    return emitRuleCall(Call, *Class.Scalar);
  case CallEffect::Allocator:
  case CallEffect::Deallocator:
  case CallEffect::Reallocator:
    return emitHeapCall(Call, Class.Heap);
  case CallEffect::Buffer:
    if (callNeedsDerivative(Call))
      emitBufferCall(Call, Class);
    return;
  case CallEffect::Message:
    // Whether or not this side's data carries derivatives: the other end
    // of the message runs the same code.
    return emitMessage(Call, *Class.Mpi);
  default:
    break;
  }
  if (!callNeedsDerivative(Call))
    return;
  Function *Callee = Call.getCalledFunction();
  switch (Class.Effect) {
  case CallEffect::Structure:
    return emitStructureCall(Call);
  case CallEffect::Indirect:
    return fail(Call, "cannot differentiate an indirect call ('" +
                          describe(Call) + "'): the callee is unknown");
  case CallEffect::Custom:
    // A registered derivative serves a declaration (a library call) too.
    return emitDerivativeCall(Call);
  case CallEffect::Unknown:
    return fail(Call, "cannot differentiate call to '" + Callee->getName() +
                          "': it has no derivative rule and its body is not "
                          "in this module");
  default:
    break;
  }
  if (Callee->isVarArg())
    return fail(Call, "cannot differentiate call to variadic function '" +
                          Callee->getName() + "'");
  // A GPU library's algorithm (not inlined): at the user's call.
  if (!Ctx.target().isGPU() && gpuLibraryFunction(Callee->getName()) &&
      mayLaunchKernels(*Callee, Ctx.calls())) {
    Failed = true;
    std::optional<std::pair<DebugLoc, std::string>> Site =
        libraryCallSite(Call.getDebugLoc());
    std::string Name =
        Site ? Site->second : libraryFunctionName(Callee->getName());
    // A Thrust algorithm gpuad runs as a map kernel, but not this call.
    std::string Why;
    if (std::optional<StringMap<AlgorithmCall>> Algorithms = algorithmCalls())
      if (auto It = Algorithms->find(Callee->getName());
          It != Algorithms->end()) {
        Name = It->second.Algorithm;
        Why = It->second.ok()
                  ? "gpuad reads its arguments as the x86-64 ABI passes "
                    "them, and this call's are not"
                  : It->second.Status;
      }
    return Ctx.diags().error(*Key.Fn, Site ? Site->first : Call.getDebugLoc(),
                             libraryAlgorithmError(Name, Why));
  }
  if (Ctx.isDispatcher(*Callee))
    checkFunctionShadow(Call);
  emitDerivativeCall(Call);
}

void ForwardSweep::checkSymbolCopy(CallBase &Copy) {
  const Function *Callee = Copy.getCalledFunction();
  std::optional<RuntimeCall> R =
      Callee ? Ctx.calls().runtimeCall(*Callee) : std::nullopt;
  if (!R || R->K != RuntimeCall::SymbolCopy)
    return;
  // (Varied, not shadowed: the copy is inactive, so nothing makes what it
  // reads useful.)
  if (Act->isVariedMemory(classOf(Copy.getArgOperand(1))))
    return fail(Copy, "cannot differentiate '" + Callee->getName() +
                          "': it copies data that carries derivatives into a "
                          "device variable, which gpuad does not follow "
                          "(pass the values as kernel arguments)");
  if (!isReverse(Key.Mode))
    return;
  // A launch that may run before the copy: its adjoint kernel, in the
  // reverse sweep, would read the device variable as the copy left it.
  for (BasicBlock &BB : Derivative)
    for (Instruction &I : BB) {
      auto *Launch = dyn_cast<CallBase>(&I);
      const Function *F = Launch ? Launch->getCalledFunction() : nullptr;
      if (Launch == &Copy || !F || !mayLaunchKernels(*F, Ctx.calls()) ||
          !isPotentiallyReachable(Launch, &Copy))
        continue;
      return fail(Copy, "cannot differentiate '" + Callee->getName() +
                            "' after a kernel launch in reverse mode: the "
                            "launch's adjoint kernel would read the device "
                            "variable as this copy leaves it (set device "
                            "variables before the first launch, or pass the "
                            "values as kernel arguments)");
    }
}

void ForwardSweep::checkFunctionShadow(CallBase &Dispatch) {
  // A pointer loaded from memory with a shadow has its shadow compared.
  // (Not a vtable's entries: gpuad's own shadow of a vtable is its zeroed
  // copy, and a virtual call's shadow object points there.)
  // Reverse mode calls the {augmented, reverse} pair such a shadow points
  // to (FunctionShadowPairs.cpp) where it can.
  auto *Load = dyn_cast<LoadInst>(Dispatch.getArgOperand(0));
  if (Ctx.target().isGPU() || !Load ||
      !needsShadow(Load->getPointerOperand()) ||
      (isReverse(Key.Mode) && hasShadow(Load) &&
       Ctx.callsShadowPairs(*Dispatch.getCalledFunction(), Key.Width)))
    return;
  std::string Message =
      "gpuad: the shadow of the function pointer called in '" +
      demangle(Key.Fn->getName()) + "'" +
      describeLocation(Dispatch.getDebugLoc()) +
      " holds neither null nor the function itself, such as Enzyme's "
      "hand-written {augmented, reverse} pair, which gpuad calls in reverse "
      "mode only, at width 1, for calls of scalar parameters and result; "
      "register a custom derivative with __enzyme_register_derivative or "
      "__enzyme_register_gradient instead, and set the shadow to the "
      "function (__enzyme_virtualreverse) or to zero";
  IRBuilderBase::InsertPointGuard Guard(B);
  B.SetInsertPoint(&Dispatch);
  B.SetCurrentDebugLocation(locationBeside(Dispatch));
  Value *Text = B.CreateGlobalString(Message, "gpuad.msg");
  forEachLane(shadowPointer(Load->getPointerOperand(), Dispatch),
              [&](Value *LaneSlot, unsigned) {
                Value *S = B.CreateLoad(Load->getType(), LaneSlot);
                B.CreateCall(Ctx.functionShadowCheck(), {Load, S, Text});
              });
}

void ForwardSweep::emitStructureCall(CallBase &Call) {
  // Pointers without shadow are passed as they are only where they are
  // constants (a string literal to copy from): the call may write through
  // any other, and the primal call already did.
  SmallVector<Value *, 4> Shadows(Call.arg_size(), nullptr);
  for (unsigned K = 0; K < Call.arg_size(); ++K) {
    Value *A = Call.getArgOperand(K);
    if (!A->getType()->isPointerTy())
      continue;
    if (needsShadow(A))
      Shadows[K] = shadowPointer(A, Call);
    else if (!isa<Constant>(A))
      return fail(Call, "cannot mirror the call '" + describe(Call) +
                            "' on shadow memory: its argument '" +
                            describe(*A) + "' has no shadow");
  }
  followNormalEdge(Call); // the shadow call does not throw for the primal
  SmallVector<Value *, 4> Results;
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
    SmallVector<std::pair<unsigned, Value *>, 4> Replace;
    for (unsigned K = 0; K < Call.arg_size(); ++K)
      if (Shadows[K])
        Replace.push_back(
            {K, Batch.extract(B, Shadows[K], Call.getArgOperand(K)->getType(),
                              Lane)});
    Results.push_back(cloneCall(Call, Replace));
  }
  if (Call.getType()->isPointerTy() && hasShadow(&Call))
    setShadow(&Call, Batch.pack(B, Call.getType(), Results));
}

DerivativeKey ForwardSweep::calleeKey(CallBase &Call, DiffMode Mode) const {
  // Reverse mode gives data no shadow values: an active float argument is
  // enzyme_out (its adjoint comes back), an active float result is seeded.
  auto Carries = [&](const Value *V) {
    return hasShadow(V) || (isReverse(Mode) && isData(V) && isActive(V));
  };
  Function *Callee = Call.getCalledFunction();
  Ctx.noteArgumentTypes(Call,
                        [&](const Value *V) { return TI->tree(orig(V)); });
  DerivativeKey K;
  K.Fn = Callee;
  K.Mode = Mode;
  K.Width = Key.Width;
  K.Team = Key.Team;
  // A function passed by address is its own shadow (calls through it
  // dispatch on the primal pointer): the callee may keep it in shadowed
  // memory (std::function's constructor at -O0).
  for (Value *A : Call.args())
    K.Args.push_back(hasShadow(A) || isa<Function>(A->stripPointerCasts())
                         ? ArgActivity::Dup
                     : Carries(A) ? ArgActivity::Active
                                  : ArgActivity::Const);
  // A parallel region's body runs in a team; its thread ids are the
  // team's threads' own.
  if (isParallelRegion(Call)) {
    K.Team = true;
    K.Args[0] = K.Args[1] = ArgActivity::Const;
  }
  bool NonVoid = !Callee->getReturnType()->isVoidTy();
  K.Ret = NonVoid && Carries(&Call) ? ReturnShadow::Shadow : ReturnShadow::None;
  K.ReturnPrimal = NonVoid;
  return K;
}

SmallVector<Value *, 16>
ForwardSweep::calleeArgs(CallBase &Call, const DerivativeSignature &S) {
  SmallVector<Value *, 16> Args(S.Type->getNumParams());
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *A = Call.getArgOperand(I);
    Args[S.PrimalParam[I]] = A;
    if (S.ShadowParam[I] >= 0)
      Args[S.ShadowParam[I]] = shadowOperand(A, Call);
  }
  return Args;
}

CallBase *ForwardSweep::emitReplacementCall(CallBase &Call, Function *Callee,
                                            ArrayRef<Value *> Args) {
  B.SetInsertPoint(&Call);
  CallBase *New;
  if (auto *Inv = dyn_cast<InvokeInst>(&Call)) {
    // The results are unpacked on the normal edge, in a block of their own
    // so that they dominate every use.
    BasicBlock *Normal = Inv->getNormalDest();
    BasicBlock *Cont = BasicBlock::Create(
        Derivative.getContext(), Normal->getName() + ".d", &Derivative, Normal);
    BranchInst::Create(Normal, Cont);
    Normal->replacePhiUsesWith(Inv->getParent(), Cont);
    New = B.CreateInvoke(Callee, Cont, Inv->getUnwindDest(), Args);
    B.SetInsertPoint(Cont->getTerminator());
  } else {
    // Never a tail call: the derivative may receive this frame's shadow
    // allocas.
    New = B.CreateCall(Callee, Args);
  }
  New->setAttributes(derivativeCallAttributes(Call));
  New->setCallingConv(Callee->getCallingConv());
  New->setDebugLoc(Call.getDebugLoc());
  return New;
}

AttributeList ForwardSweep::derivativeCallAttributes(const CallBase &Call) {
  LLVMContext &C = Call.getContext();
  AttrBuilder AB(C);
  for (Attribute::AttrKind K : {Attribute::NoUnwind, Attribute::Convergent})
    if (Call.hasFnAttr(K))
      AB.addAttribute(K);
  return AttributeList::get(C, AttributeList::FunctionIndex, AB);
}

void ForwardSweep::replaceCall(CallBase &Old, Value *Primal) {
  if (Primal) {
    Old.replaceAllUsesWith(Primal);
    Aliases[Primal] = &Old;
  }
  Old.removeFromParent();
  // A detached invoke would still count as a predecessor of its
  // destinations.  (The analyses only key on it from now on.)
  if (Old.isTerminator())
    Old.dropAllReferences();
  Removed.push_back(&Old);
}

CallInst *
ForwardSweep::cloneCall(CallBase &Call,
                        ArrayRef<std::pair<unsigned, Value *>> Replace) {
  SmallVector<Value *, 4> Args(Call.args());
  for (auto [Idx, V] : Replace)
    Args[Idx] = V;
  CallInst *S =
      B.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  S->setAttributes(Call.getAttributes());
  S->setCallingConv(Call.getCallingConv());
  return S;
}

void ForwardSweep::emitShadowFree(CallBase &Call, Value *Shadow) {
  forEachLane(Shadow, [&](Value *LanePtr, unsigned) {
    cloneCall(Call, {{releasedArgument(Call), LanePtr}});
  });
}

void ForwardSweep::emitShadowRealloc(CallBase &Call) {
  Value *Old = shadowPointer(Call.getArgOperand(0), Call);
  SmallVector<Value *, 4> Lanes;
  forEachLane(Old, [&](Value *LanePtr, unsigned) {
    Lanes.push_back(cloneCall(Call, {{0, LanePtr}}));
  });
  setShadow(&Call, Batch.pack(B, Call.getType(), Lanes));
}

void ForwardSweep::followNormalEdge(CallBase &Call) {
  if (isa<InvokeInst>(Call)) {
    auto &Inv = cast<InvokeInst>(Call);
    BasicBlock *Normal = Inv.getNormalDest();
    if (!Normal->getSinglePredecessor()) {
      // A block of its own on the normal edge.
      BasicBlock *Cont = BasicBlock::Create(Derivative.getContext(),
                                            Normal->getName() + ".shadow",
                                            &Derivative, Normal);
      BranchInst::Create(Normal, Cont);
      Normal->replacePhiUsesWith(Inv.getParent(), Cont);
      Inv.setNormalDest(Cont);
      Normal = Cont;
    }
    B.SetInsertPoint(Normal->getFirstNonPHIIt());
  }
}

void ForwardSweep::emitHeapCall(CallBase &Call, HeapFn Fn) {
  // A throwing allocation (invoke of operator new) becomes a plain call for
  // the shadow; only the primal's exception matters.
  followNormalEdge(Call);
  switch (Fn) {
  case HeapFn::Malloc:
  case HeapFn::AlignedAlloc:
  case HeapFn::UserAlloc:
  case HeapFn::Calloc: {
    if (!hasShadow(&Call))
      return;
    // The shadow comes from the same allocator, zeroed.
    unsigned SizeArg = Fn == HeapFn::UserAlloc
                           ? userAllocationSize(*Call.getCalledFunction())
                       : Fn == HeapFn::AlignedAlloc ? 1
                                                    : 0;
    Value *Size = Fn == HeapFn::Calloc ? B.CreateMul(Call.getArgOperand(0),
                                                     Call.getArgOperand(1))
                                       : Call.getArgOperand(SizeArg);
    SmallVector<Value *, 4> Lanes;
    for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
      Value *S = cloneCall(Call, {});
      if (Fn != HeapFn::Calloc)
        B.CreateMemSet(S, B.getInt8(0), Size, MaybeAlign());
      Lanes.push_back(S);
    }
    return setShadow(&Call, Batch.pack(B, Call.getType(), Lanes));
  }
  case HeapFn::Realloc:
    if (hasShadow(&Call))
      emitShadowRealloc(Call);
    return;
  case HeapFn::Free:
  case HeapFn::UserFree: {
    Value *P = Call.getArgOperand(releasedArgument(Call));
    if (needsShadow(P))
      emitShadowFree(Call, shadowPointer(P, Call));
    return;
  }
  case HeapFn::PosixMemalign:
  case HeapFn::DeviceMalloc: {
    // The block goes to *slot; so does the shadow, to the slot's shadow,
    // zeroed (in device memory, by the runtime).
    Value *Slot = Call.getArgOperand(0);
    if (!needsShadow(Slot))
      return;
    bool Device = Fn == HeapFn::DeviceMalloc;
    Value *Size = Call.getArgOperand(Device ? 1 : 2);
    std::optional<RuntimeCall> Runtime =
        Device ? Ctx.calls().runtimeCall(*Call.getCalledFunction())
               : std::nullopt;
    PointerType *PtrTy = PointerType::get(Derivative.getContext(), 0);
    forEachLane(shadowPointer(Slot, Call), [&](Value *LaneSlot, unsigned) {
      cloneCall(Call, {{0, LaneSlot}});
      Instruction *Zero = B.CreateMemSet(B.CreateLoad(PtrTy, LaneSlot),
                                         B.getInt8(0), Size, MaybeAlign());
      if (Runtime)
        tagRuntime(*Zero, Runtime->Api);
    });
    return;
  }
  }
}

} // namespace gpuad
