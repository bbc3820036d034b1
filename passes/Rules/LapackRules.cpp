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
enum { Layout, Uplo, N, A, Lda, Info };
} // namespace potrf
namespace potrs {
enum { Layout, Uplo, N, Nrhs, A, Lda, B, Ldb, Info };
} // namespace potrs
namespace getrf {
enum { Layout, M, N, A, Lda, Ipiv, Info };
} // namespace getrf
namespace getrs {
enum { Layout, Trans, N, Nrhs, A, Lda, Ipiv, B, Ldb, Info };
} // namespace getrs

namespace {

using StridedMatrix = BufferCallSite::StridedMatrix;

/// A Fortran flag character (LAPACK's rows have only that spelling).
Value *letter(BufferCallSite &S, char C) { return S.B.getInt8(C); }

/// The layout the BLAS calls pass (Fortran's drops it: column major).
Value *columnMajor(BufferCallSite &S) {
  return S.B.getInt32(blas_flag::ColumnMajor);
}

/// A column-major matrix and its transpose, as strided views.
StridedMatrix view(Value *M, Value *Ld, Value *One) { return {M, One, Ld}; }
StridedMatrix transposedView(Value *M, Value *Ld, Value *One) {
  return {M, Ld, One};
}

/// Scratch n x k matrices beside the n x n matrix of one call (column
/// major, leading dimension max(n, 1)), and what the builders do to them.
class Scratch {
public:
  /// \p RowMajor (an i1): how the call stores its matrices (LAPACKE's
  /// row-major layout; false for Fortran's).
  Scratch(BufferCallSite &S, Value *N, Value *RowMajor)
      : S(S), N(N), One(ConstantInt::get(N->getType(), 1)),
        Ld(S.B.CreateBinaryIntrinsic(Intrinsic::smax, N, One)),
        RowMajor(RowMajor) {}

  Value *one() const { return One; }
  Value *ld() const { return Ld; }

  /// The call's matrix \p M, \p LdM as a strided view in its layout.
  StridedMatrix user(Value *M, Value *LdM) {
    Value *Stride = S.B.CreateSExtOrTrunc(LdM, N->getType());
    return {M, S.B.CreateSelect(RowMajor, Stride, One),
            S.B.CreateSelect(RowMajor, One, Stride)};
  }
  /// A column-major scratch copy of the call's n x \p Columns matrix \p M,
  /// \p LdM (transposed into place where the call is row major).
  Value *load(Value *M, Value *LdM, Value *Columns) {
    Value *T = scratch(Columns);
    S.copyMatrix(N, Columns, user(M, LdM), view(T, Ld, One));
    return T;
  }
  /// Stores the n x \p Columns scratch \p T into the call's matrix \p M.
  void store(Value *T, Value *M, Value *LdM, Value *Columns) {
    S.copyMatrix(N, Columns, view(T, Ld, One), user(M, LdM));
  }

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
  /// Y += Scale X, both n x \p Columns.
  void add(Value *X, Value *LdX, Value *Y, Value *LdY, Value *Columns,
           double Scale = 1.0) {
    S.eachColumn("axpy", columnMajor(S), N, Columns,
                 {S.constant(Scale), X, LdX, Y, LdY});
  }
  /// Zeroes a triangle of the n x n \p X: the upper one (i <= j; i < j
  /// where \p Strict) or the lower one.
  void zeroTriangle(Value *X, Value *Upper, Value *Strict) {
    S.eachTriangleElement(
        "lapack.zero", N, Upper, Strict, {view(X, Ld, One)}, {}, {}, {},
        /*Sums=*/false,
        [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
          LB.CreateStore(ConstantFP::get(S.Element, 0.0), E[0]);
          return nullptr;
        });
  }
  void zeroTriangle(Value *X, bool Upper, bool Strict) {
    zeroTriangle(X, S.B.getInt1(Upper), S.B.getInt1(Strict));
  }
  /// Adds a triangle of the n x n scratch \p X to the same triangle of
  /// \p Y.
  void addTriangle(Value *X, StridedMatrix Y, Value *Upper, Value *Strict) {
    S.eachTriangleElement(
        "lapack.add", N, Upper, Strict, {Y, view(X, Ld, One)}, {}, {}, {},
        /*Sums=*/false,
        [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
          LB.CreateStore(LB.CreateFAdd(LB.CreateLoad(S.Element, E[0]),
                                       LB.CreateLoad(S.Element, E[1])),
                         E[0]);
          return nullptr;
        });
  }
  void addTriangle(Value *X, StridedMatrix Y, bool Upper, bool Strict) {
    addTriangle(X, Y, S.B.getInt1(Upper), S.B.getInt1(Strict));
  }
  /// Copies a triangle (with the diagonal) of the n x n view \p From into
  /// the same triangle of \p To.
  void copyTriangle(StridedMatrix From, StridedMatrix To, Value *Upper) {
    S.eachTriangleElement(
        "lapack.copy", N, Upper, S.B.getFalse(), {To, From}, {}, {}, {},
        /*Sums=*/false,
        [&](IRBuilderBase &LB, ArrayRef<Value *> E, ArrayRef<Value *>) {
          LB.CreateStore(LB.CreateLoad(S.Element, E[1]), E[0]);
          return nullptr;
        });
  }

protected:
  BufferCallSite &S;
  Value *N, *One, *Ld, *RowMajor;
};

/// The Cholesky factor of one call, as stored in the triangle its uplo
/// names: the lower factor L of A = L L^T, or U = L^T.  Its operations are
/// BLAS calls with op(L) expressed through the stored triangle.
class Factor : public Scratch {
public:
  /// \p Uplo, \p Layout: the call's arguments.  A row-major symmetric
  /// matrix's triangle is the other one of the same memory read column
  /// major, and so is its factor's: the derivative works column major on
  /// that triangle.
  Factor(BufferCallSite &S, unsigned Uplo, unsigned Layout, Value *N)
      : Scratch(S, N, S.rowMajor(Layout)),
        Upper(S.B.CreateXor(S.upper(Uplo), RowMajor)),
        UploFlag(S.B.CreateSelect(Upper, letter(S, 'U'), letter(S, 'L'))) {}

  Value *upper() const { return Upper; }
  /// The triangle's flag, column major.
  Value *uplo() const { return UploFlag; }

  /// X (n x \p Columns) := op(L) X from the left, or X op(L) (X \p Columns
  /// x n) from the right, L^T where \p Transposed; trmm, or with \p Solve
  /// op(L)^-1 (trsm).  \p F, \p LdF: the stored factor (or its tangent).
  void apply(bool Solve, bool Left, bool Transposed, Value *F, Value *LdF,
             Value *X, Value *LdX, Value *Columns) {
    // L as stored is F (lower) or F^T (upper).
    Value *Trans = S.B.CreateSelect(Upper, letter(S, Transposed ? 'N' : 'T'),
                                    letter(S, Transposed ? 'T' : 'N'));
    S.call(Solve ? "trsm" : "trmm",
           {columnMajor(S), letter(S, Left ? 'L' : 'R'), UploFlag, Trans,
            letter(S, 'N'), Left ? N : Columns, Left ? Columns : N,
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
    zeroTriangle(X, /*Upper=*/true, /*Strict=*/true);
    S.call("scal", {N, S.constant(0.5), X, S.B.CreateAdd(Ld, One)});
  }
  /// The factor of A (n x n, \p LdA, as it was at the call) in a scratch
  /// matrix: potrf again.
  Value *factorOf(Value *A, Value *LdA) {
    Value *F = copy(A, LdA, N);
    S.call("potrf", {columnMajor(S), UploFlag, N, F, Ld, S.B.getInt32(0)});
    return F;
  }

private:
  Value *Upper, *UploFlag;
};

} // namespace

Value *potrfTangent(BufferCallSite &S) {
  using namespace potrf;
  // dL = L Phi(L^-1 dA L^-T), dA symmetric from A's triangle, written
  // where the factor goes (before the call overwrites A).
  Value *DA = S.shadow(A);
  if (!DA)
    return nullptr;
  Value *N = S.primal(potrf::N), *Lda = S.primal(potrf::Lda);
  Factor L(S, Uplo, Layout, N);
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
  L.copyTriangle(DL, view(DA, Lda, One), Up);
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
  Factor L(S, Uplo, Layout, N);
  Value *One = L.one(), *Ld = L.ld(), *Up = L.upper();
  auto [AAt, LdaAt] = S.atCall(A);
  Value *F = L.factorOf(AAt, LdaAt);
  // L_bar (lower) from the factor's adjoint: U_bar^T where upper.
  Value *G = L.scratch(N);
  S.zero(S.B.CreateMul(N, N), G, One);
  StridedMatrix DLbar = {DA, S.B.CreateSelect(Up, Lda, One),
                         S.B.CreateSelect(Up, One, Lda)};
  L.copyTriangle(DLbar, view(G, Ld, One), S.B.getFalse());
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
  // overwrites B with X; B and its tangent in column-major scratch.
  Value *DB = S.shadow(B);
  if (!DB)
    return nullptr;
  Value *N = S.primal(potrs::N), *Nrhs = S.primal(potrs::Nrhs);
  Value *F = S.primal(A), *Lda = S.primal(potrs::Lda),
        *Ldb = S.primal(potrs::Ldb);
  Factor L(S, Uplo, Layout, N);
  Value *Ld = L.ld();
  Value *DX = L.load(DB, Ldb, Nrhs);
  if (Value *DA = S.shadow(A)) {
    Value *X = L.load(S.primal(B), Ldb, Nrhs);
    L.solve(F, Lda, X, Ld, Nrhs);
    for (bool First : {true, false}) {
      // dL (L^T X), then L (dL^T X).
      Value *T = L.copy(X, Ld, Nrhs);
      L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/true,
              First ? F : DA, Lda, T, Ld, Nrhs);
      L.apply(/*Solve=*/false, /*Left=*/true, /*Transposed=*/false,
              First ? DA : F, Lda, T, Ld, Nrhs);
      L.add(T, Ld, DX, Ld, Nrhs, -1.0);
    }
  }
  L.solve(F, Lda, DX, Ld, Nrhs);
  L.store(DX, DB, Ldb, Nrhs);
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
  Factor L(S, Uplo, Layout, N);
  Value *Ld = L.ld(), *Up = L.upper();
  auto [F, LdF] = S.atCall(A);
  Value *BBar = L.load(DB, Ldb, Nrhs);
  L.solve(F, LdF, BBar, Ld, Nrhs);
  L.store(BBar, DB, Ldb, Nrhs);
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  auto [BAt, LdbAt] = S.atCall(B);
  Value *X = L.load(BAt, LdbAt, Nrhs);
  L.solve(F, LdF, X, Ld, Nrhs);
  Value *Sym = L.scratch(N);
  Value *NoT = letter(S, 'N'), *Tr = letter(S, 'T');
  S.call("gemm", {columnMajor(S), NoT, Tr, N, N, Nrhs, S.constant(-1.0), BBar,
                  Ld, X, Ld, S.constant(0.0), Sym, Ld});
  S.call("gemm", {columnMajor(S), NoT, Tr, N, N, Nrhs, S.constant(-1.0), X, Ld,
                  BBar, Ld, S.constant(1.0), Sym, Ld});
  // S L from the right for the lower factor, U S from the left for the
  // upper one: the stored factor, untransposed, on the side it names.
  S.call("trmm",
         {columnMajor(S), S.B.CreateSelect(Up, letter(S, 'L'), letter(S, 'R')),
          L.uplo(), NoT, NoT, N, N, S.constant(1.0), F, LdF, Sym, Ld});
  L.addTriangle(Sym, view(DA, S.primal(potrs::Lda), L.one()), Up,
                S.B.getFalse());
}

namespace {

/// The n x n LU factors of one call (L unit lower, U upper, over one
/// matrix).
class LUFactors : public Scratch {
public:
  LUFactors(BufferCallSite &S, Value *N, unsigned Layout)
      : Scratch(S, N, S.rowMajor(Layout)) {}

  /// X (n x \p Columns) := op(T) X (trmm, or trsm where \p Solve), T the
  /// triangle \p Uplo of \p F, flags as characters (or selects of them);
  /// from the right where \p Right (X \p Columns x n).
  void triangular(bool Solve, bool Right, Value *Uplo, Value *Trans,
                  Value *Diag, Value *F, Value *LdF, Value *X, Value *LdX,
                  Value *Columns) {
    S.call(Solve ? "trsm" : "trmm",
           {columnMajor(S), letter(S, Right ? 'R' : 'L'), Uplo, Trans, Diag,
            Right ? Columns : N, Right ? N : Columns, S.constant(1.0), F, LdF,
            X, LdX});
  }
  void triangular(bool Solve, bool Right, char Uplo, char Trans, char Diag,
                  Value *F, Value *LdF, Value *X, Value *LdX, Value *Columns) {
    triangular(Solve, Right, letter(S, Uplo), letter(S, Trans), letter(S, Diag),
               F, LdF, X, LdX, Columns);
  }
  /// X (n x \p Columns, scratch) := op(A)^-1 X, \p Trans saying op, from
  /// the scratch factors \p F and the interchanges: getrs.
  void solve(Value *Trans, Value *F, Value *Pivots, Value *X, Value *Columns) {
    S.call("getrs", {columnMajor(S), Trans, N, Columns, F, Ld, Pivots, X, Ld,
                     S.B.getInt32(0)});
  }
  /// The factors of the call's n x n \p A, \p LdA (as it was at the call)
  /// and the row interchanges, in column-major scratch: getrf again (as
  /// LAPACKE's row-major getrf does, on the transpose into place).
  std::pair<Value *, Value *> factorOf(Value *A, Value *LdA) {
    Value *F = load(A, LdA, N);
    // (n integers in n floats' room.)
    Value *Pivots = S.temporary(N);
    S.call("getrf", {columnMajor(S), N, N, F, Ld, Pivots, S.B.getInt32(0)});
    return {F, Pivots};
  }
};

/// getrf's derivative covers square matrices (P A = L U, L and U n x n).
Value *requireSquare(BufferCallSite &S) {
  Value *M = S.primal(getrf::M), *N = S.primal(getrf::N);
  S.require(S.B.CreateICmpEQ(M, N),
            "the derivative of getrf covers square matrices only (m == n)");
  return N;
}

} // namespace

Value *getrfTangent(BufferCallSite &S) {
  using namespace getrf;
  // With X = L^-1 P dA U^-1: dL = L strict_lower(X), dU = upper(X) U, over
  // A where the factors go (before the call overwrites A).
  Value *DA = S.shadow(A);
  if (!DA)
    return nullptr;
  Value *N = requireSquare(S), *Lda = S.primal(getrf::Lda);
  LUFactors LU(S, N, Layout);
  Value *Ld = LU.ld();
  auto [F, Pivots] = LU.factorOf(S.primal(A), Lda);
  Value *X = LU.load(DA, Lda, N);
  S.swapRows(N, X, Ld, Pivots, N, /*Inverse=*/false);
  LU.triangular(/*Solve=*/true, /*Right=*/false, 'L', 'N', 'U', F, Ld, X, Ld,
                N);
  LU.triangular(/*Solve=*/true, /*Right=*/true, 'U', 'N', 'N', F, Ld, X, Ld, N);
  Value *XL = LU.copy(X, Ld, N);
  LU.zeroTriangle(XL, /*Upper=*/true, /*Strict=*/false);
  LU.triangular(/*Solve=*/false, /*Right=*/false, 'L', 'N', 'U', F, Ld, XL, Ld,
                N);
  LU.zeroTriangle(X, /*Upper=*/false, /*Strict=*/true);
  LU.triangular(/*Solve=*/false, /*Right=*/true, 'U', 'N', 'N', F, Ld, X, Ld,
                N);
  LU.add(XL, Ld, X, Ld, N);
  LU.store(X, DA, Lda, N);
  return nullptr;
}

void getrfAdjoint(BufferCallSite &S) {
  using namespace getrf;
  // A_bar = P^T L^-T (strict_lower(L^T L_bar) + upper(U_bar U^T)) U^-T, in
  // place of the factors' adjoints.
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  Value *N = requireSquare(S), *Lda = S.primal(getrf::Lda);
  LUFactors LU(S, N, Layout);
  Value *Ld = LU.ld();
  auto [AAt, LdaAt] = S.atCall(A);
  auto [F, Pivots] = LU.factorOf(AAt, LdaAt);
  Value *Bar = LU.load(DA, Lda, N);
  Value *LBar = LU.copy(Bar, Ld, N);
  LU.zeroTriangle(LBar, /*Upper=*/true, /*Strict=*/false);
  LU.triangular(/*Solve=*/false, /*Right=*/false, 'L', 'T', 'U', F, Ld, LBar,
                Ld, N);
  LU.zeroTriangle(LBar, /*Upper=*/true, /*Strict=*/false);
  Value *G = Bar;
  LU.zeroTriangle(G, /*Upper=*/false, /*Strict=*/true);
  LU.triangular(/*Solve=*/false, /*Right=*/true, 'U', 'T', 'N', F, Ld, G, Ld,
                N);
  LU.zeroTriangle(G, /*Upper=*/false, /*Strict=*/true);
  LU.add(LBar, Ld, G, Ld, N);
  LU.triangular(/*Solve=*/true, /*Right=*/false, 'L', 'T', 'U', F, Ld, G, Ld,
                N);
  LU.triangular(/*Solve=*/true, /*Right=*/true, 'U', 'T', 'N', F, Ld, G, Ld, N);
  S.swapRows(N, G, Ld, Pivots, N, /*Inverse=*/true);
  LU.store(G, DA, Lda, N);
}

Value *getrsTangent(BufferCallSite &S) {
  using namespace getrs;
  // X = op(A)^-1 B, A = P^T L U: dX = op(A)^-1 (dB - op(dA) X), with
  // dA X = P^T (dL (U X) + L (dU X)) and dA^T X = dU^T (L^T P X) + U^T
  // (dL^T P X), dL the strict lower part of the factors' tangent, dU the
  // upper one; the matrices in column-major scratch.
  Value *DB = S.shadow(B);
  if (!DB)
    return nullptr;
  Value *N = S.primal(getrs::N), *Nrhs = S.primal(getrs::Nrhs);
  Value *Pivots = S.primal(Ipiv), *Ldb = S.primal(getrs::Ldb);
  Value *TransFlag = S.primal(Trans), *Tr = S.transposed(Trans);
  LUFactors LU(S, N, Layout);
  Value *Ld = LU.ld();
  Value *F = LU.load(S.primal(A), S.primal(Lda), N);
  auto Pick = [&](Value *IfTransposed, Value *Else) {
    return S.B.CreateSelect(Tr, IfTransposed, Else);
  };
  auto PickLetter = [&](char IfTransposed, char Else) {
    return Pick(letter(S, IfTransposed), letter(S, Else));
  };
  Value *Zero = ConstantInt::get(N->getType(), 0);
  Value *DX = LU.load(DB, Ldb, Nrhs);
  if (Value *DA = S.shadow(A)) {
    Value *X = LU.load(S.primal(B), Ldb, Nrhs);
    LU.solve(TransFlag, F, Pivots, X, Nrhs);
    Value *DU = LU.load(DA, S.primal(Lda), N);
    Value *DL = LU.copy(DU, Ld, N);
    LU.zeroTriangle(DL, /*Upper=*/true, /*Strict=*/false);
    // P X where transposed.
    S.swapRows(Nrhs, X, Ld, Pivots, Pick(N, Zero), /*Inverse=*/false);
    Value *TrF = PickLetter('T', 'N');
    Value *T1 = LU.copy(X, Ld, Nrhs);
    LU.triangular(false, false, PickLetter('L', 'U'), TrF, PickLetter('U', 'N'),
                  F, Ld, T1, Ld, Nrhs);
    LU.triangular(false, false, PickLetter('U', 'L'), TrF, letter(S, 'N'),
                  Pick(DU, DL), Ld, T1, Ld, Nrhs);
    LU.triangular(false, false, PickLetter('L', 'U'), TrF, letter(S, 'N'),
                  Pick(DL, DU), Ld, X, Ld, Nrhs);
    LU.triangular(false, false, PickLetter('U', 'L'), TrF, PickLetter('N', 'U'),
                  F, Ld, X, Ld, Nrhs);
    LU.add(X, Ld, T1, Ld, Nrhs);
    // P^T of the sum where not transposed.
    S.swapRows(Nrhs, T1, Ld, Pivots, Pick(Zero, N), /*Inverse=*/true);
    LU.add(T1, Ld, DX, Ld, Nrhs, -1.0);
  }
  LU.solve(TransFlag, F, Pivots, DX, Nrhs);
  LU.store(DX, DB, Ldb, Nrhs);
  return nullptr;
}

void getrsAdjoint(BufferCallSite &S) {
  using namespace getrs;
  // B_bar = op(A)^-T X_bar; with M = P A_bar (A_bar = -B_bar X^T, or
  // -X B_bar^T where transposed): L_bar += strict_lower(M U^T), U_bar +=
  // upper(L^T M).
  Value *DB = S.shadow(B);
  if (!DB)
    return;
  Value *N = S.primal(getrs::N), *Nrhs = S.primal(getrs::Nrhs);
  Value *Ldb = S.primal(getrs::Ldb), *Tr = S.transposed(Trans);
  LUFactors LU(S, N, Layout);
  Value *Ld = LU.ld();
  auto [AAt, LdaAt] = S.atCall(A);
  Value *F = LU.load(AAt, LdaAt, N);
  Value *Pivots = S.atCall(Ipiv).first;
  Value *BBar = LU.load(DB, Ldb, Nrhs);
  LU.solve(S.B.CreateSelect(Tr, letter(S, 'N'), letter(S, 'T')), F, Pivots,
           BBar, Nrhs);
  LU.store(BBar, DB, Ldb, Nrhs);
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  auto [BAt, LdbAt] = S.atCall(B);
  Value *X = LU.load(BAt, LdbAt, Nrhs);
  LU.solve(S.primal(Trans), F, Pivots, X, Nrhs);
  Value *PU = LU.copy(S.B.CreateSelect(Tr, X, BBar), Ld, Nrhs);
  S.swapRows(Nrhs, PU, Ld, Pivots, N, /*Inverse=*/false);
  Value *M = LU.scratch(N);
  S.call("gemm", {columnMajor(S), letter(S, 'N'), letter(S, 'T'), N, N, Nrhs,
                  S.constant(-1.0), PU, Ld, S.B.CreateSelect(Tr, BBar, X), Ld,
                  S.constant(0.0), M, Ld});
  StridedMatrix DAUser = LU.user(DA, S.primal(getrs::Lda));
  Value *MU = LU.copy(M, Ld, N);
  LU.triangular(false, /*Right=*/true, 'U', 'T', 'N', F, Ld, MU, Ld, N);
  LU.addTriangle(MU, DAUser, /*Upper=*/false, /*Strict=*/true);
  LU.triangular(false, /*Right=*/false, 'L', 'T', 'U', F, Ld, M, Ld, N);
  LU.addTriangle(M, DAUser, /*Upper=*/true, /*Strict=*/false);
}

} // namespace gpuad::lapack
