//===- HostTarget.cpp - Target hooks for CPUs -----------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// On a CPU every elementary function a rule needs is an LLVM intrinsic; the
/// backend lowers it to libm (or inline code), for vectors too.
//===----------------------------------------------------------------------===//

#include "Target/Targets.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace gpuad {

StringRef libraryBaseName(MathFn Fn) {
  switch (Fn) {
  case MathFn::Sin:
    return "sin";
  case MathFn::Cos:
    return "cos";
  case MathFn::Exp:
    return "exp";
  case MathFn::Log:
    return "log";
  case MathFn::Pow:
    return "pow";
  case MathFn::Powi:
    return "powi";
  case MathFn::Sinh:
    return "sinh";
  case MathFn::Cosh:
    return "cosh";
  case MathFn::Atan2:
    return "atan2";
  }
  llvm_unreachable("unknown MathFn");
}

namespace {

class HostHooks final : public TargetHooks {
public:
  StringRef name() const override { return "host"; }
  bool isGPU() const override { return false; }
  bool isInactiveCall(const CallBase &) const override { return false; }

  Value *emit(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) override {
    switch (Fn) {
    case MathFn::Sin:
      return B.CreateUnaryIntrinsic(Intrinsic::sin, Args[0]);
    case MathFn::Cos:
      return B.CreateUnaryIntrinsic(Intrinsic::cos, Args[0]);
    case MathFn::Exp:
      return B.CreateUnaryIntrinsic(Intrinsic::exp, Args[0]);
    case MathFn::Log:
      return B.CreateUnaryIntrinsic(Intrinsic::log, Args[0]);
    case MathFn::Sinh:
      return B.CreateUnaryIntrinsic(Intrinsic::sinh, Args[0]);
    case MathFn::Cosh:
      return B.CreateUnaryIntrinsic(Intrinsic::cosh, Args[0]);
    case MathFn::Pow:
      return B.CreateBinaryIntrinsic(Intrinsic::pow, Args[0], Args[1]);
    case MathFn::Atan2:
      return B.CreateBinaryIntrinsic(Intrinsic::atan2, Args[0], Args[1]);
    case MathFn::Powi:
      return B.CreateIntrinsic(Intrinsic::powi,
                               {Args[0]->getType(), Args[1]->getType()},
                               {Args[0], Args[1]});
    }
    llvm_unreachable("unknown MathFn");
  }
};

} // namespace

std::unique_ptr<TargetHooks> makeHostHooks(Module &) {
  return std::make_unique<HostHooks>();
}

} // namespace gpuad
