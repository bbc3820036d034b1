//===- LaunchDerivatives.cpp - Derivative kernels for host launches -------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/LaunchDerivatives.h"

#include "Planner/DerivativeContext.h"
#include "Requests/RequestProcessing.h"
#include "Rules/KernelLaunch.h"
#include "Rules/Registrations.h"
#include "Support/DemangledTypes.h"
#include "Support/Diagnostics.h"
#include "Support/EntryPoints.h"
#include "Support/FrontendAnswers.h"
#include "Support/Options.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <functional>
#include <set>
#include <utility>

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumLaunchDerivatives, "Derivative kernels made for host launches");
STATISTIC(NumLaunchDerivativesLeftOut,
          "Kernels gpuad could not make a derivative kernel of");

namespace gpuad {

namespace {

/// Whether \p K itself asks for a derivative (a user's gradient kernel).
bool makesRequests(const Function &K) {
  for (const Instruction &I : instructions(K))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *F = Call->getCalledFunction();
          F && classifyEntryPoint(F->getName()))
        return true;
  return false;
}

/// The kernels host requests of this file may launch, as the frontend
/// plugin (frontend/LaunchedKernels.cpp, in this clang process) found them;
/// none where it did not run (plain clang without -fplugin, opt).
std::optional<StringSet<>> launchedByHostRequests() {
  std::optional<SmallVector<StringRef, 8>> Names =
      frontendAnswer("gpuad_launched_kernels");
  if (!Names)
    return std::nullopt;
  StringSet<> Set;
  for (StringRef L : *Names)
    Set.insert(L);
  return Set;
}

bool wanted(const Function &K, StringRef Choice,
            const std::optional<StringSet<>> &Launched) {
  if (Choice == "none")
    return false;
  if (Choice == "all")
    return !makesRequests(K);
  if (Choice == "auto")
    return !gpuLibraryFunction(K.getName()) && !makesRequests(K) &&
           (!Launched || Launched->contains(K.getName()));
  std::string Base = demangledBaseName(K.getName());
  SmallVector<StringRef, 8> Names;
  Choice.split(Names, ',', -1, /*KeepEmpty=*/false);
  return any_of(Names, [&](StringRef N) {
    N = N.trim();
    return N == K.getName() || N == Base;
  });
}

/// Whether \p GV is only ever loaded from (a table CUDA's math headers do
/// not declare constant).
bool onlyLoaded(const GlobalVariable &GV) {
  SmallVector<const Value *, 8> Work = {&GV};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users())
      if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
          isa<AddrSpaceCastOperator>(U))
        Work.push_back(U);
      else if (!isa<LoadInst>(U))
        return false;
  }
  return true;
}

/// The aggregate kernel parameter \p A holds in memory (CUDA's byval,
/// AMDGPU's byref), or null.
Type *aggregateInMemory(const Argument &A) {
  if (A.hasByValAttr())
    return A.getParamByValType();
  if (A.hasByRefAttr())
    return A.getParamByRefType();
  return nullptr;
}

/// Whether \p Ptr points into an aggregate parameter of \p Kernel (byval,
/// byref, or a local copy of one, as -O0 makes it).
bool inAggregateParameter(const Value *Ptr, const Function &Kernel) {
  auto IsParameter = [&](const Value *V) {
    const auto *A = dyn_cast<Argument>(V);
    return A && A->getParent() == &Kernel && aggregateInMemory(*A);
  };
  // A local variable only ever copied from parameters, and read.
  auto IsCopy = [&](const AllocaInst &Local) {
    SmallVector<const Value *, 8> Work = {&Local};
    bool Copied = false;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const User *U : V->users()) {
        if (isa<GetElementPtrInst>(U) || isa<AddrSpaceCastInst>(U))
          Work.push_back(U);
        else if (const auto *Copy = dyn_cast<MemCpyInst>(U);
                 Copy && Copy->getRawDest() == V &&
                 IsParameter(getUnderlyingObject(Copy->getRawSource())))
          Copied = true;
        else if (!isa<LoadInst>(U) && !U->isDroppable() &&
                 !isa<LifetimeIntrinsic>(U))
          return false; // (a store: it may hold other pointers)
      }
    }
    return Copied;
  };
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() && all_of(Objects, [&](const Value *O) {
    const auto *Local = dyn_cast<AllocaInst>(O);
    return IsParameter(O) || (Local && IsCopy(*Local));
  });
}

/// Why the host cannot keep what \p K's adjoint must see again, or "": the
/// host copies the allocations a launch's pointer arguments point into, so
/// every memory access of the kernel (and of the functions it calls) must be
/// through those arguments, or the thread's own, block-shared or constant
/// memory; and the kernel must not write through a parameter it declares
/// `const` (the host copies no such memory the kernel only reads).
/// The functions are read in their normalised clones (\p Normalized: at
/// -O0 too, pointers are values, not slots).
std::string whyNotKept(Function &K, const TargetHooks &Target,
                       function_ref<Function &(Function &)> Normalized) {
  std::optional<SmallVector<std::string, 8>> Declared =
      demangledParameterTypes(K.getName());
  Function &Kernel = Normalized(K);
  auto IsConstParam = [&](const Value *V) {
    const auto *A = dyn_cast<Argument>(V);
    if (!A || A->getParent() != &Kernel || !Declared ||
        A->getArgNo() >= Declared->size())
      return false;
    StringRef T = StringRef((*Declared)[A->getArgNo()]).trim();
    return T.consume_back("*") && T.trim().ends_with("const");
  };
  std::set<std::pair<const Value *, bool>> Visited;
  std::function<std::string(const Value *, bool)> Check;
  // The pointer at \p Path in aggregate (or pointer) \p Agg; \p What for
  // messages.
  std::function<std::string(const Value *, ArrayRef<unsigned>, bool,
                            const Value *)>
      CheckField = [&](const Value *Agg, ArrayRef<unsigned> Path, bool Writes,
                       const Value *What) -> std::string {
    std::string Untraced = "it reaches memory through a pointer gpuad cannot "
                           "trace to an argument ('" +
                           describe(*What) + "')";
    if (!Visited.insert({Agg, Writes}).second)
      return "";
    if (const auto *IV = dyn_cast<InsertValueInst>(Agg))
      return IV->getIndices() == Path
                 ? Check(IV->getInsertedValueOperand(), Writes)
                 : CheckField(IV->getAggregateOperand(), Path, Writes, What);
    if (const auto *PN = dyn_cast<PHINode>(Agg)) {
      for (const Value *In : PN->incoming_values())
        if (std::string Why = CheckField(In, Path, Writes, What); !Why.empty())
          return Why;
      return "";
    }
    if (const auto *Sel = dyn_cast<SelectInst>(Agg)) {
      for (const Value *In : {Sel->getTrueValue(), Sel->getFalseValue()})
        if (std::string Why = CheckField(In, Path, Writes, What); !Why.empty())
          return Why;
      return "";
    }
    if (isa<UndefValue>(Agg) || isa<ConstantAggregateZero>(Agg))
      return "";
    // A callee's return: the argument it returns, at the call.
    const auto *Call = dyn_cast<CallBase>(Agg);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->isDeclaration())
      return Untraced;
    Function &Body = Normalized(*const_cast<Function *>(Callee));
    for (Instruction &I : instructions(Body)) {
      auto *Ret = dyn_cast<ReturnInst>(&I);
      Value *V = Ret ? Ret->getReturnValue() : nullptr;
      while (auto *IV = dyn_cast_or_null<InsertValueInst>(V))
        V = IV->getIndices() == Path ? IV->getInsertedValueOperand()
                                     : IV->getAggregateOperand();
      if (!V || !V->getType()->isPointerTy())
        continue;
      SmallVector<const Value *, 4> Inner;
      getUnderlyingObjects(V, Inner);
      for (const Value *U : Inner) {
        if (isa<ConstantPointerNull>(U) || isa<UndefValue>(U))
          continue;
        const auto *A = dyn_cast<Argument>(U);
        if (!A)
          return Untraced;
        if (std::string Why = Check(Call->getArgOperand(A->getArgNo()), Writes);
            !Why.empty())
          return Why;
      }
    }
    return "";
  };
  Check = [&](const Value *Ptr, bool Writes) -> std::string {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    for (const Value *O : Objects) {
      // A pointer through an integer and back (HIP's kernel arguments at
      // -O0): what it was.
      if (const auto *I2P = dyn_cast<IntToPtrInst>(O)) {
        const Value *Int = I2P->getOperand(0);
        while (const auto *Add = dyn_cast<BinaryOperator>(Int)) {
          if (Add->getOpcode() != Instruction::Add)
            break;
          Int = isa<PtrToIntInst>(Add->getOperand(1)) ? Add->getOperand(1)
                                                      : Add->getOperand(0);
        }
        if (const auto *P2I = dyn_cast<PtrToIntInst>(Int)) {
          if (std::string Why = Check(P2I->getOperand(0), Writes); !Why.empty())
            return Why;
          continue;
        }
      }
      // A pointer taken out of a struct value: what was put there (a
      // callee's returned argument, through PHIs and selects).
      if (const auto *EV = dyn_cast<ExtractValueInst>(O)) {
        if (std::string Why = CheckField(EV->getAggregateOperand(),
                                         EV->getIndices(), Writes, O);
            !Why.empty())
          return Why;
        continue;
      }
      if (const auto *Call = dyn_cast<CallBase>(O);
          Call && O->getType()->isPointerTy() && !isa<IntrinsicInst>(Call)) {
        if (std::string Why = CheckField(Call, {}, Writes, O); !Why.empty())
          return Why;
        continue;
      }
      if (const auto *LI = dyn_cast<LoadInst>(O);
          LI && inAggregateParameter(LI->getPointerOperand(), Kernel))
        continue; // (a pointer field: the host copies what it points into)
      if (isa<Argument>(O) || isa<AllocaInst>(O) ||
          isa<ConstantPointerNull>(O) || isa<UndefValue>(O) ||
          isa<Function>(O) || (!Writes && isa<IntrinsicInst>(O)))
        ; // (a target intrinsic's pointer: the launch's own arguments)
      else if (const auto *GV = dyn_cast<GlobalVariable>(O)) {
        if (!GV->isConstant() && !Target.isBlockShared(*GV) && !onlyLoaded(*GV))
          return "it uses the device variable '" + GV->getName().str() +
                 "', whose contents a launch's derivative cannot keep";
      } else {
        return "it reaches memory through a pointer gpuad cannot trace to "
               "an argument ('" +
               describe(*O) + "')";
      }
      if (Writes && IsConstParam(O))
        return "it writes through its parameter declared const ('" +
               O->getName().str() + "')";
    }
    return "";
  };
  SmallPtrSet<Function *, 8> Seen;
  SmallVector<Function *, 8> Work = {&Kernel};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second || F->isDeclaration())
      continue;
    if (F != &Kernel)
      F = &Normalized(*F);
    for (Instruction &I : instructions(*F)) {
      std::string Why;
      if (auto *LI = dyn_cast<LoadInst>(&I))
        Why = Check(LI->getPointerOperand(), false);
      else if (auto *SI = dyn_cast<StoreInst>(&I))
        Why = Check(SI->getPointerOperand(), true);
      else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Why = Check(RMW->getPointerOperand(), true);
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        Why = Check(CX->getPointerOperand(), true);
      else if (auto *Call = dyn_cast<CallBase>(&I)) {
        for (const Use &A : Call->args())
          if (A->getType()->isPointerTy() && Why.empty())
            Why = Check(A.get(), !Call->onlyReadsMemory());
        if (Function *Callee = Call->getCalledFunction())
          Work.push_back(Callee);
      }
      if (!Why.empty())
        return Why;
    }
  }
  return "";
}

MetadataAsValue *marker(LLVMContext &C, StringRef Name) {
  return MetadataAsValue::get(C, MDString::get(C, Name));
}

/// Moves the users of \p Old (a pointer) to \p New, a pointer to the same
/// bytes in another address space, recreating what has the old pointer's
/// type; false where a user is not an address computation, a load or a
/// copy.
bool movePointerUses(Value *Old, Value *New) {
  for (User *U : make_early_inc_range(Old->users())) {
    auto *I = cast<Instruction>(U);
    IRBuilder<> B(I);
    if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
      SmallVector<Value *, 4> Indices(GEP->indices());
      auto *NewGEP = cast<GetElementPtrInst>(
          B.CreateGEP(GEP->getSourceElementType(), New, Indices));
      NewGEP->setNoWrapFlags(GEP->getNoWrapFlags());
      if (!movePointerUses(GEP, NewGEP))
        return false;
      GEP->eraseFromParent();
    } else if (isa<LoadInst>(I) || isa<PtrToIntInst>(I)) {
      I->setOperand(0, New);
    } else if (auto *Cast = dyn_cast<AddrSpaceCastInst>(I)) {
      Value *To = B.CreatePointerBitCastOrAddrSpaceCast(New, Cast->getType());
      Cast->replaceAllUsesWith(To);
      Cast->eraseFromParent();
    } else if (auto *Copy = dyn_cast<MemCpyInst>(I);
               Copy && Copy->getRawSource() == Old &&
               Copy->getRawDest() != Old) {
      B.CreateMemCpy(Copy->getRawDest(), Copy->getDestAlign(), New,
                     Copy->getSourceAlign(), Copy->getLength(),
                     Copy->isVolatile());
      Copy->eraseFromParent();
    } else {
      return false;
    }
  }
  return true;
}

/// \p K as a device function taking its aggregates by generic pointer (the
/// requests' shadows of them are the wrapper's private copies, which a byval
/// or kernel-argument parameter cannot point to), or null where a use of
/// one cannot move.
Function *withAggregatesByPointer(Function &K) {
  LLVMContext &C = K.getContext();
  Type *Generic = PointerType::get(C, 0);
  SmallVector<Type *, 8> Params;
  for (Argument &A : K.args())
    Params.push_back(aggregateInMemory(A) ? Generic : A.getType());
  auto *F =
      Function::Create(FunctionType::get(K.getReturnType(), Params, false),
                       GlobalValue::InternalLinkage,
                       K.getName() + ".gpuad.aggregates", K.getParent());
  ValueToValueMapTy VMap;
  SmallVector<std::pair<Argument *, Argument *>, 4> Moved;
  for (Argument &A : K.args()) {
    Argument *New = F->getArg(A.getArgNo());
    New->setName(A.getName());
    if (New->getType() == A.getType()) {
      VMap[&A] = New;
      continue;
    }
    // (Mapped to itself for the clone; its uses move afterwards.)
    VMap[&A] = &A;
    Moved.push_back({&A, New});
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(F, &K, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  F->setCallingConv(CallingConv::C);
  F->setLinkage(GlobalValue::InternalLinkage);
  F->setVisibility(GlobalValue::DefaultVisibility);
  for (Argument &A : F->args())
    if (aggregateInMemory(*K.getArg(A.getArgNo()))) {
      A.removeAttr(Attribute::ByVal);
      A.removeAttr(Attribute::ByRef);
    }
  for (auto [Old, New] : Moved) {
    // The clone's uses of the kernel's argument.
    SmallVector<Use *, 8> InClone;
    for (Use &U : Old->uses())
      if (cast<Instruction>(U.getUser())->getFunction() == F)
        InClone.push_back(&U);
    Value *Stand = nullptr;
    if (!InClone.empty()) {
      IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
      Stand = B.CreateAddrSpaceCast(New, Old->getType());
      for (Use *U : InClone)
        U->set(Stand);
    }
    if (Stand && !movePointerUses(Stand, New)) {
      F->eraseFromParent();
      return nullptr;
    }
    if (auto *I = dyn_cast_or_null<Instruction>(Stand))
      I->eraseFromParent();
  }
  return F;
}

/// The derivative kernel \p D of \p K, its body a request; null (and why
/// in \p Why) where a parameter is unsupported.  Returns the request call
/// in \p Request.
Function *makeDerivativeKernel(Module &M, Function &K, LaunchDerivative D,
                               TargetHooks &Target, CallInst *&Request,
                               std::string &Why) {
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *CellTy = PointerType::get(C, Target.globalAddressSpace());
  // Per parameter, its aggregate's shape (byval or byref).
  SmallVector<std::optional<AggregateShape>, 8> Shapes;
  SmallVector<Type *, 8> Types;
  // Per parameter, the kernel parameter whose passing (byval or byref, and
  // alignment) it copies: an aggregate's and its shadow's.
  SmallVector<unsigned, 8> AttrsFrom;
  for (Argument &A : K.args()) {
    Types.push_back(A.getType());
    AttrsFrom.push_back(aggregateInMemory(A) ? A.getArgNo() : ~0u);
    Shapes.emplace_back();
    if (Type *InMemory = aggregateInMemory(A)) {
      std::string Not;
      Shapes.back() = aggregateShape(InMemory, DL, Not);
      if (!Shapes.back()) {
        Why =
            ("its parameter " + Twine(A.getArgNo() + 1) +
             " is an aggregate passed by value that gpuad cannot read: " + Not)
                .str();
        return nullptr;
      }
    } else if (launchParamKind(A.getType()) == LaunchParam::Unsupported) {
      Why = ("its parameter " + Twine(A.getArgNo() + 1) +
             " is neither a pointer, an integer, a float nor an aggregate "
             "in memory")
                .str();
      return nullptr;
    }
  }
  for (Argument &A : K.args()) {
    if (Shapes[A.getArgNo()]) {
      Types.push_back(A.getType()); // the shadow, as the kernel takes it
      AttrsFrom.push_back(A.getArgNo());
      if (D == LaunchDerivative::Adjoint && Shapes[A.getArgNo()]->hasFloats()) {
        Types.push_back(CellTy);
        AttrsFrom.push_back(~0u);
      }
      continue;
    }
    switch (launchParamKind(A.getType())) {
    case LaunchParam::Pointer:
      Types.push_back(A.getType());
      AttrsFrom.push_back(~0u);
      break;
    case LaunchParam::Float:
      Types.push_back(D == LaunchDerivative::Tangent ? A.getType() : CellTy);
      AttrsFrom.push_back(~0u);
      break;
    default:
      break;
    }
  }
  auto *W = Function::Create(
      FunctionType::get(Type::getVoidTy(C), Types, false),
      GlobalValue::ExternalLinkage, launchDerivativeName(K.getName(), D), M);
  W->setCallingConv(K.getCallingConv());
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned From : AttrsFrom) {
    // (Only how it is passed: what the kernel's body allows, readonly or
    // writeonly, need not hold of its derivative's.)
    AttrBuilder Passing(C);
    if (From != ~0u) {
      const Argument &A = *K.getArg(From);
      if (A.hasByValAttr())
        Passing.addByValAttr(A.getParamByValType());
      else
        Passing.addByRefAttr(A.getParamByRefType());
      if (MaybeAlign Al = A.getParamAlign())
        Passing.addAlignmentAttr(*Al);
    }
    ParamAttrs.push_back(AttributeSet::get(C, Passing));
  }
  W->setAttributes(AttributeList::get(C, K.getAttributes().getFnAttrs(),
                                      AttributeSet(), ParamAttrs));
  W->removeFnAttr(Attribute::OptimizeNone);
  W->removeFnAttr(Attribute::NoInline);
  W->setVisibility(K.getVisibility());
  W->setDSOLocal(K.isDSOLocal());

  bool Aggregates = any_of(Shapes, [](auto &S) { return S.has_value(); });
  Function *Callee = Aggregates ? withAggregatesByPointer(K) : &K;
  if (!Callee) {
    W->eraseFromParent();
    Why = "it uses an aggregate parameter other than by loading from it or "
          "copying it";
    return nullptr;
  }
  IRBuilder<> B(BasicBlock::Create(C, "entry", W));
  // A private copy of an aggregate parameter, by generic pointer.
  auto PrivateCopy = [&](Argument *From, const AggregateShape &S) {
    Value *Copy = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), S.Size),
                                 DL.getAllocaAddrSpace());
    cast<AllocaInst>(Copy)->setAlignment(Align(S.Align));
    B.CreateMemCpy(Copy, Align(S.Align), From, Align(S.Align), S.Size);
    return B.CreateAddrSpaceCast(Copy, PointerType::get(C, 0));
  };
  SmallVector<Value *, 16> Args = {Callee};
  SmallVector<Type *, 4> Outs;
  SmallVector<Value *, 4> Cells;
  // Per aggregate holding floats (reverse): its shadow copy and cells.
  SmallVector<std::tuple<Value *, Value *, const AggregateShape *>, 2>
      AggregateCells;
  unsigned Next = K.arg_size();
  for (Argument &A : K.args()) {
    Value *P = W->getArg(A.getArgNo());
    if (const std::optional<AggregateShape> &S = Shapes[A.getArgNo()]) {
      Value *Shadow = PrivateCopy(W->getArg(Next++), *S);
      Args.append({marker(C, "enzyme_dup"),
                   PrivateCopy(W->getArg(A.getArgNo()), *S), Shadow});
      if (D == LaunchDerivative::Adjoint && S->hasFloats())
        AggregateCells.push_back({Shadow, W->getArg(Next++), &*S});
      continue;
    }
    switch (launchParamKind(A.getType())) {
    case LaunchParam::Pointer:
      Args.append({marker(C, "enzyme_dup"), P, W->getArg(Next++)});
      break;
    case LaunchParam::Float:
      if (D == LaunchDerivative::Tangent) {
        Args.append({marker(C, "enzyme_dup"), P, W->getArg(Next++)});
      } else {
        Args.append({marker(C, "enzyme_out"), P});
        Outs.push_back(A.getType());
        Cells.push_back(W->getArg(Next++));
      }
      break;
    case LaunchParam::Const:
    case LaunchParam::Unsupported:
      Args.append({marker(C, "enzyme_const"), P});
      break;
    }
  }
  Type *Ret = Outs.empty()       ? Type::getVoidTy(C)
              : Outs.size() == 1 ? Outs[0]
                                 : StructType::get(C, Outs);
  FunctionCallee Entry = M.getOrInsertFunction(
      D == LaunchDerivative::Tangent
          ? "__enzyme_fwddiff.gpuad.launch"
          : "__enzyme_autodiff.gpuad.launch." + std::to_string(Outs.size()),
      FunctionType::get(Ret, {}, /*isVarArg=*/true));
  if (auto *F = dyn_cast<Function>(Entry.getCallee());
      F && F->getReturnType() != Ret)
    Entry = Function::Create(FunctionType::get(Ret, {}, true),
                             GlobalValue::ExternalLinkage,
                             "__enzyme_autodiff.gpuad.launch", M);
  Request = B.CreateCall(Entry, Args);
  for (auto [I, Cell] : enumerate(Cells)) {
    Value *Adjoint =
        Outs.size() == 1 ? Request : B.CreateExtractValue(Request, I);
    Target.emitAccumulate(B, Cell, Adjoint, MaybeAlign(),
                          /*ThreadPrivate=*/false);
  }
  // An aggregate's float adjoints, from the shadow copy to its cells.
  for (auto [Shadow, Cell, S] : AggregateCells)
    for (auto [Offset, Ty] : S->Leaves)
      if (launchParamKind(Ty) == LaunchParam::Float)
        Target.emitAccumulate(
            B, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Cell, Offset),
            B.CreateLoad(Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Shadow,
                                                          Offset)),
            MaybeAlign(), /*ThreadPrivate=*/false);
  B.CreateRetVoid();
  return W;
}

void remarkLeftOut(Function &K, LaunchDerivative D, StringRef Why) {
  OptimizationRemarkEmitter ORE(&K);
  ORE.emit([&] {
    OptimizationRemarkMissed R(DEBUG_TYPE, "NoLaunchDerivative", &K);
    R << "no " << (D == LaunchDerivative::Tangent ? "tangent" : "adjoint")
      << " kernel of '" << ore::NV("Kernel", demangle(K.getName()))
      << "' for launches from differentiated host code: "
      << ore::NV("Why", Why);
    return R;
  });
}

} // namespace

SmallVector<Function *, 8>
launchDerivativeKernels(Module &M, const GpuadOptions &Options) {
  Diagnostics Quiet;
  Quiet.holdBack();
  std::unique_ptr<TargetHooks> Target = makeTargetHooks(M, Options, Quiet);
  SmallVector<Function *, 8> Kernels;
  if (!Target->isGPU() || Options.LaunchDerivatives == "none")
    return Kernels;
  std::optional<StringSet<>> Launched = launchedByHostRequests();
  for (Function &F : M)
    if (!F.isDeclaration() && Target->isKernel(F) &&
        (!F.getName().starts_with("__gpuad_") ||
         F.getName().starts_with("__gpuad_map_")) &&
        wanted(F, Options.LaunchDerivatives, Launched))
      Kernels.push_back(&F);
  return Kernels;
}

bool mayMakeLaunchDerivatives(Module &M, const GpuadOptions &Options) {
  return !launchDerivativeKernels(M, Options).empty();
}

bool makeLaunchDerivatives(ArrayRef<Function *> Kernels,
                           const GpuadOptions &Options,
                           const Registrations &Regs) {
  if (Kernels.empty())
    return false;
  Module &M = *Kernels.front()->getParent();
  Diagnostics Quiet;
  Quiet.holdBack();
  std::unique_ptr<TargetHooks> Target = makeTargetHooks(M, Options, Quiet);
  bool Inline = false;
  for (Function *K : Kernels) {
    {
      DerivativeContext Ctx(M, Options, &Regs);
      std::string Why = whyNotKept(*K, *Target, [&](Function &F) -> Function & {
        return Ctx.preprocessor().normalized(F);
      });
      Ctx.finish();
      if (!Why.empty()) {
        NumLaunchDerivativesLeftOut += 2;
        remarkLeftOut(*K, LaunchDerivative::Tangent, Why);
        remarkLeftOut(*K, LaunchDerivative::Adjoint, Why);
        continue;
      }
    }
    for (LaunchDerivative D :
         {LaunchDerivative::Tangent, LaunchDerivative::Adjoint}) {
      CallInst *Request = nullptr;
      std::string Why;
      Function *W = makeDerivativeKernel(M, *K, D, *Target, Request, Why);
      if (!W) {
        ++NumLaunchDerivativesLeftOut;
        remarkLeftOut(*K, D, Why);
        continue;
      }
      DerivativeContext Ctx(M, Options, &Regs);
      Ctx.diags().holdBack();
      Ctx.setRequestedFunctions({K});
      processEntryCall(*Request, Ctx);
      Inline |= Ctx.finish();
      if (Ctx.diags().numErrors()) {
        Ctx.discardDerivatives();
        ++NumLaunchDerivativesLeftOut;
        LLVM_DEBUG(dbgs() << "gpuad: no launch derivative of " << K->getName()
                          << ": " << Ctx.diags().firstHeldError() << "\n");
        remarkLeftOut(*K, D, Ctx.diags().firstHeldError());
        W->eraseFromParent();
        continue;
      }
      ++NumLaunchDerivatives;
    }
  }
  // The requests' declarations are gone with their calls, and the kernels'
  // clones that take aggregates by pointer with them.
  for (Function &F : make_early_inc_range(M))
    if (F.use_empty() && F.getName().ends_with(".gpuad.aggregates"))
      F.eraseFromParent();
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        F.getName().contains(".gpuad.launch"))
      F.eraseFromParent();
  return Inline;
}

} // namespace gpuad
