//===- LapackRules.cpp - Derivatives of LAPACK routines -------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
// potrf and potrs (Cholesky), in Fortran's spelling (column major, flags
// as characters), as BLAS level-3 calls and triangle loops.  With A = L L^T
// (uplo 'L'; 'U' stores U = L^T, A = U^T U), X = L^-1 dA L^-T and Phi(X)
// its lower triangle with the diagonal halved:
//   potrf: dL = L Phi(X);  A_bar = G + G^T on A's triangle (diagonal once),
//          G = L^-T Phi(L^T L_bar) L^-1 (Murray, "Differentiation of the
//          Cholesky decomposition", 2016);
//   potrs: X = A^-1 B, dX = A^-1 (dB - dA X), dA = dL L^T + L dL^T;
//          B_bar = A^-1 X_bar, L_bar += tril(S L) (U_bar += triu(U S)) with
//          S = -(B_bar X^T + X B_bar^T).
// The factor a builder needs after the call (potrf's adjoint, before it in
// its tangent) is computed again from A as it was at the call: potrf on a
// copy, rather than a copy of the result kept until the reverse sweep.

#include "Rules/BlasRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace gpuad::lapack {

// Argument numbers, as CallRules.def lists them.
namespace potrf {
enum { Uplo, N, A, Lda, Info };
} // namespace potrf
namespace potrs {
enum { Uplo, N, Nrhs, A, Lda, B, Ldb, Info };
} // namespace potrs

namespace {

using StridedMatrix = BufferCallSite::StridedMatrix;

/// A Fortran flag character (LAPACK's rows have only that spelling), of
/// the type \p Like (a flag the call passed) has.
Value *letter(Value *Like, char C) {
  return ConstantInt::get(Like->getType(), C);
}

/// The layout the BLAS calls pass (Fortran's drops it: column major).
Value *columnMajor(BufferCallSite &S) {
  return S.B.getInt32(blas_flag::ColumnMajor);
}

/// A column-major matrix and its transpose, as strided views.
StridedMatrix view(Value *M, Value *Ld, Value *One) { return {M, One, Ld}; }
StridedMatrix transposedView(Value *M, Value *Ld, Value *One) {
  return {M, Ld, One};
}

/// The factor of one call, as stored in the triangle its uplo names: the
/// lower factor L of A = L L^T, or U = L^T.  Its operations are BLAS calls
/// with op(L) expressed through the stored triangle.
class Factor {
public:
  Factor(BufferCallSite &S, Value *UploFlag, Value *N)
      : S(S), UploFlag(UploFlag),
        Upper(BufferCallSite::saysFlag(S.B, UploFlag, BufferSpelling::Fortran,
                                       blas_flag::Upper, 'U')),
        N(N), One(ConstantInt::get(N->getType(), 1)),
        Ld(S.B.CreateBinaryIntrinsic(Intrinsic::smax, N, One)) {}

  Value *upper() const { return Upper; }
  Value *one() const { return One; }
  /// The leading dimension of an n x k scratch matrix.
  Value *ld() const { return Ld; }

  /// An n x \p Columns scratch matrix.
  Value *scratch(Value *Columns) {
    return S.temporary(S.B.CreateMul(N, Columns));
  }
  /// A scratch copy of the n x \p Columns matrix \p M, \p LdM.
  Value *copy(Value *M, Value *LdM, Value *Columns) {
    Value *T = scratch(Columns);
    S.eachColumn("copy", columnMajor(S), N, Columns, {M, LdM, T, Ld});
    return T;
  }

  /// X (n x \p Columns) := op(L) X from the left, or X op(L) (X \p Columns
  /// x n) from the right, L^T where \p Transposed; trmm, or with \p Solve
  /// op(L)^-1 (trsm).  \p F, \p LdF: the stored factor (or its tangent).
  void apply(bool Solve, bool Left, bool Transposed, Value *F, Value *LdF,
             Value *X, Value *LdX, Value *Columns) {
    // L as stored is F (lower) or F^T (upper).
    Value *Trans =
        S.B.CreateSelect(Upper, letter(UploFlag, Transposed ? 'N' : 'T'),
                         letter(UploFlag, Transposed ? 'T' : 'N'));
    S.call(Solve ? "trsm" : "trmm",
           {columnMajor(S), letter(UploFlag, Left ? 'L' : 'R'), UploFlag, Trans,
            letter(UploFlag, 'N'), Left ? N : Columns, Left ? Columns : N,
            S.constant(1.0), F, LdF, X, LdX});
  }
  /// X := A^-1 X for A = L L^T (n x \p Columns).
  void solve(Value *F, Value *LdF, Value *X, Value *LdX, Value *Columns) {
    apply(/*Solve=*/true, /*Left=*/true, /*Transposed=*/false, F, LdF, X, LdX,
          Columns);
    apply(/*Solve=*/true, /*Left=*/true, /*Transposed=*/true, F, LdF, X, LdX,
          Columns);
  }
  /// Phi(X) in place for an n x n X: its strict upper triangle zeroed, its
  /// diagonal halved.
  void phi(Value *X) {
    S.eachTriangleElement("lapack.zero", N, S.B.getTrue(), S.B.getTrue(),
                          {view(X, Ld, One)}, {}, {}, {}, /*Sums=*/false,
                          [&](IRBuilderBase &LB, ArrayRef<Value *> E,
                              ArrayRef<Value *>) -> Value * {
                            LB.CreateStore(ConstantFP::get(S.Element, 0.0),
                                           E[0]);
                            return nullptr;
                          });
    S.call("scal", {N, S.constant(0.5), X, S.B.CreateAdd(Ld, One)});
  }
  /// The factor of A (n x n, \p LdA, as it was at the call) in a scratch
  /// matrix: potrf again.
  Value *factorOf(Value *A, Value *LdA) {
    Value *F = copy(A, LdA, N);
    S.call("potrf", {UploFlag, N, F, Ld, S.B.getInt32(0)});
    return F;
  }

private:
  BufferCallSite &S;
  Value *UploFlag, *Upper, *N, *One, *Ld;
};

/// Stores element (i, j) of the second matrix into the first.
Value *storeSecond(IRBuilderBase &LB, ArrayRef<Value *> E, Type *T) {
  LB.CreateStore(LB.CreateLoad(T, E[1]), E[0]);
  return nullptr;
}

} // namespace

Value *potrfTangent(BufferCallSite &S) {
  using namespace potrf;
  // dL = L Phi(L^-1 dA L^-T), dA symmetric from A's triangle, written
  // where the factor goes (before the call overwrites A).
  Value *DA = S.shadow(A);
  if (!DA)
    return nullptr;
  Value *N = S.primal(potrf::N), *Lda = S.primal(potrf::Lda);
  Factor L(S, S.primal(Uplo), N);
  Value *One = L.one(), *Ld = L.ld();
  Value *F = L.factorOf(S.primal(A), Lda);
  Value *X = L.scratch(N);
  S.eachTriangleElement(
      "lapack.symmetric", N, L.upper(), S.B.getFalse(),
      {view(X, Ld, One), transposedView(X, Ld, One), view(DA, Lda, One)}, {},
      {}, {}, /*Sums=*/false,
      [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
        Value *V = LB.CreateLoad(S.Element, E[2]);
        LB.CreateStore(V, E[0]);
        LB.CreateStore(V, E[1]);
        return nullptr;
      });
  L.apply(/*Solve=*/true, /*Left=*/true, /*Transposed=*/false, F, Ld, X, Ld, N);
  L.apply(/*Solve=*/true, /*Left=*/false, /*Transposed=*/true, F, Ld, X, Ld, N);
  L.phi(X);
  L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/false, F, Ld, X, Ld,
          N);
  // X is dL (lower); the upper factor's tangent is dL^T.
  Value *Up = L.upper();
  StridedMatrix DL = {X, S.B.CreateSelect(Up, Ld, One),
                      S.B.CreateSelect(Up, One, Ld)};
  S.eachTriangleElement(
      "lapack.copy", N, Up, S.B.getFalse(), {view(DA, Lda, One), DL}, {}, {},
      {}, /*Sums=*/false,
      [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
        return storeSecond(LB, E, S.Element);
      });
  return nullptr;
}

void potrfAdjoint(BufferCallSite &S) {
  using namespace potrf;
  // G = L^-T Phi(L^T L_bar) L^-1; A_bar = G + G^T on the triangle, the
  // diagonal once, in place of the factor's adjoint.
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  Value *N = S.primal(potrf::N), *Lda = S.primal(potrf::Lda);
  Factor L(S, S.primal(Uplo), N);
  Value *One = L.one(), *Ld = L.ld(), *Up = L.upper();
  auto [AAt, LdaAt] = S.atCall(A);
  Value *F = L.factorOf(AAt, LdaAt);
  // L_bar (lower) from the factor's adjoint: U_bar^T where upper.
  Value *G = L.scratch(N);
  S.zero(S.B.CreateMul(N, N), G, One);
  StridedMatrix DLbar = {DA, S.B.CreateSelect(Up, Lda, One),
                         S.B.CreateSelect(Up, One, Lda)};
  S.eachTriangleElement(
      "lapack.copy", N, S.B.getFalse(), S.B.getFalse(),
      {view(G, Ld, One), DLbar}, {}, {}, {}, /*Sums=*/false,
      [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
        return storeSecond(LB, E, S.Element);
      });
  L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/true, F, Ld, G, Ld, N);
  L.phi(G);
  L.apply(/*Solve=*/true, /*Left=*/true, /*Transposed=*/true, F, Ld, G, Ld, N);
  L.apply(/*Solve=*/true, /*Left=*/false, /*Transposed=*/false, F, Ld, G, Ld,
          N);
  S.eachTriangleElement(
      "lapack.fold", N, Up, S.B.getTrue(),
      {view(DA, Lda, One), view(G, Ld, One), transposedView(G, Ld, One)}, {},
      {}, {}, /*Sums=*/false,
      [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
        LB.CreateStore(LB.CreateFAdd(LB.CreateLoad(S.Element, E[1]),
                                     LB.CreateLoad(S.Element, E[2])),
                       E[0]);
        return nullptr;
      });
  S.call("copy", {N, G, S.B.CreateAdd(Ld, One), DA, S.B.CreateAdd(Lda, One)});
}

Value *potrsTangent(BufferCallSite &S) {
  using namespace potrs;
  // dX = A^-1 (dB - dA X), dA X = dL (L^T X) + L (dL^T X), before the call
  // overwrites B with X.
  Value *DB = S.shadow(B);
  if (!DB)
    return nullptr;
  Value *N = S.primal(potrs::N), *Nrhs = S.primal(potrs::Nrhs);
  Value *F = S.primal(A), *Lda = S.primal(potrs::Lda),
        *Ldb = S.primal(potrs::Ldb);
  Factor L(S, S.primal(Uplo), N);
  Value *Ld = L.ld();
  if (Value *DA = S.shadow(A)) {
    Value *X = L.copy(S.primal(B), Ldb, Nrhs);
    L.solve(F, Lda, X, Ld, Nrhs);
    for (bool First : {true, false}) {
      // dL (L^T X), then L (dL^T X).
      Value *T = L.copy(X, Ld, Nrhs);
      L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/true,
              First ? F : DA, Lda, T, Ld, Nrhs);
      L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/false,
              First ? DA : F, Lda, T, Ld, Nrhs);
      S.eachColumn("axpy", columnMajor(S), N, Nrhs,
                   {S.constant(-1.0), T, Ld, DB, Ldb});
    }
  }
  L.solve(F, Lda, DB, Ldb, Nrhs);
  return nullptr;
}

void potrsAdjoint(BufferCallSite &S) {
  using namespace potrs;
  // B_bar = A^-1 X_bar in place; the factor's adjoint += tril(S L) (upper:
  // triu(U S)), S = -(B_bar X^T + X B_bar^T), X = A^-1 B as B was.
  Value *DB = S.shadow(B);
  if (!DB)
    return;
  Value *N = S.primal(potrs::N), *Nrhs = S.primal(potrs::Nrhs);
  Value *Ldb = S.primal(potrs::Ldb);
  Factor L(S, S.primal(Uplo), N);
  Value *One = L.one(), *Ld = L.ld(), *Up = L.upper();
  auto [F, LdF] = S.atCall(A);
  L.solve(F, LdF, DB, Ldb, Nrhs);
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  auto [BAt, LdbAt] = S.atCall(B);
  Value *X = L.copy(BAt, LdbAt, Nrhs);
  L.solve(F, LdF, X, Ld, Nrhs);
  Value *Sym = L.scratch(N);
  Value *UploFlag = S.primal(Uplo);
  Value *NoT = letter(UploFlag, 'N'), *Tr = letter(UploFlag, 'T');
  S.call("gemm", {columnMajor(S), NoT, Tr, N, N, Nrhs, S.constant(-1.0), DB,
                  Ldb, X, Ld, S.constant(0.0), Sym, Ld});
  S.call("gemm", {columnMajor(S), NoT, Tr, N, N, Nrhs, S.constant(-1.0), X, Ld,
                  DB, Ldb, S.constant(1.0), Sym, Ld});
  // S L from the right for the lower factor, U S from the left for the
  // upper one: the stored factor, untransposed, on the side it names.
  S.call("trmm",
         {columnMajor(S),
          S.B.CreateSelect(Up, letter(UploFlag, 'L'), letter(UploFlag, 'R')),
          UploFlag, NoT, NoT, N, N, S.constant(1.0), F, LdF, Sym, Ld});
  S.eachTriangleElement(
      "lapack.add", N, Up, S.B.getFalse(),
      {view(DA, S.primal(potrs::Lda), One), view(Sym, Ld, One)}, {}, {}, {},
      /*Sums=*/false,
      [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
        LB.CreateStore(LB.CreateFAdd(LB.CreateLoad(S.Element, E[0]),
                                     LB.CreateLoad(S.Element, E[1])),
                       E[0]);
        return nullptr;
      });
}

} // namespace gpuad::lapack
