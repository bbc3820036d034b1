//===- ForwardSweep.cpp - The forward walk every mode shares --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Set-up, the walk, and the structural operations, which only move shadows
/// around and are the same in every mode.  Memory and calls are in
/// ForwardSweepMemory.cpp.
//===----------------------------------------------------------------------===//

#include "Sweep/ForwardSweep.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/IndirectCalls.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/FunctionAttributes.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "gpuad-sweep"

using namespace llvm;

STATISTIC(NumShadows, "Number of values given a shadow (tangent or pointer)");

namespace gpuad {

SweepPlanner::~SweepPlanner() = default;

ForwardSweep::ForwardSweep(SweepPlanner &Ctx, const DerivativeKey &Key,
                           Function &Generated)
    : Ctx(Ctx), Key(Key), Derivative(Generated), Batch(Key.Width),
      B(Generated.getContext()) {}

ForwardSweep::~ForwardSweep() = default;

bool ForwardSweep::sweep(Function &Primal, ArrayRef<SweepArg> Args,
                         ReturnShadow Ret) {
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < Primal.arg_size(); ++I) {
    Args[I].Primal->setName(Primal.getArg(I)->getName());
    VMap[Primal.getArg(I)] = Args[I].Primal;
    if (Args[I].Shadow)
      Args[I].Shadow->setName(Primal.getArg(I)->getName() + ".d");
  }
  SmallVector<ReturnInst *, 4> Returns;
  CallingConv::ID Conv = Derivative.getCallingConv();
  CloneFunctionInto(&Derivative, &Primal, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  // CloneFunctionInto copies the primal's attributes and calling convention;
  // start over. The derivative keeps the convention it was declared with:
  // its calls (recursive ones among them) were built with that one, and a
  // call whose convention differs from its callee's is undefined behaviour
  // that the cleanup would fold into 'unreachable'.
  Derivative.setCallingConv(Conv);
  Derivative.setAttributes(AttributeList());
  copyFunctionAttributes(Primal, Derivative);
  Derivative.addFnAttr(DerivativeAttr);
  for (unsigned I = 0; I < Primal.arg_size(); ++I)
    for (const Attribute &A : Primal.getAttributes().getParamAttrs(I))
      if (A.isEnumAttribute() && (A.getKindAsEnum() == Attribute::NoUndef ||
                                  A.getKindAsEnum() == Attribute::NonNull))
        Args[I].Primal->addAttr(A);
  removeUnreachableBlocks(Derivative);

  SmallVector<std::pair<const Argument *, ArgActivity>, 8> Activities;
  for (const SweepArg &A : Args)
    Activities.push_back({A.Primal, A.Activity});
  TypeInfo::ArgumentTypes Known;
  ArrayRef<TypeTree> FromCallers = Ctx.argumentTypes(*Key.Fn);
  for (unsigned I = 0; I < FromCallers.size() && I < Args.size(); ++I)
    Known[Args[I].Primal] = FromCallers[I];
  // What the primal's declaration says of its pointers' memory (the
  // derivative's shadows between the arguments hide it), where nothing
  // else does: a `const double *` input copied to the device unread.
  TypeInfo::ArgumentTypes Declared;
  for (auto [I, T] : enumerate(TypeInfo::declaredFloats(Primal)))
    if (I < Args.size() && !T.empty())
      Declared[Args[I].Primal] = T;
  TI = std::make_unique<TypeInfo>(Derivative, Ctx.calls(), Known,
                                  &Ctx.typeSummaries(), Declared);
  Act = std::make_unique<ActivityAnalysis>(
      Derivative, Activities, Ret, *TI, Ctx.calls(),
      [this](const GlobalVariable &GV) { return Ctx.carriesDerivatives(GV); },
      [this](const CallBase &C) { return Ctx.reachesCarryingGlobals(C); });
  for (const SweepArg &A : Args)
    if (A.Shadow)
      setShadow(A.Primal, A.Shadow);
  giveScratchShadows(Args);
  for (const Instruction *I : Act->lostDerivatives())
    fail(const_cast<Instruction &>(*I),
         "cannot differentiate '" + describe(*I) +
             (isa<BinaryOperator>(I) || isa<CastInst>(I)
                  ? "': it computes with the bits of a floating-point value "
                    "that carries a derivative, and its result is used as "
                    "floating-point data again (the derivative of such bit "
                    "manipulation is unknown)"
                  : "': this integer may hold the bits of a floating-point "
                    "value that carries a derivative, and it is used as "
                    "floating-point data again, but the type analysis cannot "
                    "tell (its derivative would be lost)"));

  createPhiShadows();
  SmallVector<Instruction *, 64> Work;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&Derivative))
    for (Instruction &I : *BB)
      Work.push_back(&I);
  PrimalSet.insert(Work.begin(), Work.end());
  for (Instruction *I : Work)
    emit(*I);
  finishPhiShadows();
  return !Failed;
}

void ForwardSweep::finishSweep() {
  for (Instruction *I : Removed)
    I->deleteValue();
  Removed.clear();
}

void ForwardSweep::emit(Instruction &I) {
  // Code for I goes between I and the instruction after it; that
  // instruction stays the anchor however much is inserted.
  if (!I.isTerminator())
    B.SetInsertPoint(I.getNextNode());
  else
    B.SetInsertPoint(&I);
  B.SetCurrentDebugLocation(I.getDebugLoc());
  if (isa<FPMathOperator>(I)) {
    // Derivatives may be infinite where the primal is not (sqrt at 0): keep
    // the reassociation flags of -ffast-math, not the no-inf/no-NaN promises.
    FastMathFlags FMF = I.getFastMathFlags();
    FMF.setNoInfs(false);
    FMF.setNoNaNs(false);
    B.setFastMathFlags(FMF);
  } else {
    B.clearFastMathFlags();
  }
  visit(I);
  if (I.getParent())
    afterVisit(I);
}

void ForwardSweep::fail(Instruction &I, const Twine &Msg) {
  Failed = true;
  // Host code inlined from a GPU library's algorithm: at the user's call,
  // naming the algorithm.
  if (std::optional<std::pair<DebugLoc, std::string>> Call =
          Ctx.target().isGPU() ? std::nullopt
                               : libraryCallSite(I.getDebugLoc()))
    return Ctx.diags().error(*Key.Fn, Call->first,
                             libraryAlgorithmError(Call->second) + " (" + Msg +
                                 describeLocation(I.getDebugLoc()) + ")");
  Ctx.diags().error(*Key.Fn, I, Msg);
}

SmallVector<SweepArg, 8>
ForwardSweep::sweepArguments(const DerivativeSignature &Sig) const {
  SmallVector<SweepArg, 8> Args;
  for (unsigned I = 0; I < Key.Args.size(); ++I)
    Args.push_back({Derivative.getArg(Sig.PrimalParam[I]),
                    Sig.ShadowParam[I] >= 0
                        ? Derivative.getArg(Sig.ShadowParam[I])
                        : nullptr,
                    Key.Args[I]});
  return Args;
}

std::optional<ComplexCall>
ForwardSweep::matchComplex(CallBase &Call, const DerivativeRule &Rule) {
  std::optional<ComplexCall> CC = ComplexCall::match(Call, Rule);
  if (!CC && any_of(Call.args(), [&](Use &A) {
        return isActive(A.get()) ||
               (A->getType()->isPointerTy() && needsShadow(A.get()));
      }))
    fail(Call, complexShapeError(Call, Rule));
  return CC;
}

bool ForwardSweep::verifyGenerated(StringRef ModeName) {
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (!verifyFunction(Derivative, &OS))
    return true;
  Ctx.diags().error(*Key.Fn, DebugLoc(),
                    "internal error: the " + ModeName + " derivative of '" +
                        Key.Fn->getName() + "' is invalid IR: " + Broken);
  return false;
}

const Value *ForwardSweep::orig(const Value *V) const {
  auto It = Aliases.find(V);
  return It == Aliases.end() ? V : It->second;
}

bool ForwardSweep::wantsShadow(const Value *V) const {
  // An aggregate of pointers and floats has the shadow of its pointers (its
  // floats' derivatives are adjoints, in the reverse sweep).
  return (!Act->isData(V) || typeHoldsPointer(V->getType())) &&
         Act->needsShadow(V);
}

bool ForwardSweep::isData(const Value *V) const { return Act->isData(orig(V)); }
bool ForwardSweep::isActive(const Value *V) const {
  return Act->isActive(orig(V));
}
bool ForwardSweep::needsShadow(const Value *V) const {
  return Act->needsShadow(orig(V));
}
bool ForwardSweep::isVaried(const Value *V) const {
  return Act->isVaried(orig(V));
}
int ForwardSweep::classOf(const Value *V) const {
  return Act->classOf(orig(V));
}
bool ForwardSweep::isInteger(const Value *V) const {
  return TI->isInteger(orig(V));
}

void ForwardSweep::setShadow(Value *V, Value *Shadow) {
  Shadows[V] = Shadow;
  if (Shadow)
    ++NumShadows;
}

Value *ForwardSweep::shadowOf(Value *V) const {
  auto It = Shadows.find(V);
  return It == Shadows.end() ? nullptr : It->second;
}

Value *ForwardSweep::shadowOrZero(Value *V) const {
  if (Value *S = shadowOf(V))
    return S;
  return Batch.zero(V->getType());
}

Value *ForwardSweep::shadowOperand(Value *V, Instruction &At) {
  if (isData(V))
    return shadowOrZero(V);
  return needsShadow(V) ? shadowPointer(V, At) : Batch.splat(B, V);
}

void ForwardSweep::visitInstruction(Instruction &I) {
  if (hasShadow(&I))
    fail(I, "no derivative rule for '" + describe(I) + "'");
}

void ForwardSweep::visitBinaryOperator(BinaryOperator &I) {
  if (!hasShadow(&I))
    return;
  if (isData(&I))
    return emitData(I);
  // Address arithmetic on an integer: the same arithmetic on the shadow
  // address (the offset operand stays primal).
  SmallVector<unsigned, 2> Addresses;
  for (unsigned K = 0; K < 2; ++K)
    if (classOf(I.getOperand(K)) != -1)
      Addresses.push_back(K);
  setShadow(&I, replay(I, Addresses));
}

void ForwardSweep::visitUnaryOperator(UnaryOperator &I) {
  if (hasShadow(&I))
    emitData(I);
}

Value *ForwardSweep::replay(Instruction &I, ArrayRef<unsigned> DataOps) {
  SmallVector<Value *, 3> Sh;
  SmallVector<Type *, 3> Tys;
  for (unsigned Op : DataOps) {
    Sh.push_back(shadowOperand(I.getOperand(Op), I));
    Tys.push_back(I.getOperand(Op)->getType());
  }
  auto Build = [&](ArrayRef<Value *> LaneVals) -> Value * {
    Instruction *C = I.clone();
    for (unsigned K = 0; K < DataOps.size(); ++K)
      C->setOperand(DataOps[K], LaneVals[K]);
    return B.Insert(C, I.hasName() ? I.getName() + ".d" : "");
  };
  if (Batch.width() == 1)
    return Build(Sh);
  // Whole-vector forms of casts and scalar-condition selects.
  if (auto *Cast = dyn_cast<CastInst>(&I);
      Cast && Batch.isSimd(I.getType()) && Batch.isSimd(Tys[0]))
    return B.CreateCast(Cast->getOpcode(), Sh[0],
                        Batch.shadowType(I.getType()));
  if (auto *Sel = dyn_cast<SelectInst>(&I);
      Sel && Batch.isSimd(I.getType()) &&
      !Sel->getCondition()->getType()->isVectorTy())
    return B.CreateSelect(Sel->getCondition(), Sh[0], Sh[1]);
  return Batch.map(
      B, I.getType(), Sh, Tys,
      [&](ArrayRef<Value *> Lane, unsigned) { return Build(Lane); });
}

void ForwardSweep::visitCastInst(CastInst &I) {
  if (!hasShadow(&I))
    return;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    // An address made from an integer that has no shadow address: taking
    // the primal address (or zero) for the shadow would write adjoints into
    // the primal's memory, or fault.  A function pointer (a member function
    // pointer's) is its own shadow: calls through it dispatch on it.
    if (isa<IntToPtrInst>(I) && !hasShadow(I.getOperand(0)) && !isOnlyCalled(I))
      return fail(I, "cannot tell the shadow of the pointer '" + describe(I) +
                         "': the integer it is made from, '" +
                         describe(*I.getOperand(0)) +
                         "', has no shadow address");
    // Linear in the value (conversions) or moving an address.
    setShadow(&I, replay(I, {0}));
    return;
  default:
    fail(I, "no derivative rule for '" + describe(I) + "'");
  }
}

void ForwardSweep::visitSelectInst(SelectInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {1, 2}));
}

void ForwardSweep::visitExtractValueInst(ExtractValueInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardSweep::visitInsertValueInst(InsertValueInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardSweep::visitExtractElementInst(ExtractElementInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardSweep::visitInsertElementInst(InsertElementInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardSweep::visitShuffleVectorInst(ShuffleVectorInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardSweep::visitFreezeInst(FreezeInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardSweep::visitGetElementPtrInst(GetElementPtrInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardSweep::createPhiShadows() {
  for (BasicBlock &BB : Derivative)
    for (PHINode &PN : BB.phis()) {
      if (!hasShadow(&PN))
        continue;
      PHINode *S =
          PHINode::Create(Batch.shadowType(PN.getType()),
                          PN.getNumIncomingValues(), PN.getName() + ".d");
      S->insertBefore(BB.getFirstNonPHIIt());
      S->setDebugLoc(PN.getDebugLoc());
      PhiShadows.push_back({&PN, S});
      setShadow(&PN, S);
    }
}

void ForwardSweep::finishPhiShadows() {
  for (auto [PN, S] : PhiShadows) {
    for (unsigned K = 0; K < PN->getNumIncomingValues(); ++K) {
      BasicBlock *From = PN->getIncomingBlock(K);
      B.SetInsertPoint(From->getTerminator());
      S->addIncoming(shadowOperand(PN->getIncomingValue(K), *PN), From);
    }
  }
}

} // namespace gpuad
