//===- ArgumentRangeExpansion.h - Argument ranges as code -------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// ArgumentRanges gives the bytes a call reaches through each pointer
/// parameter as scalar-evolution expressions of the integer parameters.
/// This file computes them for a derivative's primal (PrimalRanges) and
/// emits them as code at a generated function's entry (RangeExpander), where
/// the run-time alias check compares them and scratch shadows are sized by
/// them.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_ARGUMENTRANGEEXPANSION_H
#define GPUAD_ANALYSIS_ARGUMENTRANGEEXPANSION_H

#include "Analysis/ArgumentRanges.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace gpuad {

/// The argument ranges of a derivative's primal, with the scalar evolution
/// their expressions live in.
struct PrimalRanges {
  llvm::Function &F;
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ScalarEvolution SE;
  ArgumentRanges Ranges;

  PrimalRanges(llvm::Function &F, const CallTable &Calls)
      : F(F), TLII(F.getParent()->getTargetTriple()), TLI(TLII, &F), AC(F),
        DT(F), LI(DT), SE(F, TLI, AC, DT, LI),
        Ranges(computeArgumentRanges(F, SE, TLI, Calls)) {}
};

/// Emits range expressions (ArgumentRanges: constants and integer
/// parameters of the primal) where \p B inserts; \p Param gives the value of
/// the primal's parameter with that number there.
class RangeExpander {
public:
  RangeExpander(llvm::IRBuilderBase &B,
                llvm::function_ref<llvm::Value *(unsigned)> Param)
      : B(B), Param(Param) {}

  llvm::Value *expand(const llvm::SCEV *S);

private:
  llvm::IRBuilderBase &B;
  llvm::function_ref<llvm::Value *(unsigned)> Param;
  llvm::DenseMap<const llvm::SCEV *, llvm::Value *> Done;

  llvm::Value *fold(const llvm::SCEVNAryExpr &N,
                    llvm::Instruction::BinaryOps Op);
  llvm::Value *fold(const llvm::SCEVNAryExpr &N, llvm::Intrinsic::ID Op);
  llvm::Value *emit(const llvm::SCEV *S);
};

} // namespace gpuad

#endif // GPUAD_ANALYSIS_ARGUMENTRANGEEXPANSION_H
