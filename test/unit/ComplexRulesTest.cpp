//===- ComplexRulesTest.cpp - The complex rows of the rule table ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Every complex row's Jacobians, evaluated numerically: the row's IR is
/// built on constants (the operands' real parts and the result, computed by
/// std::complex), folded, and compared entry by entry with central finite
/// differences of the function in real parts.
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
#include <complex>
#include <functional>

using namespace llvm;
using namespace gpuad;
using gpuad::test::ConstantMath;
using gpuad::test::fold;

namespace {

using Cd = std::complex<double>;
/// The function in complex terms: operands z1 (and z2), result (its real
/// part alone for real rows).
using CFn = std::function<Cd(Cd, Cd)>;

/// Folds \p F's instructions into constants, in order.
void foldFunction(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (Instruction &I : make_early_inc_range(F.getEntryBlock()))
    if (Constant *C = ConstantFoldInstruction(&I, DL)) {
      I.replaceAllUsesWith(C);
      I.eraseFromParent();
    }
}

/// The Jacobian the row gives for complex operand \p K at (z1, z2), as
/// {du/dx, du/dy, dv/dx, dv/dy} (0 for null entries).
std::array<double, 4> jacobian(const DerivativeRule &Rule, unsigned K, Cd Z1,
                               Cd Z2, Cd R) {
  LLVMContext Ctx;
  Module M("m", Ctx);
  Type *D = Type::getDoubleTy(Ctx);
  auto *RetTy = ArrayType::get(D, 4);
  Function *F = Function::Create(FunctionType::get(RetTy, false),
                                 GlobalValue::ExternalLinkage, "scratch", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  ConstantMath Math;
  double Parts[4] = {Z1.real(), Z1.imag(), Z2.real(), Z2.imag()};
  auto *PairTy = StructType::get(D, D);
  Value *Result =
      Rule.RealResult
          ? static_cast<Value *>(ConstantFP::get(D, R.real()))
          : ConstantStruct::get(PairTy, {ConstantFP::get(D, R.real()),
                                         ConstantFP::get(D, R.imag())});
  RuleContext RC(
      B, D, [&](unsigned I) { return ConstantFP::get(D, Parts[I]); },
      [&] { return Result; }, Math);
  ComplexJacobian J = Rule.ComplexPartials[K](RC);
  Value *Agg = PoisonValue::get(RetTy);
  Value *Entries[4] = {J.ReX, J.ReY, J.ImX, J.ImY};
  for (unsigned I = 0; I < 4; ++I)
    Agg = B.CreateInsertValue(
        Agg, Entries[I] ? Entries[I] : ConstantFP::get(D, 0.0), I);
  ReturnInst *Ret = B.CreateRet(Agg);
  foldFunction(*F);
  std::array<double, 4> Out;
  auto *C = dyn_cast<Constant>(Ret->getReturnValue());
  EXPECT_NE(C, nullptr) << Rule.Family.str() << ": did not fold";
  for (unsigned I = 0; I < 4; ++I) {
    auto *E = C ? dyn_cast<ConstantFP>(C->getAggregateElement(I)) : nullptr;
    Out[I] = E ? E->getValueAPF().convertToDouble() : NAN;
  }
  return Out;
}

/// Checks row \p Name against central differences of \p Fn at (z1, z2).
void expectRow(StringRef Name, const CFn &Fn, Cd Z1, Cd Z2 = 0.0) {
  const DerivativeRule *Rule = findBuiltinRule(Name);
  ASSERT_NE(Rule, nullptr) << Name.str();
  ASSERT_EQ(Rule->Kind, RuleKind::Complex) << Name.str();
  Cd R = Fn(Z1, Z2);
  for (unsigned K = 0; K < Rule->NumOperands / 2; ++K) {
    std::array<double, 4> J = jacobian(*Rule, K, Z1, Z2, R);
    const double H = 1e-6;
    const Cd Steps[2] = {Cd(H, 0), Cd(0, H)};
    for (unsigned Dir = 0; Dir < 2; ++Dir) {
      Cd Plus = K ? Fn(Z1, Z2 + Steps[Dir]) : Fn(Z1 + Steps[Dir], Z2);
      Cd Minus = K ? Fn(Z1, Z2 - Steps[Dir]) : Fn(Z1 - Steps[Dir], Z2);
      Cd FD = (Plus - Minus) / (2 * H);
      EXPECT_NEAR(J[Dir], FD.real(), 1e-6 * std::max(1.0, std::abs(FD)))
          << Name.str() << " d re / d " << (Dir ? "y" : "x") << K + 1;
      if (!Rule->RealResult) {
        EXPECT_NEAR(J[2 + Dir], FD.imag(), 1e-6 * std::max(1.0, std::abs(FD)))
            << Name.str() << " d im / d " << (Dir ? "y" : "x") << K + 1;
      }
    }
  }
}

const Cd Points[] = {{0.7, -0.4}, {-1.2, 0.9}, {0.3, 1.7}, {2.5, 0.01}};

TEST(ComplexRules, ArithmeticMatchesFiniteDifferences) {
  for (Cd A : Points)
    for (Cd B : Points) {
      expectRow("__muldc3", [](Cd X, Cd Y) { return X * Y; }, A, B);
      expectRow("__divdc3", [](Cd X, Cd Y) { return X / Y; }, A, B);
    }
}

TEST(ComplexRules, ElementaryFunctionsMatchFiniteDifferences) {
  for (Cd Z : Points) {
    expectRow("cexp", [](Cd X, Cd) { return std::exp(X); }, Z);
    expectRow("clog", [](Cd X, Cd) { return std::log(X); }, Z);
    expectRow("csqrt", [](Cd X, Cd) { return std::sqrt(X); }, Z);
    expectRow("csin", [](Cd X, Cd) { return std::sin(X); }, Z);
    expectRow("ccos", [](Cd X, Cd) { return std::cos(X); }, Z);
    expectRow("ctan", [](Cd X, Cd) { return std::tan(X); }, Z);
    expectRow("csinh", [](Cd X, Cd) { return std::sinh(X); }, Z);
    expectRow("ccosh", [](Cd X, Cd) { return std::cosh(X); }, Z);
    expectRow("ctanh", [](Cd X, Cd) { return std::tanh(X); }, Z);
    expectRow("cabs", [](Cd X, Cd) { return Cd(std::abs(X)); }, Z);
    expectRow("carg", [](Cd X, Cd) { return Cd(std::arg(X)); }, Z);
    for (Cd W : Points)
      expectRow("cpow", [](Cd X, Cd Y) { return std::pow(X, Y); }, Z, W);
  }
}

TEST(ComplexRules, SpellingsShareRows) {
  for (auto [A, B] :
       {std::pair{"__muldc3", "__mulsc3"}, std::pair{"__divdc3", "__divsc3"},
        std::pair{"cexp", "cexpf"}, std::pair{"cabs", "cabsf"},
        std::pair{"cpow", "cpowf"}})
    EXPECT_EQ(findBuiltinRule(A), findBuiltinRule(B)) << A << " " << B;
  // The long double functions pass operands in memory: no row.
  EXPECT_EQ(findBuiltinRule("cexpl"), nullptr);
}

} // namespace
