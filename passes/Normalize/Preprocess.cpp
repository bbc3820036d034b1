//===- Preprocess.cpp - Normalised copies of functions to differentiate ---===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/Preprocess.h"

#include "Normalize/AlgorithmLaunches.h"
#include "Normalize/DeadOnReturnStores.h"
#include "Normalize/KernelLaunches.h"
#include "Normalize/RuntimeMemory.h"

#include "Normalize/InvariantCalls.h"
#include "Normalize/IterationCounters.h"
#include "Normalize/LastPick.h"
#include "Normalize/ParallelRegions.h"

#include "Rules/CallTable.h"
#include "Rules/ComplexCalls.h"
#include "Support/Inlining.h"

#include "Support/ReturnedArguments.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/DeadStoreElimination.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"

using namespace llvm;

namespace gpuad {

Preprocessor::Preprocessor(CallTable &Calls)
    : Calls(Calls), Checkpoints(Calls), Algorithms(algorithmCalls()) {
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

Preprocessor::~Preprocessor() = default;

void Preprocessor::run(FunctionPassManager &FPM, Function &F) {
  FPM.run(F, FAM);
  FAM.clear(F, F.getName());
}

/// A function that only wraps one atomic read-modify-write (the headers'
/// atomicAdd at -O0): one block, no calls but intrinsics.
static bool isAtomicWrapper(const Function &F) {
  if (F.isDeclaration() || F.size() != 1 || F.getEntryBlock().size() > 32)
    return false;
  unsigned Atomics = 0;
  for (const Instruction &I : F.getEntryBlock()) {
    if (const auto *Call = dyn_cast<CallBase>(&I);
        Call && !isa<IntrinsicInst>(Call))
      return false;
    Atomics += isa<AtomicRMWInst>(I);
  }
  return Atomics == 1;
}

/// Calls that take complex operands by reference (thrust's cexp(const
/// complex<double> &)) become calls of a by-value wrapper of the callee,
/// which has the callee's rule: the operands' parts are loads the rows can
/// read, and the loads' adjoints reach the referenced memory.
static bool passComplexByValue(Function &F, CallTable &Calls) {
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallInst>(&I);
      const DerivativeRule *R = Call ? Calls.scalarRule(*Call) : nullptr;
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!R || !Callee || R->Kind != RuleKind::Complex)
        continue;
      Function *Wrapper = complexByValueWrapper(*Callee, *R, Calls);
      if (!Wrapper)
        continue;
      IRBuilder<> B(Call);
      SmallVector<Value *, 4> Parts;
      Type *T = Wrapper->getFunctionType()->getParamType(0);
      uint64_t Size = F.getDataLayout().getTypeAllocSize(T);
      for (Value *Ptr : Call->args()) {
        Parts.push_back(B.CreateLoad(T, Ptr));
        Parts.push_back(B.CreateLoad(
            T, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Size)));
      }
      CallInst *New = B.CreateCall(Wrapper, Parts);
      New->setDebugLoc(Call->getDebugLoc());
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

/// Calls of a memcpy, memmove or memset the headers define become the
/// intrinsics, whose derivatives move adjoints a float at a time (a byte
/// loop's cannot be).
static bool useMemoryIntrinsics(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallInst>(&I);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      StringRef Kind = Callee ? CallTable::headerMemoryFunction(*Callee) : "";
      if (Kind.empty())
        continue;
      IRBuilder<> B(Call);
      Value *Dst = Call->getArgOperand(0), *Arg = Call->getArgOperand(1);
      Value *Size = Call->getArgOperand(2);
      CallInst *New =
          Kind == "memset"
              ? B.CreateMemSet(Dst, B.CreateTrunc(Arg, B.getInt8Ty()), Size,
                               MaybeAlign(1))
          : Kind == "memcpy"
              ? B.CreateMemCpy(Dst, MaybeAlign(1), Arg, MaybeAlign(1), Size)
              : B.CreateMemMove(Dst, MaybeAlign(1), Arg, MaybeAlign(1), Size);
      New->setDebugLoc(Call->getDebugLoc());
      if (!Call->getType()->isVoidTy())
        Call->replaceAllUsesWith(Dst);
      Call->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

/// The sign-bit idioms on a float's bits, `b ^ SIGN`, `b & ~SIGN` and
/// `b | SIGN` where b is `bitcast <float> to iN` (C's memcpy into a uint64_t
/// at -O0, after SROA), become fneg, fabs and -fabs of the float: the same
/// bits (LLVM defines all three as sign-bit operations), and operations the
/// rule table differentiates.  At -O1 InstCombine does the same before gpuad
/// runs.
static bool signBitOpsAsFloatOps(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *BO = dyn_cast<BinaryOperator>(&I);
      auto *Bits = BO ? dyn_cast<BitCastInst>(BO->getOperand(0)) : nullptr;
      auto *Mask = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
      if (!Bits || !Mask || !Bits->getSrcTy()->isFloatingPointTy() ||
          !BO->getType()->isIntegerTy())
        continue;
      const APInt &M = Mask->getValue();
      bool IsSign = M.isSignMask(), IsRest = M.isMaxSignedValue();
      Instruction::BinaryOps Op = BO->getOpcode();
      if (!((Op == Instruction::Xor && IsSign) ||
            (Op == Instruction::And && IsRest) ||
            (Op == Instruction::Or && IsSign)))
        continue;
      IRBuilder<> B(BO);
      Value *X = Bits->getOperand(0), *R;
      if (Op == Instruction::Xor)
        R = B.CreateFNeg(X);
      else if (Op == Instruction::And)
        R = B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
      else
        R = B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::fabs, X));
      BO->replaceAllUsesWith(B.CreateBitCast(R, BO->getType()));
      BO->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

/// Rewrites a scalar maxnum / minnum (`fmax`, `fmin`) as a select on a
/// comparison, with the same result (NaN operands included; the first
/// operand on ties, as the rule table's partials pick it).  The reverse
/// sweep then needs only which operand was picked -- one byte a loop can
/// keep per iteration -- instead of the running maximum itself.  Only in
/// loops: elsewhere the value is kept in a register either way, and the
/// target's max instruction is cheaper than the comparison and select.
static bool selectFormMinMax(Function &F, const CallTable &Calls) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !LI.getLoopFor(Call->getParent()) || Call->arg_size() != 2 ||
        !Call->getType()->isFloatingPointTy())
      continue;
    // maxnum itself, or a library's fmax (libm, libdevice, ocml: the rule
    // table's names for it); not llvm.maximum, which propagates NaN.
    Intrinsic::ID ID = Callee->getIntrinsicID();
    const DerivativeRule *Rule = ID ? nullptr : Calls.scalarRule(*Callee);
    bool Max =
        ID == Intrinsic::maxnum || (Rule && Rule == Calls.family("fmax"));
    bool Min =
        ID == Intrinsic::minnum || (Rule && Rule == Calls.family("fmin"));
    if (!Max && !Min)
      continue;
    Value *A = Call->getArgOperand(0), *B2 = Call->getArgOperand(1);
    if (A->getType() != Call->getType() || B2->getType() != Call->getType())
      continue;
    IRBuilder<> B(Call);
    // maxnum(a, b) = b if a is NaN, a if b is NaN, else the larger.
    Value *Picks = B.CreateFCmp(Max ? CmpInst::FCMP_OGE : CmpInst::FCMP_OLE, A,
                                B2, Call->getName() + ".pick");
    Value *Pick = B.CreateOr(Picks, B.CreateFCmpUNO(B2, B2));
    Value *Sel = B.CreateSelect(Pick, A, B2, Call->getName());
    if (auto *SI = dyn_cast<Instruction>(Sel))
      SI->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(Sel);
    Call->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// Uses of a call that returns one of its pointer arguments use that
/// argument instead.  The value is the same; but a derivative that keeps
/// the argument needs no tape for it (it is rebuilt where its backward
/// half runs), where the call's result, a raw address into the caller's
/// frame, would outlive it (Eigen's conj_if<false>::pconj, at -O0).
static bool forwardReturnedArguments(Function &F) {
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Call->use_empty() || Callee->isVarArg())
      continue;
    std::optional<unsigned> K = alwaysReturnedParameter(*Callee);
    if (!K || *K >= Call->arg_size() ||
        Call->getArgOperand(*K)->getType() != Call->getType())
      continue;
    Call->replaceAllUsesWith(Call->getArgOperand(*K));
    Changed = true;
  }
  return Changed;
}

Function &Preprocessor::makeClone(Function &F, StringRef Suffix) {
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(&F, VMap);
  Clone->setName(F.getName() + Suffix);
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->removeFnAttr(Attribute::OptimizeNone);
  Clone->removeFnAttr(Attribute::NoInline);
  Originals[Clone] = &F;
  // One more order of differentiation: __enzyme_iter's base grows.
  advanceIterationCounters(*Clone);
  // OpenMP's parallel regions: calls of their bodies, run by a team.
  normalizeParallelRegions(*Clone);
  // Thrust's algorithms on device data: launches of gpuad's map kernels.
  if (Algorithms)
    launchAlgorithmsAsMapKernels(*Clone, *Algorithms);

  // A few rounds: the target may inline its idioms' functions first.
  for (unsigned Round = 0; Round < 8; ++Round) {
    FunctionPassManager FPM;
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(EarlyCSEPass());
    FPM.addPass(InstSimplifyPass());
    FPM.addPass(SimplifyCFGPass());
    run(FPM, *Clone);
    // Atomic wrappers inlined: the analyses see the address the atomic
    // updates (whether it is the thread's own) as at -O2.
    bool Again = inlineCallsTo(*Clone, isAtomicWrapper);
    // The runtime headers' C++ wrappers (at -O0): the runtime's calls are
    // then the clone's own, where the rows see what they are given.
    Again |= inlineCallsTo(*Clone, [this](const Function &G) {
      return Calls.isRuntimeWrapper(G);
    });
    // A kernel's host stub: the launch then reads the arguments' values
    // (a struct the ABI passes as an integer is its fields again).
    Again |= inlineCallsTo(
        *Clone, [this](const Function &G) { return isLaunchStub(G, Calls); });
    Again |= passComplexByValue(*Clone, Calls);
    Again |= useMemoryIntrinsics(*Clone);
    Again |= signBitOpsAsFloatOps(*Clone);
    Again |= forwardReturnedArguments(*Clone);
    if (TargetNormalizer)
      Again |= TargetNormalizer(*Clone);
    if (!Again)
      break;
  }
  // After the rounds: a pointer kept in an -O0 local is now a value, or
  // the callee itself (a direct call).
  if (IndirectCallRewriter)
    IndirectCallRewriter(*Clone, F);
  // Last, so that no optimisation sees a runtime copy as a host memcpy;
  // then the pointers the runtime calls kept in memory (cudaMalloc's slot)
  // are read once, and a launch's arguments are the values stored for it
  // (EarlyCSE turns no copy into loads).
  bool Runtime = tagRuntimeMemory(*Clone, Calls);
  bool Launches = normalizeKernelLaunches(*Clone, Calls);
  if (Runtime || Launches) {
    FunctionPassManager FPM;
    // A launch's argument array and the slots it pointed to are gone; a
    // struct the host ABI passed in pieces (a float inside an i64) is its
    // fields again.
    if (Launches) {
      FunctionPassManager Split;
      Split.addPass(SROAPass(SROAOptions::ModifyCFG));
      run(Split, *Clone);
      reassembleLaunchLeaves(*Clone);
    }
    FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
    run(FPM, *Clone);
  }
  return *Clone;
}

Function &Preprocessor::normalized(Function &F) {
  if (Function *Clone = Clones.lookup(&F))
    return *Clone;
  Function &Clone = makeClone(F, ".gpuad.primal");
  Clones[&F] = &Clone;
  return Clone;
}

Function &Preprocessor::normalizedForReverse(Function &F,
                                             ArrayRef<bool> Restrict) {
  std::vector<bool> Mask(F.arg_size(), false);
  for (unsigned I = 0; I < Mask.size() && I < Restrict.size(); ++I)
    Mask[I] = Restrict[I] && F.getArg(I)->getType()->isPointerTy() &&
              !F.getArg(I)->hasNoAliasAttr();
  Function *&Slot = ReverseClones[{&F, Mask}];
  if (Slot)
    return *Slot;
  Function &Clone = makeClone(F, ".gpuad.rprimal");
  Slot = &Clone;
  for (unsigned I = 0; I < Mask.size(); ++I)
    if (Mask[I])
      Clone.addParamAttr(I, Attribute::NoAlias);
  // The reverse sweep works on the forward sweep's memory after the primal
  // would have ended its lifetime (shadow stack slots, values it reads back).
  for (BasicBlock &BB : Clone)
    for (Instruction &I : make_early_inc_range(BB))
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->isLifetimeStartOrEnd())
        II->eraseFromParent();
  FunctionPassManager FPM;
  selectFormMinMax(Clone, Calls);
  FPM.addPass(UnifyFunctionExitNodesPass());
  FPM.addPass(LoopSimplifyPass());
  FPM.addPass(LCSSAPass());
  run(FPM, Clone);
  if (HoistInvariantCalls &&
      hoistInvariantCalls(Clone, FAM, Calls, [this](Function &G) -> Function & {
        return normalized(G);
      })) {
    FunctionPassManager Again;
    Again.addPass(LCSSAPass());
    run(Again, Clone);
  }
  if (Function *User = original(Clone))
    Checkpoints.outline(Clone, *User, FAM, [this](Function &G) -> Function & {
      return normalized(G);
    });
  // Last: nothing may clean up the companions before the reverse sweep
  // reads them.
  recordLastPicks(Clone);
  FAM.clear(Clone, Clone.getName());
  return Clone;
}

Function *Preprocessor::original(const Function &Clone) const {
  return Originals.lookup(&Clone);
}

void Preprocessor::cleanup(Function &F) {
  lowerRuntimeMemory(F);
  lowerKernelLaunches(F);
  lowerParallelRegions(F);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  // Stores nothing reads: to locals, or to memory a derivative's caller
  // declares dead on return (a checkpointed loop's state after a reverse
  // step).  DSE takes those at the end, and the loads feeding them die;
  // then, where nothing reads such memory any more, its stores in loops
  // go too, and the values computed for them.
  FPM.addPass(DSEPass());
  FPM.addPass(ADCEPass());
  FPM.addPass(DeadOnReturnStoresPass());
  FPM.addPass(ADCEPass());
  run(FPM, F);
}

void Preprocessor::eraseClones() {
  SmallVector<Function *, 16> All;
  for (auto &[Orig, Clone] : Clones)
    All.push_back(Clone);
  for (auto &[Key, Clone] : ReverseClones)
    All.push_back(Clone);
  for (Function *Clone : All) {
    FAM.clear(*Clone, Clone->getName());
    Clone->dropAllReferences();
  }
  for (Function *Clone : All)
    if (Clone->use_empty())
      Clone->eraseFromParent();
  Clones.clear();
  ReverseClones.clear();
  Originals.clear();
}

} // namespace gpuad
