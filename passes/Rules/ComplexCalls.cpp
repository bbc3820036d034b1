//===- ComplexCalls.cpp - How complex values cross a call -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/ComplexCalls.h"

#include "Rules/CallTable.h"
#include "Support/Lanes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// Appends the scalar leaves of \p Ty (struct and array elements, in
/// order); false once there are more than two.
bool collectLeaves(Type *Ty, SmallVectorImpl<Type *> &Leaves) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (Type *E : ST->elements())
      if (!collectLeaves(E, Leaves))
        return false;
    return true;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      if (!collectLeaves(AT->getElementType(), Leaves))
        return false;
    return true;
  }
  Leaves.push_back(Ty);
  return Leaves.size() <= 2;
}

/// T if \p Ty is a pair of floating-point T (`<2 x T>`, or an aggregate of
/// exactly two T leaves), else null.
Type *pairPartType(Type *Ty) {
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    return VT->getNumElements() == 2 &&
                   VT->getElementType()->isFloatingPointTy()
               ? VT->getElementType()
               : nullptr;
  if (!Ty->isAggregateType())
    return nullptr;
  SmallVector<Type *, 2> Leaves;
  if (!collectLeaves(Ty, Leaves) || Leaves.size() != 2 ||
      Leaves[0] != Leaves[1] || !Leaves[0]->isFloatingPointTy())
    return nullptr;
  return Leaves[0];
}

/// The indices that reach leaf \p I of aggregate \p Ty.
SmallVector<unsigned, 2> leafPath(Type *Ty, unsigned I) {
  SmallVector<unsigned, 2> Path;
  while (Ty->isAggregateType()) {
    unsigned N = isa<StructType>(Ty) ? cast<StructType>(Ty)->getNumElements()
                                     : cast<ArrayType>(Ty)->getNumElements();
    // A wrapper of one element, or the pair itself.
    unsigned Index = N == 1 ? 0 : I;
    Path.push_back(Index);
    Ty = isa<StructType>(Ty) ? cast<StructType>(Ty)->getElementType(Index)
                             : cast<ArrayType>(Ty)->getElementType();
  }
  return Path;
}

/// \p Pair (of a pair type) with part \p I set to \p V.
Value *withPart(IRBuilderBase &B, Value *Pair, unsigned I, Value *V) {
  if (Pair->getType()->isVectorTy())
    return B.CreateInsertElement(Pair, V, B.getInt32(I));
  return B.CreateInsertValue(Pair, V, leafPath(Pair->getType(), I));
}

/// A pair of type \p Ty from its two parts.
Value *makePair(IRBuilderBase &B, Type *Ty, Value *Re, Value *Im) {
  Value *Pair = PoisonValue::get(Ty);
  return withPart(B, withPart(B, Pair, 0, Re), 1, Im);
}

/// Acc + P * D, for P and D that may be null (zero).
Value *term(IRBuilderBase &B, const Lanes &L, Type *T, Value *Acc, Value *P,
            Value *D) {
  if (!P || !D)
    return Acc;
  return L.add(B, Acc, L.scale(B, P, D, T), T);
}

} // namespace

Value *complexPart(IRBuilderBase &B, Value *V, unsigned I) {
  Type *Ty = V->getType();
  if (Ty->isVectorTy())
    return B.CreateExtractElement(V, B.getInt32(I));
  if (Ty->isAggregateType())
    return B.CreateExtractValue(V, leafPath(Ty, I));
  return V;
}

Function *complexByValueWrapper(Function &Callee, const DerivativeRule &Rule,
                                CallTable &Calls) {
  FunctionType *FT = Callee.getFunctionType();
  unsigned N = Rule.NumOperands / 2;
  if (FT->isVarArg() || FT->getNumParams() != N ||
      !all_of(FT->params(), [](Type *P) { return P->isPointerTy(); }))
    return nullptr;
  Type *RetTy = FT->getReturnType();
  Type *T = Rule.RealResult ? (RetTy->isFloatingPointTy() ? RetTy : nullptr)
                            : pairPartType(RetTy);
  if (!T)
    return nullptr;
  Module &M = *Callee.getParent();
  std::string Name = (Callee.getName() + ".gpuad.byvalue").str();
  Function *W = M.getFunction(Name);
  if (!W) {
    SmallVector<Type *, 4> Params(2 * N, T);
    W = Function::Create(FunctionType::get(RetTy, Params, false),
                         GlobalValue::InternalLinkage, Name, M);
    W->addFnAttr(Attribute::AlwaysInline);
    for (StringRef Attr : {"target-cpu", "target-features"})
      if (Callee.hasFnAttribute(Attr))
        W->addFnAttr(Callee.getFnAttribute(Attr));
    IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", W));
    Type *PairTy = ArrayType::get(T, 2);
    SmallVector<Value *, 2> Ptrs;
    for (unsigned Z = 0; Z < N; ++Z) {
      AllocaInst *Slot =
          B.CreateAlloca(PairTy, M.getDataLayout().getAllocaAddrSpace());
      Slot->setAlignment(Align(16));
      B.CreateStore(W->getArg(2 * Z), B.CreateConstGEP2_32(PairTy, Slot, 0, 0));
      B.CreateStore(W->getArg(2 * Z + 1),
                    B.CreateConstGEP2_32(PairTy, Slot, 0, 1));
      Ptrs.push_back(
          B.CreatePointerBitCastOrAddrSpaceCast(Slot, FT->getParamType(Z)));
    }
    CallInst *Call = B.CreateCall(&Callee, Ptrs);
    Call->setCallingConv(Callee.getCallingConv());
    B.CreateRet(Call);
  }
  Calls.addAlias(W->getName(), Rule.Family);
  return W;
}

std::string complexShapeError(const CallBase &Call,
                              const DerivativeRule &Rule) {
  const Function *Callee = Call.getCalledFunction();
  unsigned N = Rule.NumOperands / 2;
  return ("cannot differentiate '" +
          (Callee ? Callee->getName() : StringRef("an indirect call")) +
          "' by the rule of '" + Rule.Family + "': it does not take " +
          Twine(N) + " complex operand" + (N == 1 ? "" : "s") +
          " as real parts by value (T, T / <2 x T> / {T, T}) and return " +
          (Rule.RealResult ? "a real T" : "a complex {T, T} / <2 x T>") +
          " (long double _Complex passes in memory on x86-64, AMDGPU returns "
          "float _Complex as integers)")
      .str();
}

std::optional<ComplexCall> ComplexCall::match(const CallBase &Call,
                                              const DerivativeRule &Rule) {
  ComplexCall CC;
  CC.Call = &Call;
  CC.ResultTy = Call.getType();
  CC.RealResult = Rule.RealResult;
  for (unsigned A = 0; A < Call.arg_size(); ++A) {
    Type *Ty = Call.getArgOperand(A)->getType();
    Type *Part = Ty->isFloatingPointTy() ? Ty : pairPartType(Ty);
    if (!Part || (CC.PartTy && Part != CC.PartTy))
      return std::nullopt;
    CC.PartTy = Part;
    if (Part == Ty) {
      CC.Parts.push_back({A, -1});
    } else {
      CC.Parts.push_back({A, 0});
      CC.Parts.push_back({A, 1});
    }
  }
  if (CC.Parts.size() != Rule.NumOperands)
    return std::nullopt;
  Type *ResultPart = CC.RealResult ? CC.ResultTy : pairPartType(CC.ResultTy);
  if (ResultPart != CC.PartTy)
    return std::nullopt;
  return CC;
}

Value *ComplexCall::operandPart(IRBuilderBase &B, Value *Arg,
                                unsigned K) const {
  return Parts[K].Element < 0 ? Arg : complexPart(B, Arg, Parts[K].Element);
}

Value *
ComplexCall::jvp(IRBuilderBase &B, const Lanes &L,
                 function_ref<Value *(unsigned)> ArgShadow,
                 function_ref<ComplexJacobian(unsigned)> Jacobian) const {
  Type *T = PartTy;
  auto Tangent = [&](unsigned K) -> Value * {
    Value *S = ArgShadow(Parts[K].Arg);
    if (!S || Parts[K].Element < 0)
      return S;
    Type *ArgTy = Call->getArgOperand(Parts[K].Arg)->getType();
    return L.map(B, T, {S}, {ArgTy}, [&](ArrayRef<Value *> V, unsigned) {
      return complexPart(B, V[0], Parts[K].Element);
    });
  };
  Value *DRe = nullptr, *DIm = nullptr;
  for (unsigned Z = 0; Z < numOperands(); ++Z) {
    Value *DX = Tangent(2 * Z), *DY = Tangent(2 * Z + 1);
    if (!DX && !DY)
      continue;
    ComplexJacobian J = Jacobian(Z);
    DRe = term(B, L, T, term(B, L, T, DRe, J.ReX, DX), J.ReY, DY);
    DIm = term(B, L, T, term(B, L, T, DIm, J.ImX, DX), J.ImY, DY);
  }
  if (RealResult || (!DRe && !DIm))
    return DRe;
  return L.map(B, ResultTy, {DRe ? DRe : L.zero(T), DIm ? DIm : L.zero(T)},
               {T, T}, [&](ArrayRef<Value *> S, unsigned) {
                 return makePair(B, ResultTy, S[0], S[1]);
               });
}

SmallVector<std::pair<unsigned, Value *>, 4>
ComplexCall::vjp(IRBuilderBase &B, const Lanes &L, Value *DI,
                 function_ref<bool(unsigned)> Wanted,
                 function_ref<ComplexJacobian(unsigned)> Jacobian) const {
  Type *T = PartTy;
  auto ResultPart = [&](unsigned I) {
    return L.map(B, T, {DI}, {ResultTy}, [&](ArrayRef<Value *> S, unsigned) {
      return complexPart(B, S[0], I);
    });
  };
  Value *DRe = RealResult ? DI : ResultPart(0);
  Value *DIm = RealResult ? nullptr : ResultPart(1);
  SmallVector<Value *, 4> DParts(Parts.size(), nullptr);
  for (unsigned Z = 0; Z < numOperands(); ++Z) {
    if (!Wanted(Parts[2 * Z].Arg) && !Wanted(Parts[2 * Z + 1].Arg))
      continue;
    ComplexJacobian J = Jacobian(Z);
    DParts[2 * Z] =
        term(B, L, T, term(B, L, T, nullptr, J.ReX, DRe), J.ImX, DIm);
    DParts[2 * Z + 1] =
        term(B, L, T, term(B, L, T, nullptr, J.ReY, DRe), J.ImY, DIm);
  }
  SmallVector<std::pair<unsigned, Value *>, 4> Adjoints;
  for (unsigned K = 0; K < Parts.size(); ++K) {
    unsigned Arg = Parts[K].Arg;
    if (!Wanted(Arg) || Parts[K].Element == 1)
      continue;
    if (Parts[K].Element < 0) {
      if (DParts[K])
        Adjoints.push_back({Arg, DParts[K]});
      continue;
    }
    // A pair-shaped argument: parts K and K + 1.
    if (!DParts[K] && !DParts[K + 1])
      continue;
    Type *ArgTy = Call->getArgOperand(Arg)->getType();
    Value *Re = DParts[K] ? DParts[K] : L.zero(T);
    Value *Im = DParts[K + 1] ? DParts[K + 1] : L.zero(T);
    Adjoints.push_back({Arg, L.map(B, ArgTy, {Re, Im}, {T, T},
                                   [&](ArrayRef<Value *> S, unsigned) {
                                     return makePair(B, ArgTy, S[0], S[1]);
                                   })});
  }
  return Adjoints;
}

} // namespace gpuad
