//===- ArgumentRangeExpansion.cpp - Argument ranges as code ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ArgumentRangeExpansion.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace gpuad {

Value *RangeExpander::expand(const SCEV *S) {
  if (Value *V = Done.lookup(S))
    return V;
  return Done[S] = emit(S);
}

Value *RangeExpander::fold(const SCEVNAryExpr &N, Instruction::BinaryOps Op) {
  Value *V = expand(N.getOperand(0));
  for (const SCEV *Operand : drop_begin(N.operands()))
    V = B.CreateBinOp(Op, V, expand(Operand));
  return V;
}
Value *RangeExpander::fold(const SCEVNAryExpr &N, Intrinsic::ID Op) {
  Value *V = expand(N.getOperand(0));
  for (const SCEV *Operand : drop_begin(N.operands()))
    V = B.CreateBinaryIntrinsic(Op, V, expand(Operand));
  return V;
}

Value *RangeExpander::emit(const SCEV *S) {
  Type *Ty = S->getType();
  switch (S->getSCEVType()) {
  case scConstant:
    return cast<SCEVConstant>(S)->getValue();
  case scUnknown:
    return Param(cast<Argument>(cast<SCEVUnknown>(S)->getValue())->getArgNo());
  case scTruncate:
    return B.CreateTrunc(expand(cast<SCEVCastExpr>(S)->getOperand()), Ty);
  case scZeroExtend:
    return B.CreateZExt(expand(cast<SCEVCastExpr>(S)->getOperand()), Ty);
  case scSignExtend:
    return B.CreateSExt(expand(cast<SCEVCastExpr>(S)->getOperand()), Ty);
  case scAddExpr:
    return fold(*cast<SCEVNAryExpr>(S), Instruction::Add);
  case scMulExpr:
    return fold(*cast<SCEVNAryExpr>(S), Instruction::Mul);
  case scUDivExpr: {
    const auto *D = cast<SCEVUDivExpr>(S);
    return B.CreateUDiv(expand(D->getLHS()), expand(D->getRHS()));
  }
  case scSMaxExpr:
    return fold(*cast<SCEVNAryExpr>(S), Intrinsic::smax);
  case scSMinExpr:
    return fold(*cast<SCEVNAryExpr>(S), Intrinsic::smin);
  case scUMaxExpr:
    return fold(*cast<SCEVNAryExpr>(S), Intrinsic::umax);
  case scUMinExpr:
  case scSequentialUMinExpr:
    return fold(*cast<SCEVNAryExpr>(S), Intrinsic::umin);
  default:
    llvm_unreachable("ArgumentRanges keeps other expressions out");
  }
}

} // namespace gpuad
