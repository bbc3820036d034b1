//===- PtxArithmetic.cpp - Inline PTX: moves, conversions, arithmetic -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Rules for PTX's register-to-register instructions, each as the IR that
/// computes the same bits: moves (also packing `{lo, hi}` and unpacking),
/// conversions (`cvt` with its rounding and saturation), integer, bit-field
/// and floating-point arithmetic, comparisons (`setp` with its boolean
/// combination, `selp`, `slct`) and byte permutes.  Floating point is
/// round-to-nearest unless an instruction asks otherwise: `.rz/.rm/.rp`
/// call the emulator's correctly rounded libdevice forms, and `.approx`
/// forms are exact, as for the intrinsics.  Integer division by zero gives
/// all ones instead of a host trap.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu::ptx {

namespace {

/// All operands after the destination, as \p T.
SmallVector<Value *, 4> sources(Emitter &E, PtxType T) {
  SmallVector<Value *, 4> V;
  for (unsigned I = 1; I < E.size(); ++I)
    V.push_back(E.read(I, T));
  return V;
}

bool wantOperands(Emitter &E, unsigned N) {
  return E.size() == N ||
         E.fail("the form of " + E.S->Opcode + " (" + Twine(N) + " operands)");
}

/// The libdevice name of a float operation in the rounding mode .rz, .rm
/// or .rp (`__nv_fadd_rz`), or "" for round-to-nearest.
std::string roundedName(Emitter &E, StringRef Op, PtxType T) {
  StringRef Mode = E.has("rz")   ? "rz"
                   : E.has("rm") ? "rd"
                   : E.has("rp") ? "ru"
                                 : "";
  if (Mode.empty())
    return "";
  if (Op == "fma") // __nv_fmaf_rz, __nv_fma_rz
    return ("__nv_fma" + Twine(T.Width == 64 ? "" : "f") + "_" + Mode).str();
  return ("__nv_" + Twine(T.Width == 64 ? "d" : "f") + Op + "_" + Mode).str();
}

/// Clamps a float to [0, 1] (`.sat`; NaN is 0).
Value *saturate(Emitter &E, Value *V) {
  Type *T = V->getType();
  Value *Lo =
      E.B.CreateBinaryIntrinsic(Intrinsic::maxnum, V, ConstantFP::get(T, 0.0));
  return E.B.CreateBinaryIntrinsic(Intrinsic::minnum, Lo,
                                   ConstantFP::get(T, 1.0));
}

/// A float operation: its exact IR, or the rounded libdevice form.
bool floatOp(Emitter &E, StringRef Op,
             function_ref<Value *(ArrayRef<Value *>)> Nearest) {
  PtxType T = E.type();
  SmallVector<Value *, 4> In = sources(E, T);
  std::string Rounded = roundedName(E, Op, T);
  Value *R;
  if (Rounded.empty())
    R = Nearest(In);
  else if (T.Width == 16)
    return E.fail("half precision with directed rounding");
  else
    R = E.runtime(Rounded, T.irType(E.B.getContext()), In);
  if (E.has("sat"))
    R = saturate(E, R);
  return E.write(0, R, T);
}

// ---- Moves and conversions ----------------------------------------------

/// `mov.type d, a`, and packing `mov.b64 d, {lo, hi}` / unpacking
/// `mov.b64 {lo, hi}, a` (element 0 is the low bits).
bool mov(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 2))
    return false;
  IRBuilderBase &B = E.B;
  if (E.op(1).K == Operand::Vector) {
    const auto &Parts = E.op(1).Elements;
    unsigned W = T.Width / Parts.size();
    Value *Whole = B.getIntN(T.Width, 0);
    for (unsigned I = 0; I < Parts.size(); ++I) {
      Value *P = B.CreateZExt(E.read(Parts[I], PtxType::bits(W)),
                              B.getIntNTy(T.Width));
      Whole = B.CreateOr(Whole, B.CreateShl(P, I * W));
    }
    return E.write(0, Whole, PtxType::bits(T.Width));
  }
  if (E.op(0).K == Operand::Vector) {
    const auto &Parts = E.op(0).Elements;
    unsigned W = T.Width / Parts.size();
    Value *Whole = E.read(1, PtxType::bits(T.Width));
    for (unsigned I = 0; I < Parts.size(); ++I)
      E.write(Parts[I],
              B.CreateTrunc(B.CreateLShr(Whole, I * W), B.getIntNTy(W)),
              PtxType::bits(W));
    return true;
  }
  return E.write(0, E.read(1, T), T);
}

/// Integer to integer: extended by the source's signedness, truncated, or
/// (`.sat`) clamped to the destination's range.
Value *intToInt(Emitter &E, Value *A, PtxType D, PtxType S) {
  if (!E.has("sat"))
    return E.resize(A, D.Width, S.isSigned());
  IRBuilderBase &B = E.B;
  Value *Wide = E.resize(A, 128, S.isSigned());
  APInt Lo = D.isSigned() ? APInt::getSignedMinValue(D.Width).sext(128)
                          : APInt(128, 0);
  APInt Hi = D.isSigned() ? APInt::getSignedMaxValue(D.Width).sext(128)
                          : APInt::getMaxValue(D.Width).zext(128);
  Wide = B.CreateBinaryIntrinsic(Intrinsic::smax, Wide, B.getInt(Lo));
  Wide = B.CreateBinaryIntrinsic(Intrinsic::smin, Wide, B.getInt(Hi));
  return B.CreateTrunc(Wide, B.getIntNTy(D.Width));
}

/// The libdevice conversion for a directed rounding (`__nv_ll2float_rz`).
Value *roundedConversion(Emitter &E, Value *A, PtxType D, PtxType S,
                         StringRef Mode) {
  StringRef From = S.isFloat()     ? "double"
                   : S.Width == 64 ? (S.isSigned() ? "ll" : "ull")
                   : S.isSigned()  ? "int"
                                   : "uint";
  std::string Name =
      ("__nv_" + From + "2" + (D.Width == 64 ? "double" : "float") + "_" + Mode)
          .str();
  Value *Arg =
      S.isFloat() ? A : E.resize(A, std::max(S.Width, 32u), S.isSigned());
  return E.runtime(Name, D.irType(E.B.getContext()), {Arg});
}

/// `cvt{.rnd}{.ftz}{.sat}.dtype.atype d, a`.
bool cvt(Emitter &E) {
  PtxType D = E.type(0), S = E.type(1);
  if (!wantOperands(E, 2) || !D.valid() || !S.valid() || D.K == PtxType::Pred ||
      S.K == PtxType::Pred)
    return E.fail("the form of cvt");
  IRBuilderBase &B = E.B;
  Type *DT = D.irType(B.getContext());
  Value *A = E.read(1, S);
  StringRef Mode =
      E.oneOf({"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"});
  Value *R;
  if (!D.isFloat() && !S.isFloat()) {
    R = intToInt(E, A, D, S);
  } else if (!S.isFloat()) {
    StringRef M = Mode == "rz"   ? "rz"
                  : Mode == "rm" ? "rd"
                  : Mode == "rp" ? "ru"
                                 : "";
    if (!M.empty() && D.Width != 16)
      R = roundedConversion(E, A, D, S, M);
    else if (!M.empty())
      return E.fail("a conversion to half precision with directed rounding");
    else
      R = S.isSigned() ? B.CreateSIToFP(A, DT) : B.CreateUIToFP(A, DT);
  } else {
    // A float source: round to an integral value first if asked (.rzi, ...).
    Intrinsic::ID Round = Mode == "rzi"   ? Intrinsic::trunc
                          : Mode == "rmi" ? Intrinsic::floor
                          : Mode == "rpi" ? Intrinsic::ceil
                          : Mode == "rni" ? Intrinsic::rint
                                          : Intrinsic::not_intrinsic;
    if (!D.isFloat() && Round == Intrinsic::not_intrinsic)
      Round = Intrinsic::trunc; // C's conversion
    if (Round != Intrinsic::not_intrinsic)
      A = B.CreateUnaryIntrinsic(Round, A);
    if (!D.isFloat()) {
      // Out of range saturates and NaN is 0, as fptosi.sat does.
      R = B.CreateIntrinsic(D.isSigned() ? Intrinsic::fptosi_sat
                                         : Intrinsic::fptoui_sat,
                            {DT, A->getType()}, {A});
    } else if (D.Width > S.Width ||
               (D.Width == S.Width && D.BFloat == S.BFloat)) {
      R = D.Width == S.Width ? A : B.CreateFPExt(A, DT);
    } else if (Mode == "rz" || Mode == "rm" || Mode == "rp") {
      if (D.Width != 32 || S.Width != 64)
        return E.fail("this narrowing with directed rounding");
      R = roundedConversion(E, A, D, S,
                            Mode == "rz"   ? "rz"
                            : Mode == "rm" ? "rd"
                                           : "ru");
    } else {
      R = B.CreateFPTrunc(A, DT);
    }
  }
  if (D.isFloat() && E.has("sat"))
    R = saturate(E, R);
  return E.write(0, R, D);
}

// ---- Integer and float arithmetic ----------------------------------------

bool add(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3))
    return false;
  if (T.isFloat())
    return floatOp(E, "add", [&](ArrayRef<Value *> V) {
      return E.B.CreateFAdd(V[0], V[1]);
    });
  auto V = sources(E, T);
  if (E.has("sat"))
    return E.write(
        0, E.B.CreateBinaryIntrinsic(Intrinsic::sadd_sat, V[0], V[1]), T);
  return E.write(0, E.B.CreateAdd(V[0], V[1]), T);
}

bool sub(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3))
    return false;
  if (T.isFloat())
    return floatOp(E, "sub", [&](ArrayRef<Value *> V) {
      return E.B.CreateFSub(V[0], V[1]);
    });
  auto V = sources(E, T);
  if (E.has("sat"))
    return E.write(
        0, E.B.CreateBinaryIntrinsic(Intrinsic::ssub_sat, V[0], V[1]), T);
  return E.write(0, E.B.CreateSub(V[0], V[1]), T);
}

/// Integer mul/mad: `.lo`, `.hi` (the upper half of the double-width
/// product) or `.wide` (all of it, into a register twice as wide).
Value *intProduct(Emitter &E, PtxType T, Value *A, Value *Bv, PtxType &Out) {
  IRBuilderBase &B = E.B;
  Out = T;
  if (E.has("lo") || (!E.has("hi") && !E.has("wide")))
    return B.CreateMul(A, Bv);
  unsigned W = T.Width;
  Value *P = B.CreateMul(E.resize(A, 2 * W, T.isSigned()),
                         E.resize(Bv, 2 * W, T.isSigned()));
  if (E.has("wide")) {
    Out.Width = 2 * W;
    return P;
  }
  return B.CreateTrunc(B.CreateLShr(P, W), B.getIntNTy(W));
}

bool mul(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3))
    return false;
  if (T.isFloat())
    return floatOp(E, "mul", [&](ArrayRef<Value *> V) {
      return E.B.CreateFMul(V[0], V[1]);
    });
  auto V = sources(E, T);
  PtxType Out;
  Value *P = intProduct(E, T, V[0], V[1], Out);
  return E.write(0, P, Out);
}

/// `mad`/`fma`: float a*b+c rounded once; integer mad adds c (of the
/// product's width).
bool fma(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 4))
    return false;
  if (T.isFloat())
    return floatOp(E, "fma", [&](ArrayRef<Value *> V) {
      return E.B.CreateIntrinsic(Intrinsic::fma, {V[0]->getType()}, V);
    });
  if (E.S->Opcode == "fma")
    return E.fail("fma of integers");
  PtxType Out;
  Value *P = intProduct(E, T, E.read(1, T), E.read(2, T), Out);
  return E.write(0, E.B.CreateAdd(P, E.read(3, Out)), Out);
}

/// Integer division and remainder without the host's traps: by zero gives
/// all ones (remainder: the dividend), MIN / -1 gives MIN.
bool divRem(Emitter &E) {
  PtxType T = E.type();
  bool Div = E.S->Opcode == "div";
  if (!wantOperands(E, 3))
    return false;
  if (T.isFloat()) {
    if (!Div)
      return E.fail("rem of floats");
    return floatOp(E, "div", [&](ArrayRef<Value *> V) {
      return E.B.CreateFDiv(V[0], V[1]);
    });
  }
  IRBuilderBase &B = E.B;
  auto V = sources(E, T);
  Value *Zero = B.getIntN(T.Width, 0);
  Value *ByZero = B.CreateICmpEQ(V[1], Zero);
  Value *Unsafe = ByZero;
  if (T.isSigned())
    Unsafe = B.CreateOr(
        Unsafe,
        B.CreateAnd(
            B.CreateICmpEQ(V[0], B.getInt(APInt::getSignedMinValue(T.Width))),
            B.CreateICmpEQ(V[1], B.getIntN(T.Width, -1))));
  Value *Safe = B.CreateSelect(Unsafe, B.getIntN(T.Width, 1), V[1]);
  Value *R = T.isSigned()
                 ? (Div ? B.CreateSDiv(V[0], Safe) : B.CreateSRem(V[0], Safe))
                 : (Div ? B.CreateUDiv(V[0], Safe) : B.CreateURem(V[0], Safe));
  // MIN / -1 == MIN (and MIN % -1 == 0) is what dividing by 1 and negating
  // gives; by zero: all ones, and the dividend for a remainder.
  if (T.isSigned() && Div)
    R = B.CreateSelect(B.CreateAnd(Unsafe, B.CreateNot(ByZero)), V[0], R);
  if (T.isSigned() && !Div)
    R = B.CreateSelect(B.CreateAnd(Unsafe, B.CreateNot(ByZero)), Zero, R);
  R = B.CreateSelect(ByZero, Div ? B.getIntN(T.Width, -1) : V[0], R);
  return E.write(0, R, T);
}

bool absNeg(Emitter &E) {
  PtxType T = E.type();
  bool Abs = E.S->Opcode == "abs";
  if (!wantOperands(E, 2))
    return false;
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, T);
  if (T.isFloat())
    return E.write(
        0, Abs ? B.CreateUnaryIntrinsic(Intrinsic::fabs, A) : B.CreateFNeg(A),
        T);
  return E.write(0,
                 Abs ? B.CreateBinaryIntrinsic(Intrinsic::abs, A, B.getFalse())
                     : B.CreateNeg(A),
                 T);
}

bool minMax(Emitter &E) {
  PtxType T = E.type();
  bool Min = E.S->Opcode == "min";
  if (!wantOperands(E, 3))
    return false;
  auto V = sources(E, T);
  Intrinsic::ID ID;
  if (T.isFloat())
    ID = E.has("NaN") ? (Min ? Intrinsic::minimum : Intrinsic::maximum)
                      : (Min ? Intrinsic::minnum : Intrinsic::maxnum);
  else if (T.isSigned())
    ID = Min ? Intrinsic::smin : Intrinsic::smax;
  else
    ID = Min ? Intrinsic::umin : Intrinsic::umax;
  return E.write(0, E.B.CreateBinaryIntrinsic(ID, V[0], V[1]), T);
}

/// Float-only functions of one operand: rcp, sqrt, rsqrt, ex2, lg2, sin,
/// cos, tanh (approximations exact).
bool floatUnary(Emitter &E) {
  PtxType T = E.type();
  StringRef Op = E.S->Opcode;
  if (!wantOperands(E, 2) || !T.isFloat())
    return E.fail("the form of " + Op);
  IRBuilderBase &B = E.B;
  auto Unary = [&](Intrinsic::ID ID) {
    return [&B, ID](ArrayRef<Value *> V) {
      return B.CreateUnaryIntrinsic(ID, V[0]);
    };
  };
  if (Op == "rcp")
    return floatOp(E, "rcp", [&](ArrayRef<Value *> V) {
      return B.CreateFDiv(ConstantFP::get(V[0]->getType(), 1.0), V[0]);
    });
  if (Op == "sqrt")
    return floatOp(E, "sqrt", Unary(Intrinsic::sqrt));
  if (Op == "rsqrt")
    return floatOp(E, "rsqrt", [&](ArrayRef<Value *> V) {
      return B.CreateFDiv(ConstantFP::get(V[0]->getType(), 1.0),
                          B.CreateUnaryIntrinsic(Intrinsic::sqrt, V[0]));
    });
  Intrinsic::ID ID = StringSwitch<Intrinsic::ID>(Op)
                         .Case("ex2", Intrinsic::exp2)
                         .Case("lg2", Intrinsic::log2)
                         .Case("sin", Intrinsic::sin)
                         .Case("cos", Intrinsic::cos)
                         .Case("tanh", Intrinsic::tanh)
                         .Default(Intrinsic::not_intrinsic);
  return floatOp(E, Op, Unary(ID));
}

/// `copysign.type d, a, b`: b's magnitude with a's sign.
bool copysign(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3))
    return false;
  auto V = sources(E, T);
  return E.write(0, E.B.CreateBinaryIntrinsic(Intrinsic::copysign, V[1], V[0]),
                 T);
}

/// `testp.class.type p, a`.
bool testp(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 2) || !T.isFloat())
    return E.fail("the form of testp");
  FPClassTest Class = E.has("finite")       ? fcFinite
                      : E.has("infinite")   ? fcInf
                      : E.has("number")     ? ~fcNan & fcAllFlags
                      : E.has("notanumber") ? fcNan
                      : E.has("normal")     ? fcNormal
                      : E.has("subnormal")  ? fcSubnormal
                                            : fcNone;
  return E.write(0, E.B.createIsFPClass(E.read(1, T), Class), PtxType::pred());
}

const char *const FloatMods = "rn rz rm rp ftz sat approx full";

const RuleRow Rows[] = {
    {"mov", mov, ""},
    {"cvt", cvt, "rn rz rm rp rni rzi rmi rpi ftz sat"},
    {"add", add, "rn rz rm rp ftz sat"},
    {"sub", sub, "rn rz rm rp ftz sat"},
    {"mul", mul, "lo hi wide rn rz rm rp ftz sat"},
    {"mad", fma, "lo hi wide rn rz rm rp ftz sat"},
    {"fma", fma, "rn rz rm rp ftz sat"},
    {"div", divRem, "approx full rn rz rm rp ftz"},
    {"rem", divRem, ""},
    {"abs", absNeg, "ftz"},
    {"neg", absNeg, "ftz"},
    {"min", minMax, "ftz NaN"},
    {"max", minMax, "ftz NaN"},
    {"rcp", floatUnary, FloatMods},
    {"sqrt", floatUnary, FloatMods},
    {"rsqrt", floatUnary, "approx ftz"},
    {"ex2", floatUnary, "approx ftz"},
    {"lg2", floatUnary, "approx ftz"},
    {"sin", floatUnary, "approx ftz"},
    {"cos", floatUnary, "approx ftz"},
    {"tanh", floatUnary, "approx"},
    {"copysign", copysign, ""},
    {"testp", testp, "finite infinite number notanumber normal subnormal"},
};

} // namespace

ArrayRef<RuleRow> arithmeticRules() { return Rows; }

} // namespace gpuad::emu::ptx
