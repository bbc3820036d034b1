//===- CustomDerivatives.cpp - Derivatives the user registered ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Planner/CustomDerivatives.h"

#include "Rules/Registrations.h"
#include "Support/Diagnostics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "gpuad"

using namespace llvm;

STATISTIC(NumCustom, "Number of derivatives made from registered functions");

namespace gpuad {

namespace {

/// A user's function as its source declares it: the C ABI returns a struct
/// through an `sret` pointer and passes one `byval`; the adapters call it
/// that way but match and use the values.
struct SourceSignature {
  Type *Ret = nullptr;
  SmallVector<Type *, 16> Params;
  SmallVector<Type *, 16> ByVal; ///< per source parameter, or null
  int SRet = -1;                 ///< IR parameter of the sret pointer

  explicit SourceSignature(const Function &U) {
    Ret = U.getReturnType();
    for (const Argument &A : U.args()) {
      if (A.hasStructRetAttr()) {
        SRet = A.getArgNo();
        Ret = A.getParamStructRetType();
        continue;
      }
      Type *BV = A.hasByValAttr() ? A.getParamByValType() : nullptr;
      ByVal.push_back(BV);
      Params.push_back(BV ? BV : A.getType());
    }
  }
};

/// Calls \p User with the source-level values \p Args.
Value *callUser(IRBuilder<> &B, Function &User, ArrayRef<Value *> Args) {
  SourceSignature Src(User);
  const DataLayout &DL = User.getDataLayout();
  BasicBlock &EntryBB = B.GetInsertBlock()->getParent()->getEntryBlock();
  IRBuilder<> Entry(&EntryBB, EntryBB.getFirstInsertionPt());
  auto Slot = [&](Type *T) {
    return Entry.CreateAlloca(T, DL.getAllocaAddrSpace());
  };
  SmallVector<Value *, 16> IR;
  Value *Ret = Src.SRet >= 0 ? Slot(Src.Ret) : nullptr;
  for (unsigned K = 0; K < Args.size(); ++K) {
    if (Src.SRet == int(IR.size()))
      IR.push_back(Ret);
    Value *V = Args[K];
    if (Src.ByVal[K]) {
      Value *P = Slot(Src.ByVal[K]);
      B.CreateStore(V, P);
      V = P;
    }
    IR.push_back(V);
  }
  if (Src.SRet == int(IR.size()))
    IR.push_back(Ret);
  for (unsigned K = 0; K < IR.size(); ++K) // address spaces of allocas
    if (IR[K]->getType() != User.getArg(K)->getType())
      IR[K] = B.CreateAddrSpaceCast(IR[K], User.getArg(K)->getType());
  CallInst *C = B.CreateCall(&User, IR);
  C->setCallingConv(User.getCallingConv());
  C->setAttributes(User.getAttributes());
  return Ret ? static_cast<Value *>(B.CreateLoad(Src.Ret, Ret)) : C;
}

/// Which of f's parameters a user's function takes a shadow after.
struct Layout {
  SmallVector<bool, 8> Shadow;
  SmallVector<Type *, 16> Types;
};

/// Enzyme's layouts: by type (every pointer has a shadow), or, when
/// \p ByActivity is given, by the call's activity (a constant pointer has
/// none).
Layout layoutFor(const Function &F, bool Forward, bool IntegersTwice,
                 const DerivativeKey *ByActivity = nullptr) {
  Layout L;
  for (const Argument &A : F.args()) {
    Type *T = A.getType();
    bool IsFloat = T->isFPOrFPVectorTy();
    bool ConstPtr = ByActivity && T->isPointerTy() &&
                    ByActivity->Args[A.getArgNo()] == ArgActivity::Const;
    bool S = (T->isPointerTy() && !ConstPtr) || (Forward && IsFloat) ||
             (IntegersTwice && !IsFloat);
    L.Shadow.push_back(S);
    L.Types.push_back(T);
    if (S)
      L.Types.push_back(T);
  }
  return L;
}

std::string typeList(ArrayRef<Type *> Types) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "(";
  for (auto [I, T] : enumerate(Types)) {
    if (I)
      OS << ", ";
    T->print(OS);
  }
  OS << ")";
  return S;
}

/// Whether \p L gives a shadow to a pointer \p Key has none for.
bool needsMissingShadow(const Layout &L, const DerivativeKey &Key) {
  for (unsigned I = 0; I < L.Shadow.size(); ++I)
    if (L.Shadow[I] && Key.Fn->getArg(I)->getType()->isPointerTy() &&
        Key.Args[I] == ArgActivity::Const)
      return true;
  return false;
}

/// Matches \p User's parameters against f's in Enzyme's order, followed by
/// \p Trailing and, if \p AllowTape, one more (the tape).  A layout that
/// fits but wants a shadow the call does not have sets \p MissingShadow.
std::optional<Layout> matchUser(const DerivativeKey &Key, const Function &User,
                                bool Forward, ArrayRef<Type *> Trailing,
                                bool AllowTape, bool &HasTape,
                                bool &MissingShadow) {
  const Function &F = *Key.Fn;
  MissingShadow = false;
  for (int Form = 0; Form < 4; ++Form) {
    bool IntegersTwice = Form & 1;
    Layout L = layoutFor(F, Forward, IntegersTwice, Form & 2 ? &Key : nullptr);
    L.Types.append(Trailing.begin(), Trailing.end());
    size_t N = L.Types.size();
    SourceSignature Src(User);
    if (Src.Params.size() != N && !(AllowTape && Src.Params.size() == N + 1))
      continue;
    if (!equal(ArrayRef<Type *>(Src.Params).take_front(N), L.Types))
      continue;
    if (needsMissingShadow(L, Key)) {
      MissingShadow = true;
      continue;
    }
    HasTape = Src.Params.size() == N + 1;
    return L;
  }
  return std::nullopt;
}

bool mismatch(Diagnostics &Diags, const Function &F, StringRef Global,
              const Function &User, bool Forward, ArrayRef<Type *> Trailing,
              StringRef Extra, bool MissingShadow) {
  if (MissingShadow) {
    Diags.error(F, DebugLoc(),
                "'" + Global + "': '" + User.getName() +
                    "' takes a shadow for a pointer argument of '" +
                    F.getName() +
                    "' that is constant at a call, so there is none to pass "
                    "(register functions without that shadow, as Enzyme "
                    "does for constant arguments)");
    return false;
  }
  Layout L = layoutFor(F, Forward, /*IntegersTwice=*/false);
  L.Types.append(Trailing.begin(), Trailing.end());
  SmallVector<Type *, 16> Have(SourceSignature(User).Params);
  Diags.error(F, DebugLoc(),
              "'" + Global + "': '" + User.getName() + "' takes " +
                  typeList(Have) + ", which does not fit '" + F.getName() +
                  "': expected " + typeList(L.Types) + Extra);
  return false;
}

/// The user's arguments for f's parameters, from derivative \p D's.
SmallVector<Value *, 16> userArgs(const Layout &L, Function &D,
                                  const DerivativeSignature &Sig) {
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < L.Shadow.size(); ++I) {
    Value *P = D.getArg(Sig.PrimalParam[I]);
    Args.push_back(P);
    if (!L.Shadow[I])
      continue;
    if (Sig.ShadowParam[I] >= 0)
      Args.push_back(D.getArg(Sig.ShadowParam[I]));
    else if (P->getType()->isFPOrFPVectorTy())
      Args.push_back(Constant::getNullValue(P->getType())); // no tangent
    else
      Args.push_back(P); // an integer's "shadow" is its value
  }
  return Args;
}

/// f's result when the user's function does not return it: f is called
/// again, which is only sound when it has no effects through pointers.
Value *primalByCall(IRBuilder<> &B, Function &F, Function &D,
                    const DerivativeSignature &Sig, StringRef Global,
                    Diagnostics &Diags) {
  bool Pure = F.onlyReadsMemory() || none_of(F.args(), [](const Argument &A) {
                return A.getType()->isPointerTy();
              });
  if (!Pure) {
    Diags.error(F, DebugLoc(),
                "'" + Global + "' does not return the result of '" +
                    F.getName() +
                    "', which its caller uses (return {tape, "
                    "result} from the augmented function, {result, tangent} "
                    "from the forward one)");
    return nullptr;
  }
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < F.arg_size(); ++I)
    Args.push_back(D.getArg(Sig.PrimalParam[I]));
  CallInst *C = B.CreateCall(&F, Args);
  C->setCallingConv(F.getCallingConv());
  return C;
}

/// Where the augmented function puts the tape, f's result and the shadow
/// of a returned pointer (-1: not there; Whole: the result itself).
struct AugShape {
  static constexpr int Whole = -2;
  int Tape = -1, Primal = -1, Shadow = -1;
};

AugShape shapeOf(const Function &F, const Function &Aug) {
  Type *UR = SourceSignature(Aug).Ret, *RetTy = F.getReturnType();
  AugShape S;
  if (UR->isVoidTy())
    return S;
  if (!RetTy->isVoidTy() && UR == RetTy) {
    S.Primal = AugShape::Whole;
    return S;
  }
  auto *ST = dyn_cast<StructType>(UR);
  unsigned N = ST ? ST->getNumElements() : 0;
  if (!RetTy->isVoidTy() && (N == 2 || N == 3) &&
      ST->getElementType(1) == RetTy &&
      (N == 2 || ST->getElementType(2) == RetTy)) {
    S.Tape = 0;
    S.Primal = 1;
    S.Shadow = N == 3 ? 2 : -1;
    return S;
  }
  S.Tape = AugShape::Whole;
  return S;
}

Value *part(IRBuilder<> &B, Value *R, int Index) {
  if (Index == -1)
    return nullptr;
  return Index == AugShape::Whole ? R : B.CreateExtractValue(R, Index);
}

/// \p V as \p Ty, a type of the same size, through memory.
Value *coerce(IRBuilder<> &B, Value *V, Type *Ty) {
  if (V->getType() == Ty)
    return V;
  Function &F = *B.GetInsertBlock()->getParent();
  const DataLayout &DL = F.getDataLayout();
  IRBuilder<> Entry(&F.getEntryBlock(),
                    F.getEntryBlock().getFirstInsertionPt());
  Type *Big = DL.getTypeAllocSize(Ty) > DL.getTypeAllocSize(V->getType())
                  ? Ty
                  : V->getType();
  Value *Slot = Entry.CreateAlloca(Big, DL.getAllocaAddrSpace());
  B.CreateStore(V, Slot);
  return B.CreateLoad(Ty, Slot);
}

IRBuilder<> entryBuilder(Function &D) {
  return IRBuilder<>(BasicBlock::Create(D.getContext(), "entry", &D));
}

void returnValue(IRBuilder<> &B, Value *V) {
  if (V)
    B.CreateRet(V);
  else
    B.CreateRetVoid();
}

} // namespace

bool checkCustomRule(const CustomRule &Rule, const DerivativeKey &Key,
                     Diagnostics &Diags) {
  Function &F = *Key.Fn;
  bool Forward = Key.Mode == DiffMode::Forward;
  if (Forward ? !Rule.Forward && !Rule.SplitForward : !Rule.Augmented) {
    std::string Have = !Rule.GradientGlobal.empty()     ? Rule.GradientGlobal
                       : !Rule.DerivativeGlobal.empty() ? Rule.DerivativeGlobal
                                                        : Rule.SplitGlobal;
    Diags.error(F, DebugLoc(),
                "'" + F.getName() + "' is called in " + modeName(Key.Mode) +
                    " mode, which its registration '" + Have +
                    "' does not cover (" +
                    (Forward ? "__enzyme_register_derivative_"
                             : "__enzyme_register_gradient_") +
                    "... gives that mode)");
    return false;
  }
  StringRef Global = !Forward       ? Rule.GradientGlobal
                     : Rule.Forward ? Rule.DerivativeGlobal
                                    : Rule.SplitGlobal;
  if (Key.Width != 1) {
    Diags.error(F, DebugLoc(),
                "'" + Global +
                    "': a registered derivative takes one shadow "
                    "per argument; it cannot serve width " +
                    Twine(Key.Width));
    return false;
  }
  return true;
}

bool emitCustomForward(const CustomRule &Rule, const DerivativeKey &Key,
                       Function &D, const DerivativeSignature &Sig,
                       Diagnostics &Diags) {
  // A split registration: the augmented function of f's arguments gives
  // the tape (and f's result), the forward one the tangent.
  bool Split = !Rule.Forward;
  Function &F = *Key.Fn, &U = Split ? *Rule.SplitForward : *Rule.Forward;
  StringRef Global = Split ? Rule.SplitGlobal : Rule.DerivativeGlobal;
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  if (Split && SourceSignature(*Rule.SplitAugmented).Params != Params) {
    Diags.error(F, DebugLoc(),
                "'" + Global + "': '" + Rule.SplitAugmented->getName() +
                    "' must take the parameters of '" + F.getName() + "' " +
                    typeList(Params));
    return false;
  }
  bool HasTape = false, Missing = false;
  std::optional<Layout> L =
      matchUser(Key, U, true, {}, Split, HasTape, Missing);
  if (!L)
    return mismatch(Diags, F, Global, U, true, {}, Split ? " and the tape" : "",
                    Missing);
  Type *RetTy = F.getReturnType(), *UR = SourceSignature(U).Ret;
  auto *Pair = dyn_cast<StructType>(UR);
  bool IsPair = Pair && Pair->getNumElements() == 2 &&
                Pair->getElementType(0) == RetTy &&
                Pair->getElementType(1) == RetTy;
  if (!RetTy->isVoidTy() && UR != RetTy && !IsPair) {
    Diags.error(F, DebugLoc(),
                "'" + Global + "': '" + U.getName() +
                    "' must return the tangent of '" + F.getName() +
                    "''s result, or {result, tangent}");
    return false;
  }
  IRBuilder<> B = entryBuilder(D);
  SmallVector<Value *, 16> Args = userArgs(*L, D, Sig);
  Value *AugPrimal = nullptr;
  if (Split) {
    SmallVector<Value *, 8> PrimalArgs;
    for (unsigned I = 0; I < F.arg_size(); ++I)
      PrimalArgs.push_back(D.getArg(Sig.PrimalParam[I]));
    Value *A = callUser(B, *Rule.SplitAugmented, PrimalArgs);
    AugShape S = shapeOf(F, *Rule.SplitAugmented);
    AugPrimal = part(B, A, S.Primal);
    if (HasTape) {
      Value *Tape = part(B, A, S.Tape);
      Type *TapeParamTy = SourceSignature(U).Params.back();
      Args.push_back(Tape ? coerce(B, Tape, TapeParamTy)
                          : UndefValue::get(TapeParamTy));
    }
  }
  Value *R = callUser(B, U, Args);
  Value *Primal = AugPrimal, *Shadow = nullptr;
  if (!RetTy->isVoidTy()) {
    Primal = IsPair ? B.CreateExtractValue(R, 0) : Primal;
    Shadow = IsPair ? B.CreateExtractValue(R, 1) : R;
  }
  if (Sig.ReturnsPrimal && !Primal &&
      !(Primal = primalByCall(B, F, D, Sig, Global, Diags)))
    return false;
  returnValue(B, Sig.packReturn(B, Primal, Shadow));
  ++NumCustom;
  return true;
}

Type *customTapeType(const CustomRule &Rule, const Function &F) {
  Type *Empty = StructType::get(F.getContext());
  if (!Rule.Augmented)
    return Empty;
  AugShape S = shapeOf(F, *Rule.Augmented);
  Type *UR = SourceSignature(*Rule.Augmented).Ret;
  if (S.Tape == AugShape::Whole)
    return UR;
  return S.Tape == 0 ? cast<StructType>(UR)->getElementType(0) : Empty;
}

bool emitCustomAugmented(const CustomRule &Rule, const DerivativeKey &Key,
                         Function &D, const DerivativeSignature &Sig,
                         Diagnostics &Diags) {
  Function &F = *Key.Fn, &U = *Rule.Augmented;
  bool HasTape = false, Missing = false;
  std::optional<Layout> L =
      matchUser(Key, U, false, {}, false, HasTape, Missing);
  if (!L)
    return mismatch(Diags, F, Rule.GradientGlobal, U, false, {}, "", Missing);
  AugShape S = shapeOf(F, U);
  IRBuilder<> B = entryBuilder(D);
  Value *R = callUser(B, U, userArgs(*L, D, Sig));
  Value *Tape = part(B, R, S.Tape);
  if (!Tape)
    Tape = UndefValue::get(customTapeType(Rule, F));
  Value *Primal = part(B, R, S.Primal), *Shadow = part(B, R, S.Shadow);
  if (Sig.ReturnsPrimal && !Primal &&
      !(Primal = primalByCall(B, F, D, Sig, Rule.GradientGlobal, Diags)))
    return false;
  if (Sig.ReturnsShadow && !Shadow) {
    Diags.error(F, DebugLoc(),
                "'" + Rule.GradientGlobal + "': '" + U.getName() +
                    "' must return {tape, result, shadow of the result}: "
                    "the returned pointer of '" +
                    F.getName() + "' carries a derivative");
    return false;
  }
  B.CreateRet(Sig.packAugmented(B, Tape, Primal, Shadow));
  ++NumCustom;
  return true;
}

bool emitCustomBackward(const CustomRule &Rule, const DerivativeKey &Key,
                        Function &D, const DerivativeSignature &Sig,
                        Diagnostics &Diags) {
  Function &F = *Key.Fn, &U = *Rule.Reverse;
  Type *RetTy = F.getReturnType();
  SmallVector<Type *, 1> Seed;
  if (RetTy->isFPOrFPVectorTy())
    Seed.push_back(RetTy);
  bool HasTape = false, Missing = false;
  std::optional<Layout> L =
      matchUser(Key, U, false, Seed, true, HasTape, Missing);
  if (!L)
    return mismatch(Diags, F, Rule.GradientGlobal, U, false, Seed,
                    " and optionally the tape", Missing);
  // The tape may reach the reverse function in another type of the same
  // size: the C ABI coerces small structs (AMDGPU passes {double} as a
  // double).
  Type *TapeTy = customTapeType(Rule, F);
  Type *TapeParamTy = HasTape ? SourceSignature(U).Params.back() : nullptr;
  const DataLayout &DL = F.getDataLayout();
  if (HasTape && TapeParamTy != TapeTy &&
      (!TapeParamTy->isSized() || !TapeTy->isSized() ||
       DL.getTypeStoreSize(TapeParamTy) != DL.getTypeStoreSize(TapeTy)))
    return mismatch(Diags, F, Rule.GradientGlobal, U, false, Seed,
                    " and the augmented function's tape type", false);
  // The adjoints come back for every float parameter, in order.
  SmallVector<Type *, 4> Floats;
  SmallVector<int, 8> FloatIndex;
  for (const Argument &A : F.args()) {
    bool IsFloat = A.getType()->isFPOrFPVectorTy();
    FloatIndex.push_back(IsFloat ? Floats.size() : -1);
    if (IsFloat)
      Floats.push_back(A.getType());
  }
  Type *UR = SourceSignature(U).Ret;
  auto *ST = dyn_cast<StructType>(UR);
  bool Bare = Floats.size() == 1 && UR == Floats[0];
  if (!Floats.empty() && !Bare &&
      !(ST && ST->elements() == ArrayRef<Type *>(Floats))) {
    Diags.error(F, DebugLoc(),
                "'" + Rule.GradientGlobal + "': '" + U.getName() +
                    "' must return the adjoints of the float parameters of '" +
                    F.getName() + "' " + typeList(Floats) +
                    " (one alone, or a struct)");
    return false;
  }
  IRBuilder<> B = entryBuilder(D);
  SmallVector<Value *, 16> Args = userArgs(*L, D, Sig);
  if (!Seed.empty())
    Args.push_back(Sig.SeedParam >= 0
                       ? static_cast<Value *>(D.getArg(Sig.SeedParam))
                       : Constant::getNullValue(RetTy));
  if (HasTape)
    Args.push_back(coerce(B, D.getArg(Sig.TapeParam), TapeParamTy));
  Value *R = callUser(B, U, Args);
  SmallVector<Value *, 4> Adjoints;
  for (unsigned I : Sig.AdjointArgs)
    Adjoints.push_back(Bare ? static_cast<Value *>(R)
                            : B.CreateExtractValue(R, FloatIndex[I]));
  returnValue(B, Sig.packAdjoints(B, nullptr, Adjoints));
  return true;
}

void emitCombinedFromHalves(Function &D, const DerivativeSignature &Sig,
                            const DerivativeKey &Key, Function &Aug,
                            const DerivativeSignature &AugSig, Function &Bwd,
                            const DerivativeSignature &BwdSig) {
  IRBuilder<> B = entryBuilder(D);
  SmallVector<Value *, 16> Args;
  for (Argument &A : D.args())
    Args.push_back(&A);
  CallInst *A = B.CreateCall(&Aug, Args);
  Value *Tape = AugSig.field(B, A, AugSig.TapeField);
  Value *Primal = AugSig.field(B, A, AugSig.PrimalField);
  SmallVector<Value *, 16> BArgs(BwdSig.Type->getNumParams());
  for (unsigned P = 0; P < Args.size(); ++P)
    BArgs[P] = Args[P];
  if (BwdSig.SeedParam >= 0)
    BArgs[BwdSig.SeedParam] =
        ConstantFP::get(Key.Fn->getReturnType(), 1.0); // the request's seed
  if (BwdSig.TapeParam >= 0)
    BArgs[BwdSig.TapeParam] = Tape;
  CallInst *R = B.CreateCall(&Bwd, BArgs);
  SmallVector<Value *, 4> Adjoints;
  for (unsigned K = 0; K < BwdSig.AdjointArgs.size(); ++K)
    Adjoints.push_back(BwdSig.adjointOf(B, R, K));
  returnValue(B, Sig.packAdjoints(B, Primal, Adjoints));
}

} // namespace gpuad
