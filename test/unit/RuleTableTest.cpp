//===- RuleTableTest.cpp - The derivative rule table ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Every partial in the table, evaluated numerically: each rule's IR is built
/// for a scalar double, interpreted by constant folding at sample points, and
/// compared with a central finite difference of the function itself.
///
//===----------------------------------------------------------------------===//

#include "ConstantMath.h"
#include "Rules/DerivativeRules.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <map>

using namespace llvm;
using namespace gpuad;
using gpuad::test::ConstantMath;

namespace {

using Fn1 = std::function<double(double)>;
using Fn2 = std::function<double(double, double)>;

double toDouble(Value *V) {
  auto *C = dyn_cast<ConstantFP>(V);
  EXPECT_NE(C, nullptr) << "partial did not fold to a constant";
  return C ? C->getValueAPF().convertToDouble() : NAN;
}

/// Folds the instructions of \p BB into constants, in order.
void foldBlock(BasicBlock &BB) {
  const DataLayout &DL = BB.getModule()->getDataLayout();
  for (Instruction &I : make_early_inc_range(BB))
    if (Constant *C = ConstantFoldInstruction(&I, DL)) {
      I.replaceAllUsesWith(C);
      I.eraseFromParent();
    }
}

/// Evaluates partial \p K of \p Name at operands \p Ops: the rule's IR is
/// built on constants in a scratch function and folded.
double partial(StringRef Name, unsigned K, ArrayRef<double> Ops, double Result,
               Type *IntTy = nullptr) {
  LLVMContext Ctx;
  Module M("m", Ctx);
  Type *Dbl = Type::getDoubleTy(Ctx);
  Function *F = Function::Create(FunctionType::get(Dbl, false),
                                 GlobalValue::ExternalLinkage, "scratch", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  ConstantMath Math;
  const DerivativeRule *R = findFamily(Name);
  EXPECT_NE(R, nullptr) << Name.str();
  if (!R || !R->Partials[K].Fn)
    return NAN;
  Type *D = Type::getDoubleTy(Ctx);
  auto Operand = [&](unsigned I) -> Value * {
    if (IntTy && I == 1)
      return ConstantInt::get(Type::getInt32Ty(Ctx), int(Ops[I]));
    return ConstantFP::get(D, Ops[I]);
  };
  RuleContext RC(
      B, D, Operand, [&] { return ConstantFP::get(D, Result); }, Math);
  ReturnInst *Ret = B.CreateRet(R->Partials[K].Fn(RC));
  foldBlock(F->getEntryBlock());
  return toDouble(Ret->getReturnValue());
}

void expectUnary(StringRef Name, const Fn1 &F, ArrayRef<double> Xs) {
  for (double X : Xs) {
    double H = 1e-6 * std::max(1.0, std::fabs(X));
    double FD = (F(X + H) - F(X - H)) / (2 * H);
    double Got = partial(Name, 0, {X}, F(X));
    EXPECT_NEAR(Got, FD, 1e-6 * std::max(1.0, std::fabs(FD)))
        << Name.str() << " at " << X;
  }
}

void expectBinary(StringRef Name, const Fn2 &F,
                  ArrayRef<std::pair<double, double>> Points) {
  for (auto [X, Y] : Points) {
    double HX = 1e-6 * std::max(1.0, std::fabs(X));
    double HY = 1e-6 * std::max(1.0, std::fabs(Y));
    double DX = (F(X + HX, Y) - F(X - HX, Y)) / (2 * HX);
    double DY = (F(X, Y + HY) - F(X, Y - HY)) / (2 * HY);
    double R = F(X, Y);
    EXPECT_NEAR(partial(Name, 0, {X, Y}, R), DX,
                1e-6 * std::max(1.0, std::fabs(DX)))
        << Name.str() << " d/dx at " << X << "," << Y;
    if (findFamily(Name)->Partials[1].Fn) {
      EXPECT_NEAR(partial(Name, 1, {X, Y}, R), DY,
                  1e-6 * std::max(1.0, std::fabs(DY)))
          << Name.str() << " d/dy at " << X << "," << Y;
    }
  }
}

TEST(RuleTable, UnaryFamiliesMatchFiniteDifferences) {
  const std::vector<double> Pos = {0.3, 1.1, 2.5};
  const std::vector<double> Unit = {-0.7, 0.2, 0.6};
  const std::vector<double> Any = {-1.3, 0.4, 2.1};
  expectUnary("sqrt", [](double X) { return std::sqrt(X); }, Pos);
  expectUnary("cbrt", [](double X) { return std::cbrt(X); }, Pos);
  expectUnary("exp", [](double X) { return std::exp(X); }, Any);
  expectUnary("exp2", [](double X) { return std::exp2(X); }, Any);
  expectUnary("expm1", [](double X) { return std::expm1(X); }, Any);
  expectUnary("log", [](double X) { return std::log(X); }, Pos);
  expectUnary("log2", [](double X) { return std::log2(X); }, Pos);
  expectUnary("log10", [](double X) { return std::log10(X); }, Pos);
  expectUnary("log1p", [](double X) { return std::log1p(X); }, Pos);
  expectUnary("sin", [](double X) { return std::sin(X); }, Any);
  expectUnary("cos", [](double X) { return std::cos(X); }, Any);
  expectUnary("tan", [](double X) { return std::tan(X); }, Unit);
  expectUnary("asin", [](double X) { return std::asin(X); }, Unit);
  expectUnary("acos", [](double X) { return std::acos(X); }, Unit);
  expectUnary("atan", [](double X) { return std::atan(X); }, Any);
  expectUnary("sinh", [](double X) { return std::sinh(X); }, Any);
  expectUnary("cosh", [](double X) { return std::cosh(X); }, Any);
  expectUnary("tanh", [](double X) { return std::tanh(X); }, Any);
  expectUnary("asinh", [](double X) { return std::asinh(X); }, Any);
  expectUnary("acosh", [](double X) { return std::acosh(X); }, {1.5, 3.0});
  expectUnary("atanh", [](double X) { return std::atanh(X); }, Unit);
  expectUnary("erf", [](double X) { return std::erf(X); }, Any);
  expectUnary("erfc", [](double X) { return std::erfc(X); }, Any);
  expectUnary("fabs", [](double X) { return std::fabs(X); }, {-1.3, 2.1});
  expectUnary("fneg", [](double X) { return -X; }, Any);
  expectUnary("__nv_rsqrt", [](double X) { return 1 / std::sqrt(X); }, Pos);
  expectUnary("rcp", [](double X) { return 1 / X; }, {-1.3, 0.4, 2.1});
  constexpr double Pi = 3.14159265358979323846;
  expectUnary("__nv_sinpi", [&](double X) { return std::sin(Pi * X); }, Any);
  expectUnary("__nv_cospi", [&](double X) { return std::cos(Pi * X); }, Any);
  expectUnary("__nv_rcbrt", [](double X) { return 1 / std::cbrt(X); }, Pos);
  expectUnary(
      "__nv_normcdf",
      [](double X) { return 0.5 * std::erfc(-X / std::sqrt(2.0)); }, Any);
  // Inverses, through the derivative of the function they invert.
  for (double X : {-0.6, 0.1, 0.7}) {
    // erfinv(X) = Y with erf(Y) = X: derivative 1 / erf'(Y).
    double Y = 0, Step;
    do { // Newton on erf(Y) - X
      Step = (std::erf(Y) - X) / (1.1283791670955126 * std::exp(-Y * Y));
      Y -= Step;
    } while (std::fabs(Step) > 1e-15);
    double Want = 1 / (1.1283791670955126 * std::exp(-Y * Y));
    EXPECT_NEAR(partial("__nv_erfinv", 0, {X}, Y), Want, 1e-9 * Want);
    EXPECT_NEAR(partial("__nv_erfcinv", 0, {1 - X}, Y), -Want, 1e-9 * Want);
    double P = 0.5 * std::erfc(-Y / std::sqrt(2.0)); // normcdf(Y)
    double NWant = std::sqrt(2 * Pi) * std::exp(0.5 * Y * Y);
    EXPECT_NEAR(partial("__nv_normcdfinv", 0, {P}, Y), NWant, 1e-9 * NWant);
  }
}

TEST(RuleTable, BinaryFamiliesMatchFiniteDifferences) {
  const std::vector<std::pair<double, double>> P = {
      {0.7, 1.9}, {2.3, 0.4}, {1.5, -0.8}};
  expectBinary("fadd", [](double X, double Y) { return X + Y; }, P);
  expectBinary("fsub", [](double X, double Y) { return X - Y; }, P);
  expectBinary("fmul", [](double X, double Y) { return X * Y; }, P);
  expectBinary("fdiv", [](double X, double Y) { return X / Y; }, P);
  expectBinary("fmod", [](double X, double Y) { return std::fmod(X, Y); },
               {{5.3, 1.9}, {2.3, 0.4}});
  expectBinary("pow", [](double X, double Y) { return std::pow(X, Y); },
               {{0.7, 1.9}, {2.3, 0.4}, {1.5, -0.8}});
  expectBinary("atan2", [](double X, double Y) { return std::atan2(X, Y); }, P);
  expectBinary("hypot", [](double X, double Y) { return std::hypot(X, Y); }, P);
  expectBinary("fmin", [](double X, double Y) { return std::fmin(X, Y); }, P);
  expectBinary("fmax", [](double X, double Y) { return std::fmax(X, Y); }, P);
  expectBinary(
      "copysign", [](double X, double Y) { return std::copysign(X, Y); }, P);
  expectBinary(
      "__nv_rhypot", [](double X, double Y) { return 1 / std::hypot(X, Y); },
      P);
  expectBinary("fdim", [](double X, double Y) { return std::fdim(X, Y); }, P);
  expectBinary("remainder",
               [](double X, double Y) { return std::remainder(X, Y); },
               {{5.3, 1.9}, {2.3, 0.4}});
}

TEST(RuleTable, PowiDifferentiatesTheBaseOnly) {
  for (int N : {-2, 3, 5}) {
    double X = 1.3;
    double H = 1e-6;
    double FD = (std::pow(X + H, N) - std::pow(X - H, N)) / (2 * H);
    Type *Int = nullptr;
    LLVMContext Ctx;
    Int = Type::getInt32Ty(Ctx);
    EXPECT_NEAR(partial("llvm.powi", 0, {X, double(N)}, std::pow(X, N), Int),
                FD, 1e-6 * std::fabs(FD));
  }
  EXPECT_EQ(findBuiltinRule("llvm.powi")->Partials[1].Fn, nullptr);
}

TEST(RuleTable, ThreeOperandNorms) {
  // norm3d(a, b, c) = sqrt(a^2 + b^2 + c^2): partial a / r, likewise b, c.
  double R = std::sqrt(1.0 + 4.0 + 9.0);
  EXPECT_NEAR(partial("__nv_norm3d", 0, {1.0, 2.0, 3.0}, R), 1 / R, 1e-15);
  EXPECT_NEAR(partial("__nv_norm3d", 2, {1.0, 2.0, 3.0}, R), 3 / R, 1e-15);
  EXPECT_NEAR(partial("__nv_rnorm3d", 1, {1.0, 2.0, 3.0}, 1 / R),
              -2 / (R * R * R), 1e-15);
}

TEST(RuleTable, FrexpMantissaAndLdexp) {
  // frexp: m = x * 2^-e, so dm/dx = m / x (and 0 at x == 0).
  int E;
  double M = std::frexp(6.5, &E);
  EXPECT_NEAR(partial("frexp-mantissa", 0, {6.5}, M), std::ldexp(1.0, -E),
              1e-15);
  EXPECT_EQ(partial("frexp-mantissa", 0, {0.0}, 0.0), 0.0);
  LLVMContext Ctx;
  EXPECT_EQ(partial("ldexp", 0, {1.7, 3.0}, std::ldexp(1.7, 3),
                    Type::getInt32Ty(Ctx)),
            8.0);
}

TEST(RuleTable, FmaPartials) {
  EXPECT_EQ(partial("llvm.fma", 0, {2.0, 3.0, 4.0}, 10.0), 3.0);
  EXPECT_EQ(partial("llvm.fma", 1, {2.0, 3.0, 4.0}, 10.0), 2.0);
  EXPECT_EQ(partial("llvm.fma", 2, {2.0, 3.0, 4.0}, 10.0), 1.0);
}

TEST(RuleTable, MinMaxTiesCountOnce) {
  // At a tie exactly one operand receives the derivative.
  double A = partial("fmin", 0, {1.0, 1.0}, 1.0);
  double B = partial("fmin", 1, {1.0, 1.0}, 1.0);
  EXPECT_EQ(A + B, 1.0);
}

/// Every spelling of a family resolves to the same row.
TEST(RuleTable, AliasesShareRows) {
  const char *Sin[] = {"sin",
                       "sinf",
                       "sinl",
                       "llvm.sin",
                       "__nv_sin",
                       "__nv_sinf",
                       "__nv_fast_sinf",
                       "__ocml_sin_f32",
                       "__ocml_sin_f64",
                       "__ocml_sin_f16"};
  for (const char *N : Sin)
    EXPECT_EQ(findBuiltinRule(N), findBuiltinRule("sin")) << N;
  const char *Pow[] = {"pow",      "powf",      "llvm.pow",
                       "__nv_pow", "__nv_powf", "__ocml_pow_f64"};
  for (const char *N : Pow)
    EXPECT_EQ(findBuiltinRule(N), findBuiltinRule("pow")) << N;
  EXPECT_EQ(findBuiltinRule("__ocml_pown_f64"), findBuiltinRule("llvm.powi"));
  EXPECT_EQ(findBuiltinRule("__nv_powi"), findBuiltinRule("llvm.powi"));
  EXPECT_EQ(findBuiltinRule("fmod"), findBuiltinRule("frem"));
  EXPECT_EQ(findBuiltinRule("llvm.fmuladd"), findBuiltinRule("llvm.fma"));
  EXPECT_EQ(findBuiltinRule("no_such_function"), nullptr);
}

/// The required math families are all present, in every spelling.
TEST(RuleTable, CoversTheRequiredFamilies) {
  const char *Libm[] = {"sin",   "cos",  "tan",   "asin",  "acos",  "atan",
                        "atan2", "sinh", "cosh",  "tanh",  "exp",   "exp2",
                        "expm1", "log",  "log2",  "log10", "log1p", "pow",
                        "sqrt",  "cbrt", "hypot", "erf",   "erfc",  "fmin",
                        "fmax",  "fabs", "fmod"};
  for (const char *N : Libm) {
    std::string S = N;
    EXPECT_NE(findBuiltinRule(S), nullptr) << S;
    EXPECT_NE(findBuiltinRule(S + "f"), nullptr) << S << "f";
    EXPECT_NE(findBuiltinRule("__nv_" + S), nullptr) << "__nv_" << S;
    EXPECT_NE(findBuiltinRule("__ocml_" + S + "_f32"), nullptr) << S;
    EXPECT_NE(findBuiltinRule("__ocml_" + S + "_f64"), nullptr) << S;
  }
  const char *Intrinsics[] = {
      "llvm.sqrt",    "llvm.exp",      "llvm.exp2",   "llvm.log",
      "llvm.log2",    "llvm.log10",    "llvm.pow",    "llvm.powi",
      "llvm.sin",     "llvm.cos",      "llvm.fabs",   "llvm.fma",
      "llvm.fmuladd", "llvm.minnum",   "llvm.maxnum", "llvm.minimum",
      "llvm.maximum", "llvm.copysign", "llvm.floor",  "llvm.ceil",
      "llvm.trunc",   "llvm.round",    "llvm.rint"};
  for (const char *N : Intrinsics)
    EXPECT_NE(findBuiltinRule(N), nullptr) << N;
  for (const char *N :
       {"fadd", "fsub", "fmul", "fdiv", "fneg", "frem", "fpext", "fptrunc"})
    EXPECT_NE(findBuiltinRule(N), nullptr) << N;
}

} // namespace
