//===- PtxLogic.cpp - Inline PTX: logic, bit fields, comparisons ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Rules for PTX's bitwise instructions and comparisons: and/or/xor/not,
/// shifts (amounts past the width give 0 or the sign, as on the GPU),
/// funnel shifts, bit fields (bfe, bfi, bfind, bmsk, szext), bit counts,
/// byte permutes (prmt in every mode), three-input logic (lop3, from any
/// lookup table, constant or not), and the comparisons setp, set, selp and
/// slct.  Every result is computed from the operands as IR, so constant
/// operands fold away on the host.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace gpuad::emu::ptx {

namespace {

PtxType u32() { return {PtxType::Unsigned, 32}; }

bool wantOperands(Emitter &E, unsigned N) {
  return E.size() == N ||
         E.fail("the form of " + E.S->Opcode + " (" + Twine(N) + " operands)");
}

/// The low \p N bits set, for 0 <= N (N >= the width: all).
Value *lowMask(IRBuilderBase &B, Value *N) {
  Type *T = N->getType();
  unsigned W = T->getIntegerBitWidth();
  Value *All = B.CreateICmpUGE(N, ConstantInt::get(T, W));
  Value *Shift = B.CreateSelect(All, ConstantInt::get(T, 0), N);
  Value *Mask = B.CreateSub(B.CreateShl(ConstantInt::get(T, 1), Shift),
                            ConstantInt::get(T, 1));
  return B.CreateSelect(All, Constant::getAllOnesValue(T), Mask);
}

/// `and/or/xor.type d, a, b` and `not/cnot.type d, a` (also predicates).
bool logic(Emitter &E) {
  PtxType T = E.type();
  StringRef Op = E.S->Opcode;
  bool Unary = Op == "not" || Op == "cnot";
  if (!wantOperands(E, Unary ? 2 : 3) || T.isFloat())
    return E.fail("the form of " + Op);
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, T);
  if (Op == "not")
    return E.write(0, B.CreateNot(A), T);
  if (Op == "cnot")
    return E.write(0, B.CreateZExt(B.CreateIsNull(A), A->getType()), T);
  Value *Bv = E.read(2, T);
  Value *R = Op == "and"  ? B.CreateAnd(A, Bv)
             : Op == "or" ? B.CreateOr(A, Bv)
                          : B.CreateXor(A, Bv);
  return E.write(0, R, T);
}

/// `shl.bN d, a, b` and `shr.{b,u,s}N d, a, b`: b is an unsigned 32-bit
/// amount; past the width, 0 (or the sign for shr.s).
bool shift(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3) || T.isFloat())
    return E.fail("the form of " + E.S->Opcode);
  IRBuilderBase &B = E.B;
  unsigned W = T.Width;
  Value *A = E.read(1, T);
  Value *Amount = E.read(2, u32());
  Value *Big = B.CreateICmpUGE(Amount, B.getInt32(W));
  Value *N = E.resize(B.CreateSelect(Big, B.getInt32(W - 1), Amount), W, false);
  if (E.S->Opcode == "shr" && T.isSigned())
    return E.write(0, B.CreateAShr(A, N), T);
  Value *R = E.S->Opcode == "shl" ? B.CreateShl(A, N) : B.CreateLShr(A, N);
  return E.write(0, B.CreateSelect(Big, B.getIntN(W, 0), R), T);
}

/// `shf.{l,r}.{clamp,wrap}.b32 d, a, b, c`: the 64-bit {b, a} shifted by c
/// (clamped to 32 or taken mod 32); the upper (l) or lower (r) half.
bool funnel(Emitter &E) {
  if (!wantOperands(E, 4) || E.type().Width != 32)
    return E.fail("the form of shf");
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, u32()), *Bv = E.read(2, u32()), *C = E.read(3, u32());
  Value *N = E.has("clamp")
                 ? B.CreateBinaryIntrinsic(Intrinsic::umin, C, B.getInt32(32))
                 : B.CreateAnd(C, 31);
  Value *Both = B.CreateOr(B.CreateShl(B.CreateZExt(Bv, B.getInt64Ty()), 32),
                           B.CreateZExt(A, B.getInt64Ty()));
  Value *N64 = B.CreateZExt(N, B.getInt64Ty());
  Value *R = E.has("l") ? B.CreateLShr(B.CreateShl(Both, N64), 32)
                        : B.CreateLShr(Both, N64);
  return E.write(0, B.CreateTrunc(R, B.getInt32Ty()), u32());
}

/// `bfe.{u,s}{32,64} d, a, pos, len`: len bits from pos, zero- or
/// sign-extended (from the field's top bit inside a).
bool bfe(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 4) || T.isFloat() || T.K == PtxType::Bits)
    return E.fail("the form of bfe");
  IRBuilderBase &B = E.B;
  unsigned W = T.Width;
  Value *A = E.read(1, T);
  Value *Pos = E.resize(B.CreateAnd(E.read(2, u32()), 0xff), W, false);
  Value *Len = E.resize(B.CreateAnd(E.read(3, u32()), 0xff), W, false);
  Value *WidthV = B.getIntN(W, W);
  Value *PosC = B.CreateBinaryIntrinsic(Intrinsic::umin, Pos, WidthV);
  Value *Out = B.CreateICmpEQ(PosC, WidthV);
  Value *Shifted = B.CreateSelect(
      Out, B.getIntN(W, 0),
      B.CreateLShr(A, B.CreateSelect(Out, B.getIntN(W, 0), PosC)));
  Value *Eff =
      B.CreateBinaryIntrinsic(Intrinsic::umin, Len, B.CreateSub(WidthV, PosC));
  Value *Mask = lowMask(B, Eff);
  Value *R = B.CreateAnd(Shifted, Mask);
  if (T.isSigned()) {
    Value *Top = B.CreateBinaryIntrinsic(
        Intrinsic::umin, B.CreateSub(B.CreateAdd(Pos, Len), B.getIntN(W, 1)),
        B.getIntN(W, W - 1));
    Value *Sign =
        B.CreateAnd(B.CreateTrunc(B.CreateLShr(A, Top), B.getInt1Ty()),
                    B.CreateICmpNE(Len, B.getIntN(W, 0)));
    R = B.CreateSelect(Sign, B.CreateOr(R, B.CreateNot(Mask)), R);
  }
  return E.write(0, R, T);
}

/// `bfi.bN f, a, b, pos, len`: b with len bits from pos replaced by a's low
/// bits.
bool bfi(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 5) || T.isFloat())
    return E.fail("the form of bfi");
  IRBuilderBase &B = E.B;
  unsigned W = T.Width;
  Value *A = E.read(1, T), *Bv = E.read(2, T);
  Value *Pos = E.resize(B.CreateAnd(E.read(3, u32()), 0xff), W, false);
  Value *Len = E.resize(B.CreateAnd(E.read(4, u32()), 0xff), W, false);
  Value *Out = B.CreateICmpUGE(Pos, B.getIntN(W, W));
  Value *At = B.CreateSelect(Out, B.getIntN(W, 0), Pos);
  Value *Mask =
      B.CreateSelect(Out, B.getIntN(W, 0), B.CreateShl(lowMask(B, Len), At));
  Value *R = B.CreateOr(B.CreateAnd(Bv, B.CreateNot(Mask)),
                        B.CreateAnd(B.CreateShl(A, At), Mask));
  return E.write(0, R, T);
}

/// `bfind{.shiftamt}.{u,s}{32,64} d, a`: the position of the highest
/// non-sign bit (or its distance from the top), 0xffffffff if none.
bool bfind(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 2) || T.isFloat())
    return E.fail("the form of bfind");
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, T);
  if (T.isSigned())
    A = B.CreateSelect(B.CreateIsNeg(A), B.CreateNot(A), A);
  Value *Lead = E.resize(
      B.CreateBinaryIntrinsic(Intrinsic::ctlz, A, B.getFalse()), 32, false);
  Value *R =
      E.has("shiftamt") ? Lead : B.CreateSub(B.getInt32(T.Width - 1), Lead);
  return E.write(0, B.CreateSelect(B.CreateIsNull(A), B.getInt32(~0u), R),
                 u32());
}

/// `bmsk.{clamp,wrap}.b32 d, pos, len`: len set bits from pos.
bool bmsk(Emitter &E) {
  if (!wantOperands(E, 3) || E.type().Width != 32)
    return E.fail("the form of bmsk");
  IRBuilderBase &B = E.B;
  Value *Pos = E.read(1, u32()), *Len = E.read(2, u32());
  if (E.has("wrap")) {
    Pos = B.CreateAnd(Pos, 31);
    Len = B.CreateAnd(Len, 31);
  } else {
    Pos = B.CreateBinaryIntrinsic(Intrinsic::umin, Pos, B.getInt32(32));
    Len = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, B.getInt32(32));
  }
  Value *R = B.CreateAnd(lowMask(B, B.CreateAdd(Pos, Len)),
                         B.CreateNot(lowMask(B, Pos)));
  return E.write(0, R, u32());
}

/// `szext.{clamp,wrap}.{u32,s32} d, a, n`: a's low n bits, zero- or
/// sign-extended.
bool szext(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 3) || T.Width != 32 || T.isFloat())
    return E.fail("the form of szext");
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, u32()), *N = E.read(2, u32());
  N = E.has("wrap")
          ? B.CreateAnd(N, 31)
          : B.CreateBinaryIntrinsic(Intrinsic::umin, N, B.getInt32(32));
  Value *Full = B.CreateICmpEQ(N, B.getInt32(32));
  Value *Up =
      B.CreateSelect(Full, B.getInt32(0), B.CreateSub(B.getInt32(32), N));
  Value *R = T.isSigned() ? B.CreateAShr(B.CreateShl(A, Up), Up)
                          : B.CreateAnd(A, lowMask(B, N));
  return E.write(0, B.CreateSelect(B.CreateIsNull(N), B.getInt32(0), R), T);
}

/// `brev.bN d, a`, `popc.bN d, a` and `clz.bN d, a` (the counts are u32).
bool bitCount(Emitter &E) {
  PtxType T = E.type();
  StringRef Op = E.S->Opcode;
  if (!wantOperands(E, 2) || T.isFloat())
    return E.fail("the form of " + Op);
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, T);
  if (Op == "brev")
    return E.write(0, B.CreateUnaryIntrinsic(Intrinsic::bitreverse, A), T);
  Value *R = Op == "popc"
                 ? B.CreateUnaryIntrinsic(Intrinsic::ctpop, A)
                 : B.CreateBinaryIntrinsic(Intrinsic::ctlz, A, B.getFalse());
  return E.write(0, E.resize(R, 32, false), u32());
}

/// The selector of byte \p I of a prmt in mode \p Mode (c's low bits pick
/// the pattern), and whether its top bit asks for the sign.
Value *permuteSelector(IRBuilderBase &B, StringRef Mode, Value *C, unsigned I) {
  if (Mode.empty())
    return B.CreateAnd(B.CreateLShr(C, 4 * I), 0xf);
  Value *S = B.CreateAnd(C, 3), *Iv = B.getInt32(I);
  if (Mode == "f4e")
    return B.CreateAnd(B.CreateAdd(Iv, S), 7);
  if (Mode == "b4e")
    return B.CreateAnd(B.CreateSub(S, Iv), 7);
  if (Mode == "rc8")
    return S;
  if (Mode == "ecl")
    return B.CreateBinaryIntrinsic(Intrinsic::umax, Iv, S);
  if (Mode == "ecr")
    return B.CreateBinaryIntrinsic(Intrinsic::umin, Iv, S);
  // rc16
  return B.CreateOr(B.getInt32(I & 1), B.CreateShl(B.CreateAnd(S, 1), 1));
}

/// `prmt.b32{.mode} d, a, b, c`: bytes of {b, a} picked by c.
bool prmt(Emitter &E) {
  if (!wantOperands(E, 4) || E.type().Width != 32)
    return E.fail("the form of prmt");
  IRBuilderBase &B = E.B;
  StringRef Mode = E.oneOf({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
  Value *A = E.read(1, u32()), *Bv = E.read(2, u32()), *C = E.read(3, u32());
  Value *Both = B.CreateOr(B.CreateShl(B.CreateZExt(Bv, B.getInt64Ty()), 32),
                           B.CreateZExt(A, B.getInt64Ty()));
  Value *R = B.getInt32(0);
  for (unsigned I = 0; I < 4; ++I) {
    Value *Sel = permuteSelector(B, Mode, C, I);
    Value *At = B.CreateZExt(B.CreateMul(B.CreateAnd(Sel, 7), B.getInt32(8)),
                             B.getInt64Ty());
    Value *Byte = B.CreateAnd(
        B.CreateTrunc(B.CreateLShr(Both, At), B.getInt32Ty()), 0xff);
    if (Mode.empty()) // the selector's bit 3: the byte's sign, replicated
      Byte = B.CreateSelect(
          B.CreateIsNotNull(B.CreateAnd(Sel, 8)),
          B.CreateSelect(B.CreateIsNotNull(B.CreateAnd(Byte, 0x80)),
                         B.getInt32(0xff), B.getInt32(0)),
          Byte);
    R = B.CreateOr(R, B.CreateShl(Byte, 8 * I));
  }
  return E.write(0, R, u32());
}

/// `lop3.b32 d, a, b, c, lut`: bit i of d is lut's bit (a_i b_i c_i) --
/// the OR of the minterms lut selects.
bool lop3(Emitter &E) {
  if (!wantOperands(E, 5) || E.type().Width != 32)
    return E.fail("the form of lop3");
  IRBuilderBase &B = E.B;
  Value *In[3] = {E.read(1, u32()), E.read(2, u32()), E.read(3, u32())};
  Value *Lut = E.read(4, u32());
  Value *R = B.getInt32(0);
  for (unsigned M = 0; M < 8; ++M) {
    Value *Term = B.getInt32(~0u);
    for (unsigned K = 0; K < 3; ++K) // a is bit 2, b bit 1, c bit 0
      Term = B.CreateAnd(Term, (M >> (2 - K) & 1) ? In[K] : B.CreateNot(In[K]));
    Value *Bit = B.CreateAnd(B.CreateLShr(Lut, M), 1);
    R = B.CreateOr(R, B.CreateAnd(Term, B.CreateNeg(Bit)));
  }
  return E.write(0, R, u32());
}

/// `sad.type d, a, b, c`: c + |a - b|.
bool sad(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 4) || T.isFloat())
    return E.fail("the form of sad");
  IRBuilderBase &B = E.B;
  Value *A = E.read(1, T), *Bv = E.read(2, T), *C = E.read(3, T);
  Value *Less = T.isSigned() ? B.CreateICmpSLT(A, Bv) : B.CreateICmpULT(A, Bv);
  Value *Diff = B.CreateSelect(Less, B.CreateSub(Bv, A), B.CreateSub(A, Bv));
  return E.write(0, B.CreateAdd(C, Diff), T);
}

// ---- Comparisons -----------------------------------------------------------

/// The predicate of comparison \p Op on \p T, or BAD_ICMP_PREDICATE.
CmpInst::Predicate comparison(StringRef Op, PtxType T) {
  using P = CmpInst::Predicate;
  if (T.isFloat())
    return StringSwitch<P>(Op)
        .Case("eq", P::FCMP_OEQ)
        .Case("ne", P::FCMP_ONE)
        .Case("lt", P::FCMP_OLT)
        .Case("le", P::FCMP_OLE)
        .Case("gt", P::FCMP_OGT)
        .Case("ge", P::FCMP_OGE)
        .Case("equ", P::FCMP_UEQ)
        .Case("neu", P::FCMP_UNE)
        .Case("ltu", P::FCMP_ULT)
        .Case("leu", P::FCMP_ULE)
        .Case("gtu", P::FCMP_UGT)
        .Case("geu", P::FCMP_UGE)
        .Case("num", P::FCMP_ORD)
        .Case("nan", P::FCMP_UNO)
        .Default(P::BAD_FCMP_PREDICATE);
  bool S = T.isSigned();
  return StringSwitch<P>(Op)
      .Case("eq", P::ICMP_EQ)
      .Case("ne", P::ICMP_NE)
      .Case("lt", S ? P::ICMP_SLT : P::ICMP_ULT)
      .Case("le", S ? P::ICMP_SLE : P::ICMP_ULE)
      .Case("gt", S ? P::ICMP_SGT : P::ICMP_UGT)
      .Case("ge", S ? P::ICMP_SGE : P::ICMP_UGE)
      .Case("lo", P::ICMP_ULT)
      .Case("ls", P::ICMP_ULE)
      .Case("hi", P::ICMP_UGT)
      .Case("hs", P::ICMP_UGE)
      .Default(P::BAD_ICMP_PREDICATE);
}

/// The comparison of `setp`/`set` (its first modifier) on operands 1 and 2
/// of type \p T, combined with the predicate operand 3 by the boolean
/// modifier if there is one; \p Negate compares the opposite (setp's q).
Value *compare(Emitter &E, PtxType T, bool Negate, Value *&Plain) {
  IRBuilderBase &B = E.B;
  CmpInst::Predicate P = comparison(E.S->Mods.front(), T);
  if (P == CmpInst::BAD_ICMP_PREDICATE || P == CmpInst::BAD_FCMP_PREDICATE) {
    E.fail("the comparison '" + E.S->Mods.front() + "'");
    return B.getFalse();
  }
  if (!Plain)
    Plain = B.CreateCmp(P, E.read(1, T), E.read(2, T));
  Value *R = Negate ? B.CreateNot(Plain) : Plain;
  StringRef Bool = E.oneOf({"and", "or", "xor"});
  if (Bool.empty())
    return R;
  Value *C = E.predicate(3);
  return Bool == "and"  ? B.CreateAnd(R, C)
         : Bool == "or" ? B.CreateOr(R, C)
                        : B.CreateXor(R, C);
}

/// `setp.cmp{.bool}.type p[|q], a, b{, {!}c}`.
bool setp(Emitter &E) {
  PtxType T = E.type();
  bool Bool = !E.oneOf({"and", "or", "xor"}).empty();
  if (!wantOperands(E, Bool ? 4 : 3) || E.S->Mods.empty())
    return false;
  Value *Plain = nullptr;
  Value *P = compare(E, T, false, Plain);
  if (!E.write(0, P, PtxType::pred()))
    return false;
  return E.op(0).Pair.empty() || E.writePair(0, compare(E, T, true, Plain));
}

/// `set.cmp{.bool}.dtype.stype d, a, b{, {!}c}`: all ones (1.0 for f32)
/// or 0.
bool set(Emitter &E) {
  PtxType D = E.type(0), S = E.type(1);
  bool Bool = !E.oneOf({"and", "or", "xor"}).empty();
  if (!wantOperands(E, Bool ? 4 : 3) || E.S->Mods.empty() || !S.valid())
    return E.fail("the form of set");
  Value *Plain = nullptr;
  Value *P = compare(E, S, false, Plain);
  IRBuilderBase &B = E.B;
  Type *DT = D.irType(B.getContext());
  Value *True =
      D.isFloat() ? ConstantFP::get(DT, 1.0) : Constant::getAllOnesValue(DT);
  return E.write(0, B.CreateSelect(P, True, Constant::getNullValue(DT)), D);
}

/// `selp.type d, a, b, c`: c ? a : b.
bool selp(Emitter &E) {
  PtxType T = E.type();
  if (!wantOperands(E, 4))
    return false;
  return E.write(
      0, E.B.CreateSelect(E.predicate(3), E.read(1, T), E.read(2, T)), T);
}

/// `slct.dtype.{s32,f32} d, a, b, c`: c >= 0 ? a : b.
bool slct(Emitter &E) {
  PtxType D = E.type(0), S = E.type(1);
  if (!wantOperands(E, 4) || !S.valid())
    return E.fail("the form of slct");
  IRBuilderBase &B = E.B;
  Value *C = E.read(3, S);
  Value *NonNeg = S.isFloat()
                      ? B.CreateFCmpOGE(C, ConstantFP::get(C->getType(), 0.0))
                      : B.CreateICmpSGE(C, ConstantInt::get(C->getType(), 0));
  return E.write(0, B.CreateSelect(NonNeg, E.read(1, D), E.read(2, D)), D);
}

constexpr const char *Comparisons =
    "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or "
    "xor ftz";

const RuleRow Rows[] = {
    {"and", logic, ""},
    {"or", logic, ""},
    {"xor", logic, ""},
    {"not", logic, ""},
    {"cnot", logic, ""},
    {"shl", shift, ""},
    {"shr", shift, ""},
    {"shf", funnel, "l r clamp wrap"},
    {"bfe", bfe, ""},
    {"bfi", bfi, ""},
    {"bfind", bfind, "shiftamt"},
    {"bmsk", bmsk, "clamp wrap"},
    {"szext", szext, "clamp wrap"},
    {"brev", bitCount, ""},
    {"popc", bitCount, ""},
    {"clz", bitCount, ""},
    {"prmt", prmt, "f4e b4e rc8 ecl ecr rc16"},
    {"lop3", lop3, ""},
    {"sad", sad, ""},
    {"setp", setp, Comparisons},
    {"set", set, Comparisons},
    {"selp", selp, ""},
    {"slct", slct, "ftz"},
};

} // namespace

ArrayRef<RuleRow> logicRules() { return Rows; }

} // namespace gpuad::emu::ptx
