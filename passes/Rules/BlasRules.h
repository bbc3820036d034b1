//===- BlasRules.h - Derivatives of BLAS routines ---------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tangent and adjoint builders of the BLAS and LAPACK rows in
/// CallRules.def.
/// Each is the routine's derivative written as calls of BLAS routines on
/// the call site's values (BufferCallSite), in the routine's precision and
/// spelling: the adjoint of dot is two axpy calls, so derivatives run at
/// BLAS speed.  Increments are the call's own; a buffer the adjoint reads
/// as it was at the call comes from BufferCallSite::atCall.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_BLASRULES_H
#define GPUAD_RULES_BLASRULES_H

#include "Rules/CallRule.h"

namespace gpuad::blas {

/// r = x . y
llvm::Value *dotTangent(BufferCallSite &S);
void dotAdjoint(BufferCallSite &S);
/// y = alpha x + y
llvm::Value *axpyTangent(BufferCallSite &S);
void axpyAdjoint(BufferCallSite &S);
/// x = alpha x
llvm::Value *scalTangent(BufferCallSite &S);
void scalAdjoint(BufferCallSite &S);
/// r = |x|_2
llvm::Value *nrm2Tangent(BufferCallSite &S);
void nrm2Adjoint(BufferCallSite &S);
/// y = x (linear: its tangent is the call on the shadows)
void copyAdjoint(BufferCallSite &S);
/// x, y = y, x
llvm::Value *swapTangent(BufferCallSite &S);
void swapAdjoint(BufferCallSite &S);
/// r = sum |x_i|
llvm::Value *asumTangent(BufferCallSite &S);
void asumAdjoint(BufferCallSite &S);
/// y = alpha op(A) x + beta y
llvm::Value *gemvTangent(BufferCallSite &S);
void gemvAdjoint(BufferCallSite &S);
/// y = alpha A x + beta y, A symmetric (one triangle read)
llvm::Value *symvTangent(BufferCallSite &S);
void symvAdjoint(BufferCallSite &S);
/// A = alpha (x y^T + y x^T) + A, on one triangle
llvm::Value *syr2Tangent(BufferCallSite &S);
void syr2Adjoint(BufferCallSite &S);
/// x = op(A) x, A triangular
llvm::Value *trmvTangent(BufferCallSite &S);
void trmvAdjoint(BufferCallSite &S);
/// x = op(A)^-1 x, A triangular
llvm::Value *trsvTangent(BufferCallSite &S);
void trsvAdjoint(BufferCallSite &S);
/// A = alpha x y^T + A
llvm::Value *gerTangent(BufferCallSite &S);
void gerAdjoint(BufferCallSite &S);
/// C = alpha op(A) op(B) + beta C
llvm::Value *gemmTangent(BufferCallSite &S);
void gemmAdjoint(BufferCallSite &S);
/// C = alpha A B + beta C or alpha B A + beta C, A symmetric
llvm::Value *symmTangent(BufferCallSite &S);
void symmAdjoint(BufferCallSite &S);
/// B = alpha op(A) B or alpha B op(A), A triangular
llvm::Value *trmmTangent(BufferCallSite &S);
void trmmAdjoint(BufferCallSite &S);
/// B = alpha op(A)^-1 B or alpha B op(A)^-1, A triangular
llvm::Value *trsmTangent(BufferCallSite &S);
void trsmAdjoint(BufferCallSite &S);
/// C = alpha op(A) op(A)^T + beta C, on one triangle
llvm::Value *syrkTangent(BufferCallSite &S);
void syrkAdjoint(BufferCallSite &S);

} // namespace gpuad::blas

/// The LAPACK rows' builders (LapackRules.cpp), the same way.
namespace gpuad::lapack {

/// A = L L^T (or U^T U), the factor over A's triangle
llvm::Value *potrfTangent(BufferCallSite &S);
void potrfAdjoint(BufferCallSite &S);
/// B = A^-1 B from A's Cholesky factor
llvm::Value *potrsTangent(BufferCallSite &S);
void potrsAdjoint(BufferCallSite &S);
/// P A = L U over A (square), the row interchanges in ipiv
llvm::Value *getrfTangent(BufferCallSite &S);
void getrfAdjoint(BufferCallSite &S);
/// B = op(A)^-1 B from getrf's factors and interchanges
llvm::Value *getrsTangent(BufferCallSite &S);
void getrsAdjoint(BufferCallSite &S);

} // namespace gpuad::lapack

#endif // GPUAD_RULES_BLASRULES_H
