//===- RuleTable.cpp - The derivative rule table --------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The rows.  Each family's partials are written once as small functions of
/// a RuleContext (x = operand 0, y = operand 1, r = result) and every
/// spelling of the family maps to that row.
//===----------------------------------------------------------------------===//

#include "Rules/DerivativeRules.h"

#include "Rules/ComplexCalls.h"
#include "Rules/ComplexPartials.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"

#include <cmath>

using namespace llvm;

namespace gpuad {

Value *RuleContext::constant(double X) const { return ConstantFP::get(Ty, X); }

Value *RuleContext::resultPart(unsigned I) const {
  return complexPart(B, result(), I);
}

namespace {

// Shorthands used by the partials below.
Value *x(RuleContext &R) { return R.operand(0); }
Value *y(RuleContext &R) { return R.operand(1); }
Value *r(RuleContext &R) { return R.result(); }
Value *one(RuleContext &R) { return R.constant(1.0); }
Value *mul(RuleContext &R, Value *A, Value *B) { return R.B.CreateFMul(A, B); }
Value *div(RuleContext &R, Value *A, Value *B) { return R.B.CreateFDiv(A, B); }
Value *add(RuleContext &R, Value *A, Value *B) { return R.B.CreateFAdd(A, B); }
Value *sub(RuleContext &R, Value *A, Value *B) { return R.B.CreateFSub(A, B); }
Value *neg(RuleContext &R, Value *A) { return R.B.CreateFNeg(A); }
Value *sqrtOf(RuleContext &R, Value *A) {
  return R.B.CreateUnaryIntrinsic(Intrinsic::sqrt, A);
}
Value *square(RuleContext &R, Value *A) { return mul(R, A, A); }
Value *inv(RuleContext &R, Value *A) { return div(R, one(R), A); }
Value *sign(RuleContext &R, Value *A) {
  // copysign(1, a), but 0 at a == 0 (the convention of JAX and Enzyme).
  Value *S = R.B.CreateBinaryIntrinsic(Intrinsic::copysign, one(R), A);
  Value *IsZero = R.B.CreateFCmpOEQ(A, R.constant(0.0));
  return R.B.CreateSelect(IsZero, R.constant(0.0), S);
}

constexpr uint8_t X = needsOperand(0);
constexpr uint8_t Y = needsOperand(1);
constexpr uint8_t Z = needsOperand(2);
constexpr uint8_t Res = NeedsResult;

constexpr double Ln2 = 0.69314718055994530942;
constexpr double Ln10 = 2.30258509299404568402;
constexpr double Pi = 3.14159265358979323846;
constexpr double TwoOverSqrtPi = 1.12837916709551257390;
constexpr double SqrtPiOver2 = 0.88622692545275801365;
constexpr double InvSqrt2Pi = 0.39894228040143267794;
constexpr double Sqrt2Pi = 2.50662827463100050242;

// Partials, by family.  d(op)/d(operand).
Value *pOne(RuleContext &R) { return one(R); }
Value *pMinusOne(RuleContext &R) { return R.constant(-1.0); }
Value *pY(RuleContext &R) { return y(R); }
Value *pX(RuleContext &R) { return x(R); }
// Both partials of a / b, and sqrt's, share one reciprocal (CSE merges the
// 1/b of each): the reverse sweep of `m / sqrt(r2)` divides once, as the
// primal does, instead of three times.
Value *pDivX(RuleContext &R) { return inv(R, y(R)); }
Value *pDivY(RuleContext &R) {
  Value *InvY = inv(R, y(R));
  return neg(R, mul(R, mul(R, x(R), InvY), InvY));
}
Value *pRemY(RuleContext &R) {
  // a - trunc(a/b)*b
  return neg(R, R.B.CreateUnaryIntrinsic(Intrinsic::trunc, div(R, x(R), y(R))));
}
Value *pSqrt(RuleContext &R) { return mul(R, R.constant(0.5), inv(R, r(R))); }
Value *pRcp(RuleContext &R) { return neg(R, square(R, r(R))); }
Value *pRsqrt(RuleContext &R) {
  return mul(R, R.constant(-0.5), mul(R, r(R), square(R, r(R))));
}
Value *pCbrt(RuleContext &R) {
  return inv(R, mul(R, R.constant(3.0), square(R, r(R))));
}
Value *pExp(RuleContext &R) { return r(R); }
Value *pExp2(RuleContext &R) { return mul(R, r(R), R.constant(Ln2)); }
Value *pExp10(RuleContext &R) { return mul(R, r(R), R.constant(Ln10)); }
Value *pExpm1(RuleContext &R) { return add(R, r(R), one(R)); }
Value *pLog(RuleContext &R) { return inv(R, x(R)); }
Value *pLog2(RuleContext &R) { return inv(R, mul(R, x(R), R.constant(Ln2))); }
Value *pLog10(RuleContext &R) { return inv(R, mul(R, x(R), R.constant(Ln10))); }
Value *pLog1p(RuleContext &R) { return inv(R, add(R, x(R), one(R))); }
/// \p V, but 0 where \p Cond holds (where V is 0 * inf for a reason the
/// limit does not share).
Value *zeroWhere(RuleContext &R, Value *Cond, Value *V) {
  return R.B.CreateSelect(Cond, R.constant(0.0), V);
}
Value *pPowX(RuleContext &R) {
  // y * x^(y-1): finite at x == 0 for y >= 1, unlike y * r / x.  For y == 0
  // the function is constant (x^0 = 1) even at x == 0.
  Value *Ym1 = sub(R, y(R), one(R));
  Value *D = mul(R, y(R), R.math(MathFn::Pow, {x(R), Ym1}));
  return zeroWhere(R, R.B.CreateFCmpOEQ(y(R), R.constant(0.0)), D);
}
Value *pPowY(RuleContext &R) {
  // r * log(x); at x == 0, x^y is 0 for every y > 0: the partial is 0, not
  // 0 * -inf.
  Value *D = mul(R, r(R), R.math(MathFn::Log, {x(R)}));
  return zeroWhere(R, R.B.CreateFCmpOEQ(x(R), R.constant(0.0)), D);
}
Value *pPowiX(RuleContext &R) {
  Value *N = y(R);
  Value *Nm1 = R.B.CreateSub(N, ConstantInt::get(N->getType(), 1));
  Value *NF = R.B.CreateSIToFP(N, R.Ty->getScalarType());
  if (auto *VT = dyn_cast<VectorType>(R.Ty))
    NF = R.B.CreateVectorSplat(VT->getElementCount(), NF);
  return mul(R, NF, R.math(MathFn::Powi, {x(R), Nm1}));
}
Value *pSin(RuleContext &R) { return R.math(MathFn::Cos, {x(R)}); }
Value *pCos(RuleContext &R) { return neg(R, R.math(MathFn::Sin, {x(R)})); }
Value *pTan(RuleContext &R) { return add(R, one(R), square(R, r(R))); }
Value *pAsin(RuleContext &R) {
  return inv(R, sqrtOf(R, sub(R, one(R), square(R, x(R)))));
}
Value *pAcos(RuleContext &R) { return neg(R, pAsin(R)); }
Value *pAtan(RuleContext &R) { return inv(R, add(R, one(R), square(R, x(R)))); }
// Instructions are emitted in statement order, not as nested arguments
// (whose order of evaluation is the host compiler's choice).
Value *atan2Den(RuleContext &R) {
  Value *Y2 = square(R, y(R));
  Value *X2 = square(R, x(R));
  return add(R, X2, Y2);
}
// atan2(y = operand 0, x = operand 1).
Value *pAtan2Y(RuleContext &R) { return div(R, y(R), atan2Den(R)); }
Value *pAtan2X(RuleContext &R) { return neg(R, div(R, x(R), atan2Den(R))); }
Value *pSinh(RuleContext &R) { return R.math(MathFn::Cosh, {x(R)}); }
Value *pCosh(RuleContext &R) { return R.math(MathFn::Sinh, {x(R)}); }
Value *pTanh(RuleContext &R) { return sub(R, one(R), square(R, r(R))); }
Value *pAsinh(RuleContext &R) {
  return inv(R, sqrtOf(R, add(R, square(R, x(R)), one(R))));
}
Value *pAcosh(RuleContext &R) {
  return inv(R, sqrtOf(R, sub(R, square(R, x(R)), one(R))));
}
Value *pAtanh(RuleContext &R) {
  return inv(R, sub(R, one(R), square(R, x(R))));
}
Value *pErf(RuleContext &R) {
  Value *E = R.math(MathFn::Exp, {neg(R, square(R, x(R)))});
  return mul(R, R.constant(TwoOverSqrtPi), E);
}
Value *pErfc(RuleContext &R) { return neg(R, pErf(R)); }
Value *pSinpi(RuleContext &R) {
  Value *PiX = mul(R, R.constant(Pi), x(R));
  return mul(R, R.constant(Pi), R.math(MathFn::Cos, {PiX}));
}
Value *pCospi(RuleContext &R) {
  Value *PiX = mul(R, R.constant(Pi), x(R));
  return neg(R, mul(R, R.constant(Pi), R.math(MathFn::Sin, {PiX})));
}
// erfinv' = sqrt(pi)/2 exp(r^2); erfcinv' is its negative.
Value *pErfinv(RuleContext &R) {
  Value *E = R.math(MathFn::Exp, {square(R, r(R))});
  return mul(R, R.constant(SqrtPiOver2), E);
}
Value *pErfcinv(RuleContext &R) { return neg(R, pErfinv(R)); }
// Standard normal CDF and its inverse.
Value *pNormcdf(RuleContext &R) {
  Value *E = R.math(MathFn::Exp, {mul(R, R.constant(-0.5), square(R, x(R)))});
  return mul(R, R.constant(InvSqrt2Pi), E);
}
Value *pNormcdfinv(RuleContext &R) {
  Value *E = R.math(MathFn::Exp, {mul(R, R.constant(0.5), square(R, r(R)))});
  return mul(R, R.constant(Sqrt2Pi), E);
}
// x^(-1/3): -r / (3x) = -r^4 / 3.
Value *pRcbrt(RuleContext &R) {
  return mul(R, R.constant(-1.0 / 3.0), square(R, square(R, r(R))));
}
// frexp's mantissa m = x * 2^-e: dm/dx = 2^-e = m / x (0 at x == 0).
Value *pFrexp(RuleContext &R) {
  Value *Q = div(R, r(R), x(R));
  return zeroWhere(R, R.B.CreateFCmpOEQ(x(R), R.constant(0.0)), Q);
}
// ldexp(x, n) = x * 2^n.
Value *pLdexpX(RuleContext &R) {
  return R.B.CreateIntrinsic(Intrinsic::ldexp, {R.Ty, y(R)->getType()},
                             {one(R), y(R)});
}
// max(x - y, 0)
Value *pFdimX(RuleContext &R) {
  return R.B.CreateSelect(R.B.CreateFCmpOGT(x(R), y(R)), one(R),
                          R.constant(0.0));
}
Value *pFdimY(RuleContext &R) { return neg(R, pFdimX(R)); }
// x - rint(x/y) * y
Value *pRemainderY(RuleContext &R) {
  return neg(R, R.B.CreateUnaryIntrinsic(Intrinsic::rint, div(R, x(R), y(R))));
}
// 1 / hypot(x, y): -x r^3
Value *pRhypotX(RuleContext &R) {
  return neg(R, mul(R, x(R), mul(R, r(R), square(R, r(R)))));
}
Value *pRhypotY(RuleContext &R) {
  return neg(R, mul(R, y(R), mul(R, r(R), square(R, r(R)))));
}
Value *z(RuleContext &R) { return R.operand(2); }
Value *pNormX(RuleContext &R) { return div(R, x(R), r(R)); }
Value *pNormY(RuleContext &R) { return div(R, y(R), r(R)); }
Value *pNormZ(RuleContext &R) { return div(R, z(R), r(R)); }
Value *pRnormX(RuleContext &R) { return pRhypotX(R); }
Value *pRnormY(RuleContext &R) { return pRhypotY(R); }
Value *pRnormZ(RuleContext &R) {
  return neg(R, mul(R, z(R), mul(R, r(R), square(R, r(R)))));
}
// x / hypot(x, y), and 0 at the origin, where hypot is |v| and takes the
// same subgradient as fabs: 0 * NaN would poison a direction along which
// the function is constant (hypot(a - a, c) at c = 0).
static Value *overHypot(RuleContext &R, Value *Num) {
  return R.B.CreateSelect(R.B.CreateFCmpOEQ(r(R), R.constant(0.0)),
                          R.constant(0.0), div(R, Num, r(R)));
}
Value *pHypotX(RuleContext &R) { return overHypot(R, x(R)); }
Value *pHypotY(RuleContext &R) { return overHypot(R, y(R)); }
Value *pFabs(RuleContext &R) { return sign(R, x(R)); }
// clamp(x, 0, 1): 1 strictly inside, 0 where it clamps (NaN gives 0).
Value *pSaturate(RuleContext &R) {
  Value *Inside = R.B.CreateAnd(R.B.CreateFCmpOGT(x(R), R.constant(0.0)),
                                R.B.CreateFCmpOLT(x(R), R.constant(1.0)));
  return R.B.CreateSelect(Inside, one(R), R.constant(0.0));
}
Value *pCopysign(RuleContext &R) {
  // |x| * sign(y): d/dx = sign(x) * sign(y), with copysign's view of signs.
  Value *SX = R.B.CreateBinaryIntrinsic(Intrinsic::copysign, one(R), x(R));
  Value *SY = R.B.CreateBinaryIntrinsic(Intrinsic::copysign, one(R), y(R));
  return mul(R, SX, SY);
}
// min/max pick one operand; the partial is 1 for the picked one.  Ties and
// NaNs resolve to exactly one operand so a derivative is never counted twice.
Value *pPickX(RuleContext &R) {
  Value *IsX = R.B.CreateFCmpOEQ(r(R), x(R));
  return R.B.CreateSelect(IsX, one(R), R.constant(0.0));
}
Value *pPickY(RuleContext &R) {
  Value *IsX = R.B.CreateFCmpOEQ(r(R), x(R));
  return R.B.CreateSelect(IsX, R.constant(0.0), one(R));
}

// Row builders.
DerivativeRule unary(StringRef Family, PartialFn Fn, uint8_t Needs) {
  return {Family, RuleKind::Elementwise, {Partial{Fn, Needs}}, 1};
}
DerivativeRule binary(StringRef Family, Partial A, Partial B) {
  return {Family, RuleKind::Elementwise, {A, B}, 2};
}
DerivativeRule zeroDerivative(StringRef Family, unsigned N = 1) {
  return {Family, RuleKind::ZeroDerivative, {}, N};
}
DerivativeRule ternary(StringRef Family, Partial A, Partial B, Partial C) {
  return {Family, RuleKind::Elementwise, {A, B, C}, 3};
}
/// A function of one complex operand (\p Second null) or two; \p Real for a
/// real result.
DerivativeRule complexRow(StringRef Family, ComplexPartialFn First,
                          ComplexPartialFn Second = nullptr,
                          bool Real = false) {
  DerivativeRule R{Family, RuleKind::Complex, {}, Second ? 4u : 2u};
  R.ComplexPartials = {First, Second};
  R.RealResult = Real;
  return R;
}
/// Results of operand 0 returned and/or written through pointer arguments.
DerivativeRule outputs(StringRef Family, unsigned NumOperands, RuleOutput A,
                       RuleOutput B) {
  return {Family, RuleKind::MultipleOutputs, {}, NumOperands, {A, B}};
}

/// One family and all its spellings.  Library spellings are generated from
/// the base name: libm `name`, `namef`, `namel`; libdevice `__nv_name`,
/// `__nv_namef`; ocml `__ocml_name_f16/_f32/_f64`.
struct Family {
  DerivativeRule Rule;
  const char *Libm;      // base libm name, or null
  const char *Intrinsic; // "llvm.xxx" or null
  const char *Ocml;      // base ocml name, or null (defaults to Libm)
  /// Other spellings.  (A vector: an initializer_list member would point at
  /// a temporary array that dies with the table's initialiser.)
  std::vector<const char *> Extra;
};

const std::vector<Family> &families() {
  static const std::vector<Family> Table = {
      // IR opcodes.
      {binary("fadd", {pOne, 0}, {pOne, 0}),
       nullptr,
       nullptr,
       nullptr,
       {"fadd", "__nv_dadd_rn", "__nv_fadd_rn"}},
      {binary("fsub", {pOne, 0}, {pMinusOne, 0}),
       nullptr,
       nullptr,
       nullptr,
       {"fsub", "__nv_dsub_rn", "__nv_fsub_rn"}},
      {binary("fmul", {pY, Y}, {pX, X}),
       nullptr,
       nullptr,
       nullptr,
       {"fmul", "__nv_dmul_rn", "__nv_fmul_rn"}},
      {binary("fdiv", {pDivX, Y}, {pDivY, X | Y}),
       nullptr,
       nullptr,
       nullptr,
       {"fdiv", "__nv_ddiv_rn", "__nv_fdiv_rn", "__nv_fdividef",
        "__nv_fast_fdividef"}},
      {binary("frem", {pOne, 0}, {pRemY, X | Y}),
       "fmod",
       nullptr,
       nullptr,
       {"frem"}},
      {unary("fneg", pMinusOne, 0), nullptr, nullptr, nullptr, {"fneg"}},
      {{"fpext", RuleKind::Conversion, {Partial{pOne, 0}}, 1},
       nullptr,
       nullptr,
       nullptr,
       {"fpext"}},
      {{"fptrunc", RuleKind::Conversion, {Partial{pOne, 0}}, 1},
       nullptr,
       nullptr,
       nullptr,
       {"fptrunc"}},
      // Roots and powers.
      {unary("sqrt", pSqrt, Res),
       "sqrt",
       "llvm.sqrt",
       nullptr,
       {"__nv_fsqrt_rn", "__nv_dsqrt_rn", "__ocml_native_sqrt_f32"}},
      {unary("rsqrt", pRsqrt, Res),
       nullptr,
       nullptr,
       "rsqrt",
       {"__nv_rsqrt", "__nv_rsqrtf", "__nv_frsqrt_rn",
        "__ocml_native_rsqrt_f32"}},
      {unary("cbrt", pCbrt, Res), "cbrt", nullptr, nullptr, {}},
      {unary("rcp", pRcp, Res),
       nullptr,
       nullptr,
       nullptr,
       {"__nv_drcp_rn", "__nv_drcp_rz", "__nv_drcp_rd", "__nv_drcp_ru",
        "__nv_frcp_rn", "__nv_frcp_rz", "__nv_frcp_rd", "__nv_frcp_ru"}},
      {binary("pow", {pPowX, X | Y}, {pPowY, X | Res}),
       "pow",
       "llvm.pow",
       nullptr,
       {"__nv_fast_powf"}},
      {binary("powi", {pPowiX, X | Y}, {}),
       nullptr,
       "llvm.powi",
       "pown",
       {"__nv_powi", "__nv_powif"}},
      {binary("hypot", {pHypotX, X | Res}, {pHypotY, Y | Res}),
       "hypot",
       nullptr,
       nullptr,
       {}},
      // Exponentials and logarithms.
      {unary("exp", pExp, Res),
       "exp",
       "llvm.exp",
       nullptr,
       {"__nv_fast_expf", "__ocml_native_exp_f32"}},
      {unary("exp2", pExp2, Res),
       "exp2",
       "llvm.exp2",
       nullptr,
       {"__nv_fast_exp2f", "__ocml_native_exp2_f32"}},
      {unary("exp10", pExp10, Res),
       "exp10",
       "llvm.exp10",
       nullptr,
       {"__nv_fast_exp10f", "__ocml_native_exp10_f32"}},
      {unary("expm1", pExpm1, Res), "expm1", nullptr, nullptr, {}},
      {unary("log", pLog, X),
       "log",
       "llvm.log",
       nullptr,
       {"__nv_fast_logf", "__ocml_native_log_f32"}},
      {unary("log2", pLog2, X),
       "log2",
       "llvm.log2",
       nullptr,
       {"__nv_fast_log2f", "__ocml_native_log2_f32"}},
      {unary("log10", pLog10, X),
       "log10",
       "llvm.log10",
       nullptr,
       {"__nv_fast_log10f", "__ocml_native_log10_f32"}},
      {unary("log1p", pLog1p, X), "log1p", nullptr, nullptr, {}},
      // Trigonometric and hyperbolic.
      {unary("sin", pSin, X),
       "sin",
       "llvm.sin",
       nullptr,
       {"__nv_fast_sinf", "__ocml_native_sin_f32"}},
      {unary("cos", pCos, X),
       "cos",
       "llvm.cos",
       nullptr,
       {"__nv_fast_cosf", "__ocml_native_cos_f32"}},
      {unary("tan", pTan, Res), "tan", "llvm.tan", nullptr, {"__nv_fast_tanf"}},
      {unary("asin", pAsin, X), "asin", "llvm.asin", nullptr, {}},
      {unary("acos", pAcos, X), "acos", "llvm.acos", nullptr, {}},
      {unary("atan", pAtan, X), "atan", "llvm.atan", nullptr, {}},
      {binary("atan2", {pAtan2Y, X | Y}, {pAtan2X, X | Y}),
       "atan2",
       "llvm.atan2",
       nullptr,
       {}},
      {unary("sinh", pSinh, X), "sinh", "llvm.sinh", nullptr, {}},
      {unary("cosh", pCosh, X), "cosh", "llvm.cosh", nullptr, {}},
      {unary("tanh", pTanh, Res), "tanh", "llvm.tanh", nullptr, {}},
      {unary("asinh", pAsinh, X), "asinh", nullptr, nullptr, {}},
      {unary("acosh", pAcosh, X), "acosh", nullptr, nullptr, {}},
      {unary("atanh", pAtanh, X), "atanh", nullptr, nullptr, {}},
      {unary("erf", pErf, X), "erf", nullptr, nullptr, {}},
      {unary("erfc", pErfc, X), "erfc", nullptr, nullptr, {}},
      // Sign, magnitude, fused operations.
      {unary("fabs", pFabs, X), "fabs", "llvm.fabs", nullptr, {}},
      {unary("saturate", pSaturate, X),
       nullptr,
       nullptr,
       nullptr,
       {"__nv_saturatef"}},
      {binary("copysign", {pCopysign, X | Y}, {}),
       "copysign",
       "llvm.copysign",
       nullptr,
       {}},
      {{"fma",
        RuleKind::Elementwise,
        {Partial{pY, Y}, Partial{pX, X}, Partial{pOne, 0}},
        3},
       "fma",
       "llvm.fma",
       nullptr,
       {"llvm.fmuladd", "__nv_fmaf_rn"}},
      {unary("sinpi", pSinpi, X),
       nullptr,
       nullptr,
       "sinpi",
       {"__nv_sinpi", "__nv_sinpif"}},
      {unary("cospi", pCospi, X),
       nullptr,
       nullptr,
       "cospi",
       {"__nv_cospi", "__nv_cospif"}},
      // Special functions.
      {unary("erfinv", pErfinv, Res),
       nullptr,
       nullptr,
       "erfinv",
       {"__nv_erfinv", "__nv_erfinvf"}},
      {unary("erfcinv", pErfcinv, Res),
       nullptr,
       nullptr,
       "erfcinv",
       {"__nv_erfcinv", "__nv_erfcinvf"}},
      {unary("normcdf", pNormcdf, X),
       nullptr,
       nullptr,
       "ncdf",
       {"__nv_normcdf", "__nv_normcdff"}},
      {unary("normcdfinv", pNormcdfinv, Res),
       nullptr,
       nullptr,
       "ncdfinv",
       {"__nv_normcdfinv", "__nv_normcdfinvf"}},
      {unary("rcbrt", pRcbrt, Res),
       nullptr,
       nullptr,
       "rcbrt",
       {"__nv_rcbrt", "__nv_rcbrtf"}},
      {binary("rhypot", {pRhypotX, X | Res}, {pRhypotY, Y | Res}),
       nullptr,
       nullptr,
       "rhypot",
       {"__nv_rhypot", "__nv_rhypotf"}},
      {ternary("norm3d", {pNormX, X | Res}, {pNormY, Y | Res},
               {pNormZ, Z | Res}),
       nullptr,
       nullptr,
       "len3",
       {"__nv_norm3d", "__nv_norm3df"}},
      {ternary("rnorm3d", {pRnormX, X | Res}, {pRnormY, Y | Res},
               {pRnormZ, Z | Res}),
       nullptr,
       nullptr,
       "rlen3",
       {"__nv_rnorm3d", "__nv_rnorm3df"}},
      // Exponent manipulation and remainders.
      {binary("ldexp", {pLdexpX, Y}, {}),
       "ldexp",
       "llvm.ldexp",
       nullptr,
       {"scalbn", "scalbnf", "scalbnl", "__nv_scalbn", "__nv_scalbnf",
        "__ocml_scalbn_f32", "__ocml_scalbn_f64"}},
      {binary("fdim", {pFdimX, X | Y}, {pFdimY, X | Y}),
       "fdim",
       nullptr,
       nullptr,
       {}},
      {binary("remainder", {pOne, 0}, {pRemainderY, X | Y}),
       "remainder",
       nullptr,
       nullptr,
       {}},
      {unary("frexp-mantissa", pFrexp, X | Res), nullptr, nullptr, nullptr, {}},
      {unary("copy", pOne, 0),
       nullptr,
       "llvm.canonicalize",
       nullptr,
       {"llvm.arithmetic.fence"}},
      // Several results: returned and/or written through pointers.
      {outputs("llvm.frexp", 1, {-1, 0, "frexp-mantissa"}, {}),
       nullptr,
       "llvm.frexp",
       nullptr,
       {}},
      {outputs("llvm.modf", 1, {-1, 0, "copy"}, {-1, 1, "trunc"}),
       nullptr,
       "llvm.modf",
       nullptr,
       {}},
      {outputs("llvm.sincos", 1, {-1, 0, "sin"}, {-1, 1, "cos"}),
       nullptr,
       "llvm.sincos",
       nullptr,
       {}},
      {outputs("llvm.sincospi", 1, {-1, 0, "sinpi"}, {-1, 1, "cospi"}),
       nullptr,
       "llvm.sincospi",
       nullptr,
       {}},
      {outputs("sincos", 3, {1, -1, "sin"}, {2, -1, "cos"}),
       "sincos",
       nullptr,
       nullptr,
       {"__nv_fast_sincosf"}},
      {outputs("sincospi", 3, {1, -1, "sinpi"}, {2, -1, "cospi"}),
       nullptr,
       nullptr,
       nullptr,
       {"__nv_sincospi", "__nv_sincospif"}},
      {outputs("ocml-sincos", 2, {-1, -1, "sin"}, {1, -1, "cos"}),
       nullptr,
       nullptr,
       nullptr,
       {"__ocml_sincos_f16", "__ocml_sincos_f32", "__ocml_sincos_f64",
        "__ocml_native_sincos_f32"}},
      {outputs("ocml-sincospi", 2, {-1, -1, "sinpi"}, {1, -1, "cospi"}),
       nullptr,
       nullptr,
       nullptr,
       {"__ocml_sincospi_f16", "__ocml_sincospi_f32", "__ocml_sincospi_f64"}},
      {outputs("modf", 2, {-1, -1, "copy"}, {1, -1, "trunc"}),
       "modf",
       nullptr,
       nullptr,
       {}},
      {outputs("frexp", 2, {-1, -1, "frexp-mantissa"}, {}),
       "frexp",
       nullptr,
       nullptr,
       {}},
      // Complex arithmetic (compiler-rt's libcalls for C's _Complex * and /;
      // clang's CUDA/HIP headers define them as device functions) and
      // <complex.h>.  The long double functions (cexpl, ...) take their
      // operands in memory on x86-64 and have no row.
      {complexRow("complex-mul", complex_partials::mul1,
                  complex_partials::mul2),
       nullptr,
       nullptr,
       nullptr,
       {"__muldc3", "__mulsc3", "__mulxc3", "__multc3"}},
      {complexRow("complex-div", complex_partials::div1,
                  complex_partials::div2),
       nullptr,
       nullptr,
       nullptr,
       {"__divdc3", "__divsc3", "__divxc3", "__divtc3"}},
      {complexRow("cabs", complex_partials::abs, nullptr, true),
       nullptr,
       nullptr,
       nullptr,
       {"cabs", "cabsf"}},
      {complexRow("carg", complex_partials::arg, nullptr, true),
       nullptr,
       nullptr,
       nullptr,
       {"carg", "cargf"}},
      {complexRow("cexp", complex_partials::exp),
       nullptr,
       nullptr,
       nullptr,
       {"cexp", "cexpf"}},
      {complexRow("clog", complex_partials::log),
       nullptr,
       nullptr,
       nullptr,
       {"clog", "clogf"}},
      {complexRow("csqrt", complex_partials::sqrt),
       nullptr,
       nullptr,
       nullptr,
       {"csqrt", "csqrtf"}},
      {complexRow("cpow", complex_partials::pow1, complex_partials::pow2),
       nullptr,
       nullptr,
       nullptr,
       {"cpow", "cpowf"}},
      {complexRow("csin", complex_partials::sin),
       nullptr,
       nullptr,
       nullptr,
       {"csin", "csinf"}},
      {complexRow("ccos", complex_partials::cos),
       nullptr,
       nullptr,
       nullptr,
       {"ccos", "ccosf"}},
      {complexRow("ctan", complex_partials::tan),
       nullptr,
       nullptr,
       nullptr,
       {"ctan", "ctanf"}},
      {complexRow("csinh", complex_partials::sinh),
       nullptr,
       nullptr,
       nullptr,
       {"csinh", "csinhf"}},
      {complexRow("ccosh", complex_partials::cosh),
       nullptr,
       nullptr,
       nullptr,
       {"ccosh", "ccoshf"}},
      {complexRow("ctanh", complex_partials::tanh),
       nullptr,
       nullptr,
       nullptr,
       {"ctanh", "ctanhf"}},
      // Selection.
      {binary("minnum", {pPickX, X | Res}, {pPickY, X | Res}),
       "fmin",
       "llvm.minnum",
       nullptr,
       {"llvm.minimum", "llvm.minimumnum"}},
      {binary("maxnum", {pPickX, X | Res}, {pPickY, X | Res}),
       "fmax",
       "llvm.maxnum",
       nullptr,
       {"llvm.maximum", "llvm.maximumnum"}},
      // Piecewise constant.
      {zeroDerivative("floor"), "floor", "llvm.floor", nullptr, {}},
      {zeroDerivative("ceil"), "ceil", "llvm.ceil", nullptr, {}},
      {zeroDerivative("trunc"), "trunc", "llvm.trunc", nullptr, {}},
      {zeroDerivative("round"), "round", "llvm.round", nullptr, {}},
      {zeroDerivative("rint"), "rint", "llvm.rint", nullptr, {}},
      {zeroDerivative("nearbyint"), "nearbyint", "llvm.nearbyint", nullptr, {}},
      {zeroDerivative("roundeven"), "roundeven", "llvm.roundeven", nullptr, {}},
  };
  return Table;
}

/// Spelling -> row, built once from the families and never changed (a
/// module's own aliases live in its CallTable).  These are the names calls
/// are matched by, so
/// a family's own name is not one unless the row lists it ("fadd", "sin" as
/// libm): "copy" (llvm.canonicalize), "rcp", "minnum", "frexp-mantissa" and
/// "complex-mul" only name rows, and a program may define a function called
/// `copy` (ADBench's hand does) that the table must not take for the
/// identity.
const StringMap<const DerivativeRule *> &ruleMap() {
  static const StringMap<const DerivativeRule *> Map = [] {
    StringMap<const DerivativeRule *> M;
    for (const Family &F : families()) {
      const DerivativeRule *R = &F.Rule;
      if (F.Libm) {
        std::string Base = F.Libm;
        for (const char *Suffix : {"", "f", "l"})
          M[Base + Suffix] = R;
        M["__nv_" + Base] = R;
        M["__nv_" + Base + "f"] = R;
      }
      if (const char *Ocml = F.Ocml ? F.Ocml : F.Libm)
        for (const char *Suffix : {"_f16", "_f32", "_f64"})
          M[std::string("__ocml_") + Ocml + Suffix] = R;
      if (F.Intrinsic)
        M[F.Intrinsic] = R;
      for (const char *Name : F.Extra)
        M[Name] = R;
    }
    return M;
  }();
  return Map;
}

/// Family name -> row: what rows and aliases name.
const StringMap<const DerivativeRule *> &familyMap() {
  static const StringMap<const DerivativeRule *> Map = [] {
    StringMap<const DerivativeRule *> M;
    for (const Family &F : families())
      M[F.Rule.Family] = &F.Rule;
    return M;
  }();
  return Map;
}

bool isFloatOrFloatVector(const Type *T) { return T->isFPOrFPVectorTy(); }

} // namespace

const DerivativeRule *findBuiltinRule(StringRef Name) {
  auto It = ruleMap().find(Name);
  return It == ruleMap().end() ? nullptr : It->second;
}

const DerivativeRule *findFamily(StringRef Name) {
  if (const DerivativeRule *R = findBuiltinRule(Name))
    return R;
  auto It = familyMap().find(Name);
  return It == familyMap().end() ? nullptr : It->second;
}

bool fitsRule(const DerivativeRule &R, const FunctionType &FT) {
  if (R.Kind == RuleKind::Complex)
    return true; // the shapes vary: ComplexCall::match decides per call
  if (FT.isVarArg() || FT.getNumParams() != R.NumOperands ||
      FT.getNumParams() == 0 || !isFloatOrFloatVector(FT.getParamType(0)))
    return false;
  if (R.Kind != RuleKind::MultipleOutputs)
    return isFloatOrFloatVector(FT.getReturnType());
  for (const RuleOutput &Out : R.Outputs) {
    if (!Out.Family)
      continue;
    if (Out.Arg < 0 ? FT.getReturnType()->isVoidTy()
                    : !FT.getParamType(Out.Arg)->isPointerTy())
      return false;
  }
  return true;
}

void forEachBuiltinRuleName(
    function_ref<void(StringRef, const DerivativeRule &)> Fn) {
  for (const auto &Entry : ruleMap())
    Fn(Entry.getKey(), *Entry.getValue());
}

} // namespace gpuad
