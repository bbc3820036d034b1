//===- DerivativeContext.cpp - Module-wide state of one gpuad run ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Planner/DerivativeContext.h"

#include "Normalize/KernelLaunches.h"
#include "Normalize/ParallelRegions.h"
#include "Normalize/RuntimeMemory.h"

#include "Forward/ForwardEmitter.h"
#include "Planner/CheckpointedDerivatives.h"
#include "Planner/CustomDerivatives.h"
#include "Planner/RuntimeDisjointness.h"
#include "Reverse/ReverseEmitter.h"
#include "Reverse/SplitForm.h"
#include "Support/DebugScopes.h"
#include "Support/EntryPoints.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumDerivatives, "Number of derivative functions generated");
STATISTIC(NumReused, "Number of derivative requests served by one made before");
STATISTIC(NumStubbed, "Number of derivatives left as stubs after an error");
STATISTIC(NumSplit, "Number of functions differentiated in split form");

namespace gpuad {

DerivativeContext::DerivativeContext(Module &M, GpuadOptions Opts,
                                     const Registrations *Shared)
    : M(M), Options(std::move(Opts)),
      Target(makeTargetHooks(M, Options, Diags)),
      Regs(Shared ? *Shared : Registrations::read(M, &Diags)),
      Calls(M, Target.get()), Pre(Calls), Indirect(M, *Target, Calls, Diags),
      Summaries(Calls), Writes(Calls) {
  Regs.addToCallTable(Calls);
  Pre.setHoistInvariantCalls(Options.HoistInvariantCalls);
  Pre.checkpoints().enable(Options.TapeBudgetMiB,
                           /*PerThread=*/Target->isGPU());
  Pre.setTargetNormalizer([this](Function &F) { return Target->normalize(F); });
  Pre.setIndirectCallRewriter([this](Function &Clone, const Function &F) {
    return Indirect.rewrite(Clone, F);
  });
}

DerivativeContext::~DerivativeContext() = default;

/// Replaces the body of a derivative whose emission failed by `ret poison`,
/// so the module stays valid while the reported errors stop the build.
static void stubOut(Function &D) {
  ++NumStubbed;
  LLVM_DEBUG(dbgs() << "gpuad: " << D.getName() << " stubbed after errors\n");
  D.deleteBody();
  BasicBlock *Entry = BasicBlock::Create(D.getContext(), "entry", &D);
  IRBuilder<> B(Entry);
  if (D.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(PoisonValue::get(D.getReturnType()));
}

/// The keys of the versions a key checked at run time dispatches to: the
/// restrict one (every pointer apart) and the one as proven.
static std::pair<DerivativeKey, DerivativeKey>
checkedVersions(const DerivativeKey &Key) {
  DerivativeKey Restrict = Key, AsProven = Key;
  Restrict.Alias = AliasVersion::Restrict;
  Restrict.Disjoint.clear();
  AsProven.Alias = AliasVersion::AsProven;
  return {Restrict, AsProven};
}

SmallVector<Function *, 3>
DerivativeContext::implementations(const DerivativeKey &Key) {
  SmallVector<Function *, 3> Fns;
  if (Function *D = getOrCreate(Key))
    Fns.push_back(D);
  if (Key.Alias == AliasVersion::Checked) {
    auto [Restrict, AsProven] = checkedVersions(Key);
    Fns.push_back(getOrCreate(Restrict));
    Fns.push_back(getOrCreate(AsProven));
  }
  return Fns;
}

Function *DerivativeContext::getOrCreate(const DerivativeKey &Key) {
  auto It = Generated.find(Key);
  if (It != Generated.end()) {
    ++NumReused;
    return It->second;
  }
  if (Key.Mode != DiffMode::Forward && Key.Mode != DiffMode::ReverseCombined)
    return nullptr;
  if (const CustomRule *R = Regs.ruleFor(*Key.Fn))
    return getCustom(Key, *R);
  if (const CheckpointedLoop *CL = Pre.checkpoints().lookup(*Key.Fn);
      CL && canCheckpoint(*CL, Key))
    return getCombinedFromSplit(Key);
  if (Key.Alias == AliasVersion::Checked) {
    auto [Restrict, AsProven] = checkedVersions(Key);
    Function *D = declare(Key, DerivativeSignature::reverse(Key));
    emitDisjointnessDispatcher(*this, Key, *D, *getOrCreate(Restrict),
                               *getOrCreate(AsProven));
    return D;
  }

  Function *D = declare(Key, Key.Mode == DiffMode::Forward
                                 ? DerivativeSignature::forward(Key)
                                 : DerivativeSignature::reverse(Key));
  bool Ok = Key.Mode == DiffMode::Forward
                ? ForwardEmitter(*this, Key, *D, Signatures[D]).run()
                : ReverseEmitter(*this, Key, *D, Signatures[D], /*Split=*/false)
                      .run();
  if (!Ok)
    stubOut(*D);
  return D;
}

SmallVector<bool, 8>
DerivativeContext::restrictParameters(const DerivativeKey &Key) const {
  SmallVector<bool, 8> R;
  for (unsigned I = 0; I < Key.Args.size(); ++I) {
    const Argument *A = Key.Fn->getArg(I);
    bool Pointer = A->getType()->isPointerTy();
    R.push_back(A->hasNoAliasAttr() ||
                (I < Key.Disjoint.size() && Key.Disjoint[I]) ||
                (Pointer && (Options.AssumeNoAliasArgs ||
                             Key.Alias == AliasVersion::Restrict)));
  }
  return R;
}

Function *DerivativeContext::declare(const DerivativeKey &Key,
                                     const DerivativeSignature &Sig) {
  Function *D = Function::Create(Sig.Type, GlobalValue::InternalLinkage,
                                 Key.Fn->getAddressSpace(),
                                 Key.Fn->getName() + "." + Key.suffix(), &M);
  LLVM_DEBUG(dbgs() << "gpuad: making " << D->getName() << " ("
                    << modeName(Key.Mode) << ", width " << Key.Width << ")\n");
  Generated[Key] = D;
  Signatures[D] = Sig;
  ++NumDerivatives;
  return D;
}

void DerivativeContext::noteArgumentTypes(
    const CallBase &Call, function_ref<TypeTree(const Value *)> Tree) {
  const Function *Callee = Call.getCalledFunction();
  SmallVector<TypeTree, 8> &Known = ArgTypes[Callee];
  Known.resize(Call.arg_size());
  for (unsigned I = 0; I < Call.arg_size(); ++I)
    if (Call.getArgOperand(I)->getType()->isPointerTy())
      Known[I].join(Tree(Call.getArgOperand(I)));
}

ArrayRef<TypeTree>
DerivativeContext::argumentTypes(const Function &Callee) const {
  auto It = ArgTypes.find(&Callee);
  return It == ArgTypes.end() ? ArrayRef<TypeTree>() : It->second;
}

bool DerivativeContext::isRecursive(const Function &F) {
  auto It = Recursive.find(&F);
  if (It != Recursive.end())
    return It->second;
  // A dispatcher recurses where one of its callees does (through it).
  if (Indirect.isDispatcher(F)) {
    Recursive[&F] = false;
    bool Found = false;
    for (const Instruction &I : instructions(F))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && !Callee->doesNotReturn())
          Found |= isRecursive(*Callee);
    return Recursive[&F] = Found;
  }
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work = {&F};
  bool Found = false;
  auto Visit = [&](const Function *Callee) {
    if (Callee->isDeclaration())
      return;
    if (Callee == &F)
      Found = true;
    else if (Seen.insert(Callee).second)
      Work.push_back(Callee);
  };
  while (!Work.empty() && !Found) {
    const Function *G = Work.pop_back_val();
    for (const Instruction &I : instructions(G))
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (const Function *Callee = Call->getCalledFunction())
          Visit(Callee);
        // A call through a pointer reaches what its dispatcher would.
        for (const Function *Callee : Indirect.possibleCallees(*Call))
          Visit(Callee);
      }
  }
  return Recursive[&F] = Found;
}

SplitHalves DerivativeContext::getSplit(DerivativeKey Key) {
  Key.Mode = DiffMode::ReverseAugmented;
  DerivativeKey BwdKey = Key;
  BwdKey.Mode = DiffMode::ReverseBackward;
  if (auto It = Generated.find(Key); It != Generated.end()) {
    auto Bwd = Generated.find(BwdKey);
    assert(Bwd != Generated.end() &&
           "augmented half made without its backward half");
    ++NumReused;
    return {It->second, Bwd->second};
  }
  if (const CustomRule *R = Regs.ruleFor(*Key.Fn))
    return getCustomSplit(Key, BwdKey, *R);
  if (const CheckpointedLoop *CL = Pre.checkpoints().lookup(*Key.Fn);
      CL && canCheckpoint(*CL, Key)) {
    Type *Record = checkpointRecordType(*CL);
    SplitHalves H;
    H.Augmented = declare(Key, DerivativeSignature::augmented(Key, Record));
    H.Backward = declare(BwdKey, DerivativeSignature::backward(Key, Record));
    emitCheckpointedAugmented(*CL, Key, *H.Augmented, Signatures[H.Augmented]);
    emitCheckpointedBackward(*this, *CL, Key, *H.Backward,
                             Signatures[H.Backward]);
    return H;
  }

  // A recursive function's halves are called while they are being emitted,
  // so they are declared first, with the tape boxed on the heap (its type is
  // not known yet, and would contain itself).
  bool Boxed = isRecursive(*Key.Fn);
  SplitHalves H;
  auto DeclareHalves = [&](Type *TapeTy) {
    H.Augmented = declare(Key, DerivativeSignature::augmented(Key, TapeTy));
    H.Backward = declare(BwdKey, DerivativeSignature::backward(Key, TapeTy));
  };
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  if (Boxed)
    DeclareHalves(Ptr);

  // Both halves are cut from one combined function.
  ++NumSplit;
  LLVM_DEBUG(dbgs() << "gpuad: split form of " << Key.Fn->getName()
                    << (Boxed ? ", tape boxed (recursion)" : "") << "\n");
  DerivativeSignature CombinedSig = DerivativeSignature::backward(Key, nullptr);
  Function *Combined = Function::Create(
      CombinedSig.Type, GlobalValue::InternalLinkage, Key.Fn->getAddressSpace(),
      Key.Fn->getName() + ".split", &M);
  ReverseEmitter E(*this, Key, *Combined, CombinedSig, /*Split=*/true);
  bool Ok = E.run();
  std::optional<SplitForm> Cut;
  // A callee that never returns is inactive where its calls say so
  // (noreturn); one that does not say so has no forward end to cut at.
  if (Ok && !E.forwardEnd()) {
    Diags.error(*Key.Fn, DebugLoc(),
                "cannot differentiate '" + Key.Fn->getName() +
                    "' in split form: it never returns");
    Ok = false;
  }
  if (Ok) {
    Cut.emplace(*Combined, *E.forwardEnd(), E.returnValue(), E.returnShadow(),
                /*EscapedOnHeap=*/!Target->isGPU());
    if (const AllocaInst *AI = Cut->dynamicStack()) {
      Diags.error(*Key.Fn, AI->getDebugLoc(),
                  "cannot differentiate '" + Key.Fn->getName() +
                      "' in split form: its reverse sweep needs a "
                      "variable-size stack allocation");
      Ok = false;
    } else if (const Instruction *I = Cut->lostStackPointer()) {
      Diags.error(*Key.Fn, I->getDebugLoc(),
                  "cannot differentiate '" + Key.Fn->getName() +
                      "' in split form: its reverse sweep needs pointers "
                      "into its stack kept per loop iteration (or in a value "
                      "it cannot build again), which would point into the "
                      "finished forward half's frame");
      Ok = false;
    }
  }
  if (!Boxed)
    DeclareHalves(Ok ? static_cast<Type *>(Cut->tapeType())
                     : StructType::get(M.getContext()));
  if (Ok) {
    Cut->emitAugmented(*H.Augmented, Signatures[H.Augmented], Boxed, *Target);
    Cut->emitBackward(*H.Backward, Signatures[H.Backward], Boxed, *Target);
    noteSharedShadows(H.Backward, sharedShadowsOf(Combined));
    SharedUses.erase(Combined);
    // Invalid IR would be undefined behaviour past a compiler that does not
    // verify (clang's default): an error instead.
    for (Function *Half : {H.Augmented, H.Backward}) {
      keepDebugLocationsInFunction(*Half);
      std::string Broken;
      raw_string_ostream OS(Broken);
      if (!verifyFunction(*Half, &OS))
        continue;
      Diags.error(*Key.Fn, DebugLoc(),
                  "internal error: the split form of '" + Key.Fn->getName() +
                      "' is invalid IR: " + Broken);
      stubOut(*H.Augmented);
      stubOut(*H.Backward);
      break;
    }
  } else {
    stubOut(*H.Augmented);
    stubOut(*H.Backward);
  }
  Combined->eraseFromParent();
  // (A dispatcher's first argument is the function pointer.)
  if (callsShadowPairs(*Key.Fn, Key.Width) && !Key.Args.empty() &&
      Key.Args[0] != ArgActivity::Const)
    return withShadowPairs(Key, H);
  return H;
}

Function *DerivativeContext::getCustom(const DerivativeKey &Key,
                                       const CustomRule &R) {
  if (Key.Mode == DiffMode::Forward) {
    Function *D = declare(Key, DerivativeSignature::forward(Key));
    if (!checkCustomRule(R, Key, Diags) ||
        !emitCustomForward(R, Key, *D, Signatures[D], Diags))
      stubOut(*D);
    return D;
  }
  return getCombinedFromSplit(Key);
}

Function *DerivativeContext::getCombinedFromSplit(const DerivativeKey &Key) {
  // The augmented call, then the reverse one.
  SplitHalves H = getSplit(Key);
  Function *D = declare(Key, DerivativeSignature::reverse(Key));
  emitCombinedFromHalves(*D, Signatures[D], Key, *H.Augmented,
                         Signatures[H.Augmented], *H.Backward,
                         Signatures[H.Backward]);
  return D;
}

SplitHalves DerivativeContext::getCustomSplit(const DerivativeKey &AugKey,
                                              const DerivativeKey &BwdKey,
                                              const CustomRule &R) {
  Type *TapeTy = customTapeType(R, *AugKey.Fn);
  SplitHalves H;
  H.Augmented = declare(AugKey, DerivativeSignature::augmented(AugKey, TapeTy));
  H.Backward = declare(BwdKey, DerivativeSignature::backward(AugKey, TapeTy));
  bool Ok =
      checkCustomRule(R, AugKey, Diags) &&
      emitCustomAugmented(R, AugKey, *H.Augmented, Signatures[H.Augmented],
                          Diags) &&
      emitCustomBackward(R, AugKey, *H.Backward, Signatures[H.Backward], Diags);
  if (!Ok) {
    stubOut(*H.Augmented);
    stubOut(*H.Backward);
  }
  return H;
}

const DerivativeSignature &
DerivativeContext::signatureOf(const Function &Derivative) const {
  auto It = Signatures.find(&Derivative);
  assert(It != Signatures.end() && "not a generated derivative");
  return It->second;
}

void DerivativeContext::discardDerivatives() {
  SmallVector<Function *, 16> All;
  for (auto &[Key, D] : Generated)
    if (D)
      All.push_back(D);
  for (Function *D : All)
    D->deleteBody();
  for (Function *D : All) {
    // Calls left in the user's code go too: the build has failed, and a
    // derivative's signature (an empty tape type) may not lower.
    // (An invoke of one becomes a branch: its block keeps a terminator.)
    for (User *U : make_early_inc_range(D->users()))
      if (auto *Call = dyn_cast<CallBase>(U);
          Call && Call->getCalledFunction() == D)
        eraseRequestCall(*Call);
    if (D->use_empty())
      D->eraseFromParent();
    else
      stubOut(*D);
  }
  Generated.clear();
}

GlobalVariable *DerivativeContext::sharedShadowOf(GlobalVariable &GV,
                                                  unsigned Lane) {
  GlobalVariable *&Shadow = SharedShadows[{&GV, Lane}];
  const DataLayout &DL = M.getDataLayout();
  bool Dynamic =
      GV.isDeclaration() || DL.getTypeAllocSize(GV.getValueType()) == 0;
  if (!Shadow && Dynamic) {
    Shadow =
        new GlobalVariable(M, GV.getValueType(), /*isConstant=*/false,
                           GlobalValue::ExternalLinkage, nullptr,
                           GV.getName() + ".gpuad.dynamic.shadow", nullptr,
                           GlobalValue::NotThreadLocal, GV.getAddressSpace());
    DynamicShadows[Shadow] = &GV;
  }
  if (!Shadow) {
    std::string Name = (GV.getName() + ".gpuad.shadow").str();
    if (Lane)
      Name += "." + std::to_string(Lane);
    // Shared memory has no initializer; the reverse sweep zeroes it.
    Shadow = new GlobalVariable(
        M, GV.getValueType(), /*isConstant=*/false,
        GlobalValue::InternalLinkage, UndefValue::get(GV.getValueType()), Name,
        nullptr, GlobalValue::NotThreadLocal, GV.getAddressSpace());
    Shadow->setAlignment(GV.getAlign());
  }
  return Shadow;
}

void DerivativeContext::lowerDynamicSharedShadows() {
  for (auto [Shadow, Array] : DynamicShadows) {
    auto *Placeholder = const_cast<GlobalVariable *>(Shadow);
    convertUsersOfConstantsToInstructions({Placeholder});
    for (Use &U : make_early_inc_range(Placeholder->uses())) {
      auto *User = cast<Instruction>(U.getUser());
      IRBuilder<> B(User);
      if (auto *PN = dyn_cast<PHINode>(User))
        B.SetInsertPoint(PN->getIncomingBlock(U)->getTerminator());
      Value *Half = B.CreateLShr(
          B.CreateZExt(Target->emitDynamicSharedBytes(B), B.getInt64Ty()), 1);
      U.set(B.CreateGEP(B.getInt8Ty(), Array, Half, "dyn.shadow"));
    }
    Placeholder->eraseFromParent();
  }
  DynamicShadows.clear();
}

/// Whether \p F calls itself directly (the always-inliner cannot inline it).
static bool isDirectlyRecursive(const Function &F) {
  for (const User *U : F.users())
    if (const auto *I = dyn_cast<Instruction>(U); I && I->getFunction() == &F)
      return true;
  return false;
}

bool DerivativeContext::finish() {
  // Runtime copies first: no optimisation may see them as host memcpys.
  for (auto &[Key, D] : Generated)
    if (!D->isDeclaration()) {
      lowerRuntimeMemory(*D);
      lowerKernelLaunches(*D);
      lowerParallelRegions(*D);
    }
  Pre.checkpoints().lowerRuntimeForms();
  if (Options.Cleanup)
    for (auto &[Key, D] : Generated)
      if (!D->isDeclaration())
        Pre.cleanup(*D);
  // The emulator supplies device library functions itself.
  if (!Options.Emulation)
    Target->finalize();
  Pre.eraseClones();
  Indirect.restore();
  lowerDynamicSharedShadows();
  bool Inline = MadeInlineHelpers;
  if (Target->isGPU())
    for (auto &[Key, D] : Generated)
      if (!D->isDeclaration() && !isDirectlyRecursive(*D) &&
          !D->hasFnAttribute(Attribute::NoInline)) {
        D->addFnAttr(Attribute::AlwaysInline);
        Inline = true;
      }
  return Inline;
}

} // namespace gpuad
