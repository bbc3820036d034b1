//===- ConstantMath.h - MathFn on constants, for the rule tests -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// The rule-table tests build each rule's IR on constants and read the
/// result by constant folding; the elementary functions a rule asks for
/// (MathFn) are computed here by the host's libm.
///
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TEST_UNIT_CONSTANTMATH_H
#define GPUAD_TEST_UNIT_CONSTANTMATH_H

#include "Rules/DerivativeRules.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

#include <cmath>

namespace gpuad::test {

/// \p V folded to a constant, its operands first (IRBuilder folds
/// arithmetic as it goes, not intrinsic calls); null if it does not fold.
inline llvm::Constant *fold(llvm::Value *V) {
  if (auto *C = llvm::dyn_cast<llvm::Constant>(V))
    return C;
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return nullptr;
  for (llvm::Use &Op : I->operands())
    if (!llvm::isa<llvm::BasicBlock>(Op.get()) &&
        !llvm::isa<llvm::Function>(Op.get()))
      if (llvm::Constant *C = fold(Op.get()))
        Op.set(C);
  return llvm::ConstantFoldInstruction(I, I->getModule()->getDataLayout());
}

/// MathFn on constants by host libm.
class ConstantMath : public MathProvider {
public:
  llvm::Value *emit(llvm::IRBuilderBase &B, MathFn Fn,
                    llvm::ArrayRef<llvm::Value *> Args) override {
    auto Get = [&](unsigned I) {
      llvm::Constant *C = fold(Args[I]);
      if (auto *CI = llvm::dyn_cast_or_null<llvm::ConstantInt>(C))
        return double(CI->getSExtValue());
      auto *CF = llvm::dyn_cast_or_null<llvm::ConstantFP>(C);
      EXPECT_NE(CF, nullptr) << "a MathFn argument did not fold";
      return CF ? CF->getValueAPF().convertToDouble() : NAN;
    };
    double X = Get(0), R = 0;
    switch (Fn) {
    case MathFn::Sin:
      R = std::sin(X);
      break;
    case MathFn::Cos:
      R = std::cos(X);
      break;
    case MathFn::Exp:
      R = std::exp(X);
      break;
    case MathFn::Log:
      R = std::log(X);
      break;
    case MathFn::Sinh:
      R = std::sinh(X);
      break;
    case MathFn::Cosh:
      R = std::cosh(X);
      break;
    case MathFn::Atan2:
      R = std::atan2(X, Get(1));
      break;
    case MathFn::Pow:
    case MathFn::Powi:
      R = std::pow(X, Get(1));
      break;
    }
    return llvm::ConstantFP::get(B.getDoubleTy(), R);
  }
};

} // namespace gpuad::test

#endif // GPUAD_TEST_UNIT_CONSTANTMATH_H
