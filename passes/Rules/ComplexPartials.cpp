//===- ComplexPartials.cpp - Partials of complex functions ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/ComplexPartials.h"

#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace gpuad {
namespace complex_partials {

namespace {

/// A complex value as its two real parts.
struct Cx {
  Value *Re, *Im;
};

Value *constant(RuleContext &R, double V) { return R.constant(V); }
Value *fabsOf(RuleContext &R, Value *V) {
  return R.B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
}

/// Complex operand \p K (0 or 1) and the complex result.
Cx operand(RuleContext &R, unsigned K) {
  return {R.operand(2 * K), R.operand(2 * K + 1)};
}
Cx result(RuleContext &R) { return {R.resultPart(0), R.resultPart(1)}; }

Cx mul(RuleContext &R, Cx A, Cx C) {
  IRBuilderBase &B = R.B;
  return {B.CreateFSub(B.CreateFMul(A.Re, C.Re), B.CreateFMul(A.Im, C.Im)),
          B.CreateFAdd(B.CreateFMul(A.Re, C.Im), B.CreateFMul(A.Im, C.Re))};
}
Cx scale(RuleContext &R, double S, Cx A) {
  return {R.B.CreateFMul(constant(R, S), A.Re),
          R.B.CreateFMul(constant(R, S), A.Im)};
}
Cx neg(RuleContext &R, Cx A) {
  return {R.B.CreateFNeg(A.Re), R.B.CreateFNeg(A.Im)};
}
Cx addReal(RuleContext &R, double S, Cx A) {
  return {R.B.CreateFAdd(constant(R, S), A.Re), A.Im};
}
Cx select(RuleContext &R, Value *Cond, Cx T, Cx F) {
  return {R.B.CreateSelect(Cond, T.Re, F.Re),
          R.B.CreateSelect(Cond, T.Im, F.Im)};
}
Value *isZero(RuleContext &R, Cx Z) {
  return R.B.CreateAnd(R.B.CreateFCmpOEQ(Z.Re, constant(R, 0.0)),
                       R.B.CreateFCmpOEQ(Z.Im, constant(R, 0.0)));
}

/// 1 / z by Smith's method: |z|^2 is never formed, so neither overflows
/// nor underflows where 1 / z is representable.
///   |x| >= |y|: t = y / x, d = x + y t, 1 / z = (1 - i t) / d
///   otherwise:  t = x / y, d = y + x t, 1 / z = (t - i) / d
Cx inverse(RuleContext &R, Cx Z) {
  IRBuilderBase &B = R.B;
  Value *XBig = B.CreateFCmpOGE(fabsOf(R, Z.Re), fabsOf(R, Z.Im));
  Value *Big = B.CreateSelect(XBig, Z.Re, Z.Im);
  Value *Small = B.CreateSelect(XBig, Z.Im, Z.Re);
  Value *T = B.CreateFDiv(Small, Big);
  Value *InvD =
      B.CreateFDiv(constant(R, 1.0), B.CreateFAdd(Big, B.CreateFMul(Small, T)));
  Value *TOverD = B.CreateFMul(T, InvD);
  return {B.CreateSelect(XBig, InvD, TOverD),
          B.CreateFNeg(B.CreateSelect(XBig, TOverD, InvD))};
}

/// The principal logarithm: log|z| + i arg z, |z| scaled by the larger part
/// so that it neither overflows nor underflows.
Cx logOf(RuleContext &R, Cx Z) {
  IRBuilderBase &B = R.B;
  Value *S = B.CreateBinaryIntrinsic(Intrinsic::maxnum, fabsOf(R, Z.Re),
                                     fabsOf(R, Z.Im));
  Value *X = B.CreateFDiv(Z.Re, S), *Y = B.CreateFDiv(Z.Im, S);
  Value *Norm = B.CreateFAdd(B.CreateFMul(X, X), B.CreateFMul(Y, Y));
  Value *LogAbs =
      B.CreateFAdd(R.math(MathFn::Log, {S}),
                   B.CreateFMul(constant(R, 0.5), R.math(MathFn::Log, {Norm})));
  return {LogAbs, R.math(MathFn::Atan2, {Z.Im, Z.Re})};
}

/// The Jacobian of a function with complex derivative \p D.
ComplexJacobian holomorphic(RuleContext &R, Cx D) {
  return {D.Re, R.B.CreateFNeg(D.Im), D.Im, D.Re};
}

} // namespace

ComplexJacobian mul1(RuleContext &R) { return holomorphic(R, operand(R, 1)); }
ComplexJacobian mul2(RuleContext &R) { return holomorphic(R, operand(R, 0)); }
ComplexJacobian div1(RuleContext &R) {
  return holomorphic(R, inverse(R, operand(R, 1)));
}
// d(z1 / z2)/dz2 = -z1 / z2^2 = -r / z2.
ComplexJacobian div2(RuleContext &R) {
  return holomorphic(R, neg(R, mul(R, result(R), inverse(R, operand(R, 1)))));
}

// |z|: (x, y) / |z|, and 0 at z = 0 (as fabs' derivative is there).
ComplexJacobian abs(RuleContext &R) {
  IRBuilderBase &B = R.B;
  Value *Abs = R.result();
  Value *AtZero = B.CreateFCmpOEQ(Abs, constant(R, 0.0));
  auto Part = [&](Value *V) {
    return B.CreateSelect(AtZero, constant(R, 0.0), B.CreateFDiv(V, Abs));
  };
  return {Part(R.operand(0)), Part(R.operand(1)), nullptr, nullptr};
}

// arg z = Im log z, so its gradient is the imaginary row of holomorphic(1/z):
// (-y, x) / |z|^2.
ComplexJacobian arg(RuleContext &R) {
  Cx W = inverse(R, operand(R, 0));
  return {W.Im, W.Re, nullptr, nullptr};
}

ComplexJacobian exp(RuleContext &R) { return holomorphic(R, result(R)); }
ComplexJacobian log(RuleContext &R) {
  return holomorphic(R, inverse(R, operand(R, 0)));
}
// 1 / (2 sqrt z), at the result: the branch the function took.
ComplexJacobian sqrt(RuleContext &R) {
  return holomorphic(R, scale(R, 0.5, inverse(R, result(R))));
}

// d(z^w)/dz = w z^w / z.  At z = 0 the quotient is 0/0: the derivative is 1
// for w = 1, 0 where Re w > 1 (z^w vanishes faster than z), and undefined
// otherwise (left as the quotient gives it).
ComplexJacobian pow1(RuleContext &R) {
  IRBuilderBase &B = R.B;
  Cx Z = operand(R, 0), W = operand(R, 1);
  Cx D = mul(R, W, mul(R, result(R), inverse(R, Z)));
  Value *WIsOne = B.CreateAnd(B.CreateFCmpOEQ(W.Re, constant(R, 1.0)),
                              B.CreateFCmpOEQ(W.Im, constant(R, 0.0)));
  Cx AtZero = {B.CreateSelect(WIsOne, constant(R, 1.0), constant(R, 0.0)),
               constant(R, 0.0)};
  Value *Defined = B.CreateOr(WIsOne, B.CreateFCmpOGT(W.Re, constant(R, 1.0)));
  return holomorphic(R,
                     select(R, B.CreateAnd(isZero(R, Z), Defined), AtZero, D));
}
// d(z^w)/dw = z^w log z; 0 at z = 0 (0^w = 0 wherever it is defined).
ComplexJacobian pow2(RuleContext &R) {
  Cx Z = operand(R, 0);
  Cx D = mul(R, result(R), logOf(R, Z));
  Cx Zero = {constant(R, 0.0), constant(R, 0.0)};
  return holomorphic(R, select(R, isZero(R, Z), Zero, D));
}

// sin' = cos, cos' = -sin, sinh' = cosh, cosh' = sinh, in parts:
//   cos z  = cos x cosh y - i sin x sinh y
//   sin z  = sin x cosh y + i cos x sinh y
//   cosh z = cosh x cos y + i sinh x sin y
//   sinh z = sinh x cos y + i cosh x sin y
namespace {
Cx trig(RuleContext &R, MathFn ReA, MathFn ReB, MathFn ImA, MathFn ImB,
        double ImSign) {
  IRBuilderBase &B = R.B;
  Cx Z = operand(R, 0);
  Value *Re = B.CreateFMul(R.math(ReA, {Z.Re}), R.math(ReB, {Z.Im}));
  Value *Im = B.CreateFMul(R.math(ImA, {Z.Re}), R.math(ImB, {Z.Im}));
  return {Re, B.CreateFMul(constant(R, ImSign), Im)};
}
} // namespace

ComplexJacobian sin(RuleContext &R) {
  return holomorphic(
      R, trig(R, MathFn::Cos, MathFn::Cosh, MathFn::Sin, MathFn::Sinh, -1.0));
}
ComplexJacobian cos(RuleContext &R) {
  return holomorphic(R, neg(R, trig(R, MathFn::Sin, MathFn::Cosh, MathFn::Cos,
                                    MathFn::Sinh, 1.0)));
}
ComplexJacobian sinh(RuleContext &R) {
  return holomorphic(
      R, trig(R, MathFn::Cosh, MathFn::Cos, MathFn::Sinh, MathFn::Sin, 1.0));
}
ComplexJacobian cosh(RuleContext &R) {
  return holomorphic(
      R, trig(R, MathFn::Sinh, MathFn::Cos, MathFn::Cosh, MathFn::Sin, 1.0));
}
// tan' = 1 + tan^2, tanh' = 1 - tanh^2, at the result.
ComplexJacobian tan(RuleContext &R) {
  Cx T = result(R);
  return holomorphic(R, addReal(R, 1.0, mul(R, T, T)));
}
ComplexJacobian tanh(RuleContext &R) {
  Cx T = result(R);
  return holomorphic(R, addReal(R, 1.0, neg(R, mul(R, T, T))));
}

} // namespace complex_partials
} // namespace gpuad
