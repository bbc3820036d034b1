//===- BlasRuleHelpers.h - Pieces the BLAS derivatives share ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What the builders of Rules/BlasRules (levels 1 and 2) and
/// Rules/BlasLevel3Rules share: flags made from the call's, the product
/// rule of bilinear routines, a matrix's diagonal as a vector.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_BLASRULEHELPERS_H
#define GPUAD_RULES_BLASRULEHELPERS_H

#include "Rules/CallRule.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace gpuad::blas {

/// The flag that says the opposite of flag argument \p I.
llvm::Value *flipped(BufferCallSite &S, unsigned I);
/// A or B as \p Cond says, for two calls that differ in their operands.
llvm::Value *pick(BufferCallSite &S, llvm::Value *Cond, llvm::Value *A,
                  llvm::Value *B);
/// The product rule of alpha f(x, y), f bilinear: \p Term (alpha, dx, y),
/// (alpha, x, dy), (dalpha, x, y), in that order, for the operands that
/// have tangents (arguments \p Alpha, \p X, \p Y).
void productRule(
    BufferCallSite &S, unsigned Alpha, unsigned X, unsigned Y,
    llvm::function_ref<void(llvm::Value *Alpha, llvm::Value *X, llvm::Value *Y)>
        Term);
/// A matrix's diagonal as a vector: its increment, \p Lda + 1.
llvm::Value *diagonal(BufferCallSite &S, llvm::Value *Lda);
/// -1 where diag argument \p Diag says unit, else 0: what takes the unit
/// diagonal a triangular routine adds back out.
llvm::Value *lessUnit(BufferCallSite &S, unsigned Diag);

} // namespace gpuad::blas

#endif // GPUAD_RULES_BLASRULEHELPERS_H
