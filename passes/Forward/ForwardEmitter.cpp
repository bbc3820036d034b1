//===- ForwardEmitter.cpp - Forward-mode (tangent) derivatives ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Set-up, the instruction walk, arithmetic, structural operations, PHIs and
/// returns.  Memory is in ForwardMemory.cpp, calls in ForwardCalls.cpp.
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/TypeInfo.h"
#include "Core/DerivativeContext.h"
#include "Rules/DerivativeRules.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "gpuad-forward"

using namespace llvm;

STATISTIC(NumTangents, "Number of instructions given a tangent");

namespace gpuad {

ForwardEmitter::ForwardEmitter(DerivativeContext &Ctx, const DerivativeKey &Key,
                               Function &Derivative,
                               const DerivativeSignature &Sig)
    : Ctx(Ctx), Key(Key), D(Derivative), Sig(Sig), L(Key.Width),
      B(Derivative.getContext()) {}

ForwardEmitter::~ForwardEmitter() = default;

/// Function attributes of the primal that stay true of its derivative.
static void copyFunctionAttributes(const Function &From, Function &To) {
  AttributeSet FnAttrs = From.getAttributes().getFnAttrs();
  for (const Attribute &A : FnAttrs) {
    if (A.isStringAttribute()) {
      To.addFnAttr(A);
      continue;
    }
    switch (A.getKindAsEnum()) {
    case Attribute::NoUnwind:
    case Attribute::Convergent:
    case Attribute::NoRecurse:
    case Attribute::MustProgress:
    case Attribute::UWTable:
    case Attribute::NoFree:
    case Attribute::NoSync:
    case Attribute::WillReturn:
      To.addFnAttr(A);
      break;
    default:
      // memory(...), optnone, noinline, ... do not carry over.
      break;
    }
  }
}

bool ForwardEmitter::cloneBody() {
  Function &Primal = Ctx.preprocessor().normalized(*Key.Fn);
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < Primal.arg_size(); ++I) {
    Argument *A = D.getArg(Sig.PrimalParam[I]);
    A->setName(Primal.getArg(I)->getName());
    VMap[Primal.getArg(I)] = A;
    if (Sig.ShadowParam[I] >= 0)
      D.getArg(Sig.ShadowParam[I])->setName(Primal.getArg(I)->getName() + ".d");
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&D, &Primal, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  // CloneFunctionInto copies the primal's attributes; start over.
  D.setAttributes(AttributeList());
  copyFunctionAttributes(Primal, D);
  for (unsigned I = 0; I < Primal.arg_size(); ++I)
    for (const Attribute &A : Primal.getAttributes().getParamAttrs(I))
      if (A.isEnumAttribute() &&
          (A.getKindAsEnum() == Attribute::NoUndef ||
           A.getKindAsEnum() == Attribute::NonNull))
        D.addParamAttr(Sig.PrimalParam[I], A);
  removeUnreachableBlocks(D);
  return true;
}

bool ForwardEmitter::run() {
  if (!cloneBody())
    return false;

  SmallVector<std::pair<const Argument *, ArgActivity>, 8> Args;
  for (unsigned I = 0; I < Key.Args.size(); ++I)
    Args.push_back({D.getArg(Sig.PrimalParam[I]), Key.Args[I]});
  TI = std::make_unique<TypeInfo>(D);
  TargetHooks &Target = Ctx.target();
  Act = std::make_unique<ActivityAnalysis>(
      D, Args, Key.Ret, *TI,
      [&Target](const CallBase &C) { return Target.isInactiveCall(C); });

  for (unsigned I = 0; I < Key.Args.size(); ++I)
    if (Sig.ShadowParam[I] >= 0)
      setShadow(D.getArg(Sig.PrimalParam[I]), D.getArg(Sig.ShadowParam[I]));

  createPhiShadows();
  SmallVector<Instruction *, 64> Work;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&D))
    for (Instruction &I : *BB)
      Work.push_back(&I);
  for (Instruction *I : Work)
    emit(*I);
  finishPhiShadows();
  rewriteReturns();
  for (Instruction *I : Removed)
    I->deleteValue();
  Removed.clear();

  std::string Broken;
  raw_string_ostream OS(Broken);
  if (!Failed && verifyFunction(D, &OS)) {
    Ctx.diags().error(*Key.Fn, DebugLoc(),
                      "internal error: the forward derivative of '" +
                          Key.Fn->getName() + "' is invalid IR: " + Broken);
    return false;
  }
  return !Failed;
}

void ForwardEmitter::emit(Instruction &I) {
  // Tangent code for I goes between I and the instruction after it; that
  // instruction stays the anchor however much is inserted.
  if (!I.isTerminator())
    B.SetInsertPoint(I.getNextNode());
  else
    B.SetInsertPoint(&I);
  B.SetCurrentDebugLocation(I.getDebugLoc());
  if (isa<FPMathOperator>(I)) {
    // Tangents may be infinite where the primal is not (sqrt at 0): keep
    // the reassociation flags of -ffast-math, not the no-inf/no-NaN promises.
    FastMathFlags FMF = I.getFastMathFlags();
    FMF.setNoInfs(false);
    FMF.setNoNaNs(false);
    B.setFastMathFlags(FMF);
  } else {
    B.clearFastMathFlags();
  }
  visit(I);
}

void ForwardEmitter::fail(Instruction &I, const Twine &Msg) {
  Failed = true;
  Ctx.diags().error(*Key.Fn, I, Msg);
}

const Value *ForwardEmitter::orig(const Value *V) const {
  auto It = Aliases.find(V);
  return It == Aliases.end() ? V : It->second;
}

bool ForwardEmitter::hasShadow(const Value *V) const {
  V = orig(V);
  if (Act->isData(V))
    return Act->isActive(V);
  return Act->needsShadow(V);
}

bool ForwardEmitter::isData(const Value *V) const {
  return Act->isData(orig(V));
}
bool ForwardEmitter::needsShadow(const Value *V) const {
  return Act->needsShadow(orig(V));
}
bool ForwardEmitter::isVaried(const Value *V) const {
  return Act->isVaried(orig(V));
}
int ForwardEmitter::classOf(const Value *V) const {
  return Act->classOf(orig(V));
}
bool ForwardEmitter::isInteger(const Value *V) const {
  return TI->isInteger(orig(V));
}

void ForwardEmitter::setShadow(Value *V, Value *Shadow) {
  Shadows[V] = Shadow;
  if (Shadow)
    ++NumTangents;
}

Value *ForwardEmitter::tangent(Value *V) const {
  auto It = Shadows.find(V);
  return It == Shadows.end() ? nullptr : It->second;
}

Value *ForwardEmitter::tangentOrZero(Value *V) const {
  if (Value *T = tangent(V))
    return T;
  return L.zero(V->getType());
}

Value *ForwardEmitter::shadowOperand(Value *V, Instruction &At) {
  if (isData(V))
    return tangentOrZero(V);
  return hasShadow(V) ? shadowPointer(V, At) : L.splat(B, V);
}

void ForwardEmitter::visitInstruction(Instruction &I) {
  if (hasShadow(&I))
    fail(I, "no derivative rule for '" + describe(I) + "'");
}

void ForwardEmitter::emitElementwise(Instruction &I,
                                     const DerivativeRule &Rule) {
  if (Rule.Kind == RuleKind::ZeroDerivative) {
    setShadow(&I, nullptr);
    return;
  }
  auto *Call = dyn_cast<CallBase>(&I);
  auto Operand = [&](unsigned K) -> Value * {
    return Call ? Call->getArgOperand(K) : I.getOperand(K);
  };
  unsigned NumOps = Call ? Call->arg_size() : I.getNumOperands();
  Type *Ty = I.getType();
  if (NumOps != Rule.NumOperands)
    return fail(I, "'" + describe(I) + "' does not have the " +
                       Twine(Rule.NumOperands) + " operand(s) of '" +
                       Rule.Family + "' that its derivative rule expects");
  Value *Sum = nullptr;
  for (unsigned K = 0; K < Rule.NumOperands && K < NumOps; ++K) {
    Value *T = tangent(Operand(K));
    const Partial &P = Rule.Partials[K];
    if (!T || !P.Fn)
      continue;
    RuleContext R(B, Ty, Operand, [&] { return &I; }, Ctx.target());
    Sum = L.add(B, Sum, L.scale(B, P.Fn(R), T, Ty), Ty);
  }
  setShadow(&I, Sum);
}

void ForwardEmitter::visitBinaryOperator(BinaryOperator &I) {
  if (!hasShadow(&I))
    return;
  if (!isData(&I)) {
    // Address arithmetic on an integer: the same arithmetic on the shadow
    // address (the offset operand stays primal).
    SmallVector<unsigned, 2> Addresses;
    for (unsigned K = 0; K < 2; ++K)
      if (classOf(I.getOperand(K)) != -1)
        Addresses.push_back(K);
    return setShadow(&I, replay(I, Addresses));
  }
  if (const DerivativeRule *R = findRule(I))
    return emitElementwise(I, *R);
  fail(I, "no derivative rule for '" + describe(I) +
              "' (integer arithmetic on floating-point data)");
}

void ForwardEmitter::visitUnaryOperator(UnaryOperator &I) {
  if (!hasShadow(&I))
    return;
  if (const DerivativeRule *R = findRule(I))
    return emitElementwise(I, *R);
  visitInstruction(I);
}

Value *ForwardEmitter::replay(Instruction &I, ArrayRef<unsigned> DataOps) {
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
  if (L.width() == 1)
    return Build(Sh);
  // Whole-vector forms of casts and scalar-condition selects.
  if (auto *Cast = dyn_cast<CastInst>(&I);
      Cast && L.isSimd(I.getType()) && L.isSimd(Tys[0]))
    return B.CreateCast(Cast->getOpcode(), Sh[0], L.shadowType(I.getType()));
  if (auto *Sel = dyn_cast<SelectInst>(&I);
      Sel && L.isSimd(I.getType()) && !Sel->getCondition()->getType()->isVectorTy())
    return B.CreateSelect(Sel->getCondition(), Sh[0], Sh[1]);
  return L.map(B, I.getType(), Sh, Tys,
               [&](ArrayRef<Value *> Lane, unsigned) { return Build(Lane); });
}

void ForwardEmitter::visitCastInst(CastInst &I) {
  if (!hasShadow(&I))
    return;
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    setShadow(&I, replay(I, {0}));
    return;
  default:
    fail(I, "no derivative rule for '" + describe(I) + "'");
  }
}

void ForwardEmitter::visitSelectInst(SelectInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {1, 2}));
}

void ForwardEmitter::visitExtractValueInst(ExtractValueInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardEmitter::visitInsertValueInst(InsertValueInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardEmitter::visitExtractElementInst(ExtractElementInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardEmitter::visitInsertElementInst(InsertElementInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardEmitter::visitShuffleVectorInst(ShuffleVectorInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0, 1}));
}

void ForwardEmitter::visitFreezeInst(FreezeInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardEmitter::visitGetElementPtrInst(GetElementPtrInst &I) {
  if (hasShadow(&I))
    setShadow(&I, replay(I, {0}));
}

void ForwardEmitter::createPhiShadows() {
  for (BasicBlock &BB : D)
    for (PHINode &PN : BB.phis()) {
      if (!hasShadow(&PN))
        continue;
      PHINode *S = PHINode::Create(L.shadowType(PN.getType()),
                                   PN.getNumIncomingValues(),
                                   PN.getName() + ".d");
      S->insertBefore(BB.getFirstNonPHIIt());
      S->setDebugLoc(PN.getDebugLoc());
      PhiShadows.push_back({&PN, S});
      setShadow(&PN, S);
    }
}

void ForwardEmitter::finishPhiShadows() {
  for (auto [PN, S] : PhiShadows) {
    for (unsigned K = 0; K < PN->getNumIncomingValues(); ++K) {
      BasicBlock *From = PN->getIncomingBlock(K);
      B.SetInsertPoint(From->getTerminator());
      S->addIncoming(shadowOperand(PN->getIncomingValue(K), *PN), From);
    }
  }
}

void ForwardEmitter::rewriteReturns() {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : D)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  for (ReturnInst *RI : Returns) {
    B.SetInsertPoint(RI);
    B.SetCurrentDebugLocation(RI->getDebugLoc());
    Value *RV = RI->getReturnValue();
    Value *Primal = Sig.ReturnsPrimal ? RV : nullptr;
    Value *Shadow = Sig.ReturnsShadow ? shadowOperand(RV, *RI) : nullptr;
    if (!Sig.ReturnsPrimal && !Sig.ReturnsShadow)
      B.CreateRetVoid();
    else
      B.CreateRet(Sig.packReturn(B, Primal, Shadow));
    RI->eraseFromParent();
  }
}

} // namespace gpuad
