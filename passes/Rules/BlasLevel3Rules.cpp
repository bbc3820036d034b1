//===- BlasLevel3Rules.cpp - Derivatives of BLAS level 3 routines ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
// gemm, symm, syrk, trmm and trsm (Rules/BlasRules.h declares them):
// matrix-matrix products, their symmetric and triangular operands read and
// their adjoints written on one triangle, scratch matrices in the call's
// layout.

#include "Rules/BlasRuleHelpers.h"
#include "Rules/BlasRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace gpuad {

namespace blas {

// Argument numbers, as CallRules.def lists them.
namespace symm {
enum { Layout, Side, Uplo, M, N, Alpha, A, Lda, B, Ldb, Beta, C, Ldc };
} // namespace symm
namespace trmm {
enum { Layout, Side, Uplo, Trans, Diag, M, N, Alpha, A, Lda, B, Ldb };
} // namespace trmm
namespace syrk {
enum { Layout, Uplo, Trans, N, K, Alpha, A, Lda, Beta, C, Ldc };
} // namespace syrk
namespace gemm {
enum { Layout, TransA, TransB, M, N, K, Alpha, A, Lda, B, Ldb, Beta, C, Ldc };
} // namespace gemm

Value *gemmTangent(BufferCallSite &S) {
  using namespace gemm;
  // dC = beta dC + alpha op(dA) op(B) + alpha op(A) op(dB)
  //      + dalpha op(A) op(B) + dbeta C, before the call overwrites C.
  Value *DC = S.shadow(C);
  if (!DC)
    return nullptr;
  Value *Scale = S.primal(Beta);
  auto Term = [&](Value *Alpha, Value *AV, Value *BV) {
    S.call("gemm",
           {S.primal(Layout), S.primal(TransA), S.primal(TransB), S.primal(M),
            S.primal(N), S.primal(K), Alpha, AV, S.primal(Lda), BV,
            S.primal(Ldb), Scale ? Scale : S.constant(1.0), DC, S.primal(Ldc)});
    Scale = nullptr;
  };
  // (The dB term first: the order of Enzyme's tangent, which its tests
  // check call by call.)
  productRule(S, Alpha, B, A,
              [&](Value *Scale, Value *BV, Value *AV) { Term(Scale, AV, BV); });
  if (Scale)
    S.eachColumn("scal", S.primal(Layout), S.primal(M), S.primal(N),
                 {Scale, DC, S.primal(Ldc)});
  if (Value *DBeta = S.shadow(Beta))
    S.eachColumn("axpy", S.primal(Layout), S.primal(M), S.primal(N),
                 {DBeta, S.primal(C), S.primal(Ldc), DC, S.primal(Ldc)});
  return nullptr;
}

void gemmAdjoint(BufferCallSite &S) {
  using namespace gemm;
  Value *DC = S.shadow(C);
  if (!DC)
    return;
  Value *Layout = S.primal(gemm::Layout), *Ldc = S.primal(gemm::Ldc);
  Value *M = S.primal(gemm::M), *N = S.primal(gemm::N);
  Value *K = S.primal(gemm::K), *Alpha = S.primal(gemm::Alpha);
  Value *TA = S.transposed(TransA), *TB = S.transposed(TransB);
  Value *One = S.constant(1.0);
  // op(A)_bar = alpha C_bar op(B)^T: A_bar += alpha C_bar op(B)^T (m x k),
  // or alpha op(B) C_bar^T (k x m) where op(A) = A^T.
  if (Value *DA = S.shadow(A)) {
    auto [BAt, LdbAt] = S.atCall(B);
    S.call("gemm",
           {Layout, pick(S, TA, S.primal(TransB), S.transposeFlag(false)),
            pick(S, TA, S.transposeFlag(true), flipped(S, TransB)),
            pick(S, TA, K, M), pick(S, TA, M, K), N, Alpha,
            pick(S, TA, BAt, DC), pick(S, TA, LdbAt, Ldc), pick(S, TA, DC, BAt),
            pick(S, TA, Ldc, LdbAt), One, DA, S.primal(Lda)});
  }
  // op(B)_bar = alpha op(A)^T C_bar: B_bar += alpha op(A)^T C_bar (k x n),
  // or alpha C_bar^T op(A) (n x k) where op(B) = B^T.
  if (Value *DB = S.shadow(B)) {
    auto [AAt, LdaAt] = S.atCall(A);
    S.call("gemm",
           {Layout, pick(S, TB, S.transposeFlag(true), flipped(S, TransA)),
            pick(S, TB, S.primal(TransA), S.transposeFlag(false)),
            pick(S, TB, N, K), pick(S, TB, K, N), M, Alpha,
            pick(S, TB, DC, AAt), pick(S, TB, Ldc, LdaAt), pick(S, TB, AAt, DC),
            pick(S, TB, LdaAt, Ldc), One, DB, S.primal(Ldb)});
  }
  // alpha_bar += <C_bar, op(A) op(B)>, the product in a scratch matrix.
  if (S.active(gemm::Alpha)) {
    auto [AAt, LdaAt] = S.atCall(A);
    auto [BAt, LdbAt] = S.atCall(B);
    Value *Product = S.temporary(S.B.CreateMul(M, N));
    Value *Unit = ConstantInt::get(M->getType(), 1);
    Value *Ld = S.B.CreateBinaryIntrinsic(
        Intrinsic::smax, pick(S, S.rowMajor(gemm::Layout), N, M), Unit);
    S.call("gemm", {Layout, S.primal(TransA), S.primal(TransB), M, N, K, One,
                    AAt, LdaAt, BAt, LdbAt, S.constant(0.0), Product, Ld});
    S.addAdjoint(gemm::Alpha,
                 S.eachColumn("dot", Layout, M, N, {Product, Ld, DC, Ldc}));
  }
  // beta_bar += <C_bar, C> (C before the call); then C_bar = beta C_bar.
  if (S.active(Beta)) {
    auto [CAt, LdcAt] = S.atCall(C);
    S.addAdjoint(Beta,
                 S.eachColumn("dot", Layout, M, N, {CAt, LdcAt, DC, Ldc}));
  }
  S.eachColumn("scal", Layout, M, N, {S.primal(Beta), DC, Ldc});
}

/// On the triangle \p Upper names: M0_ij = s0 M0_ij + s1 M1_ij + ... for
/// \p Matrices M0, M1, ... and \p Scalars s0, s1, ...; or, where \p Sums,
/// the sum of s0 M0_ij M1_ij.
static Value *triangleUpdate(BufferCallSite &S, StringRef Name, Value *N,
                             Value *Upper,
                             ArrayRef<BufferCallSite::StridedMatrix> Matrices,
                             ArrayRef<Value *> Scalars, bool Sums,
                             Value *Strict = nullptr) {
  return S.eachTriangleElement(
      Name, N, Upper, Strict ? Strict : S.B.getFalse(), Matrices, {}, {},
      Scalars, Sums,
      [&](IRBuilderBase &B, ArrayRef<Value *> E,
          ArrayRef<Value *> Sc) -> Value * {
        Type *T = Sc[0]->getType();
        if (Sums)
          return B.CreateFMul(Sc[0], B.CreateFMul(B.CreateLoad(T, E[0]),
                                                  B.CreateLoad(T, E[1])));
        Value *V = B.CreateFMul(Sc[0], B.CreateLoad(T, E[0]));
        for (unsigned K = 1; K < E.size(); ++K)
          V = B.CreateFAdd(V, B.CreateFMul(Sc[K], B.CreateLoad(T, E[K])));
        B.CreateStore(V, E[0]);
        return nullptr;
      });
}

Value *syrkTangent(BufferCallSite &S) {
  using namespace syrk;
  // dC = beta dC + alpha (P + P^T) + dalpha op(A) op(A)^T + dbeta C on C's
  // triangle, P = op(dA) op(A)^T, before the call overwrites C.
  Value *DC = S.shadow(C);
  if (!DC)
    return nullptr;
  Value *Len = S.primal(N), *Upper = S.upper(Uplo);
  auto DCM = S.strided(Layout, DC, S.primal(Ldc));
  Value *One = ConstantInt::get(Len->getType(), 1);
  Value *LdP = S.B.CreateBinaryIntrinsic(Intrinsic::smax, Len, One);
  triangleUpdate(S, "scale", Len, Upper, {DCM}, {S.primal(Beta)}, false);
  if (Value *DA = S.shadow(A)) {
    Value *P = S.temporary(S.B.CreateMul(Len, Len));
    S.call("gemm", {S.primal(Layout), S.primal(Trans), flipped(S, Trans), Len,
                    Len, S.primal(K), S.constant(1.0), DA, S.primal(Lda),
                    S.primal(A), S.primal(Lda), S.constant(0.0), P, LdP});
    auto PM = S.strided(Layout, P, LdP);
    BufferCallSite::StridedMatrix PT = {P, PM.ColumnStride, PM.RowStride};
    triangleUpdate(S, "add2", Len, Upper, {DCM, PM, PT},
                   {S.constant(1.0), S.primal(Alpha), S.primal(Alpha)}, false);
  }
  if (Value *DAlpha = S.shadow(Alpha)) {
    Value *Q = S.temporary(S.B.CreateMul(Len, Len));
    S.call("syrk", {S.primal(Layout), S.primal(Uplo), S.primal(Trans), Len,
                    S.primal(K), S.constant(1.0), S.primal(A), S.primal(Lda),
                    S.constant(0.0), Q, LdP});
    triangleUpdate(S, "add", Len, Upper, {DCM, S.strided(Layout, Q, LdP)},
                   {S.constant(1.0), DAlpha}, false);
  }
  if (Value *DBeta = S.shadow(Beta))
    triangleUpdate(S, "add", Len, Upper,
                   {DCM, S.strided(Layout, S.primal(C), S.primal(Ldc))},
                   {S.constant(1.0), DBeta}, false);
  return nullptr;
}

void syrkAdjoint(BufferCallSite &S) {
  using namespace syrk;
  // With T C_bar's triangle and Sym = T + T^T (its diagonal twice): A_bar
  // += alpha Sym op(A) (alpha A Sym where transposed), alpha_bar += <T,
  // op(A) op(A)^T>, beta_bar += <T, C>; then T = beta T.
  Value *DC = S.shadow(C);
  if (!DC)
    return;
  Value *Len = S.primal(N), *Upper = S.upper(Uplo);
  auto DCM = S.strided(Layout, DC, S.primal(Ldc));
  Value *One = ConstantInt::get(Len->getType(), 1);
  Value *LdS = S.B.CreateBinaryIntrinsic(Intrinsic::smax, Len, One);
  Value *Square = S.B.CreateMul(Len, Len);
  auto [AAt, LdaAt] = S.atCall(A);
  if (Value *DA = S.shadow(A)) {
    Value *Sym = S.temporary(Square);
    S.zero(Square, Sym, One);
    BufferCallSite::StridedMatrix SymM = {Sym, One, LdS},
                                  SymT = {Sym, LdS, One};
    for (auto Half : {SymM, SymT})
      triangleUpdate(S, "add", Len, Upper, {Half, DCM},
                     {S.constant(1.0), S.constant(1.0)}, false);
    Value *Tr = S.transposed(Trans), *NoT = S.transposeFlag(false);
    Value *KLen = S.primal(K);
    // (Sym is symmetric: the same in either layout.)
    S.call("gemm",
           {S.primal(Layout), NoT, NoT, pick(S, Tr, KLen, Len),
            pick(S, Tr, Len, KLen), Len, S.primal(Alpha), pick(S, Tr, AAt, Sym),
            pick(S, Tr, LdaAt, LdS), pick(S, Tr, Sym, AAt),
            pick(S, Tr, LdS, LdaAt), S.constant(1.0), DA, S.primal(Lda)});
  }
  if (S.active(Alpha)) {
    Value *Q = S.temporary(Square);
    S.call("syrk",
           {S.primal(Layout), S.primal(Uplo), S.primal(Trans), Len, S.primal(K),
            S.constant(1.0), AAt, LdaAt, S.constant(0.0), Q, LdS});
    S.addAdjoint(Alpha, triangleUpdate(S, "dot", Len, Upper,
                                       {DCM, S.strided(Layout, Q, LdS)},
                                       {S.constant(1.0)}, /*Sums=*/true));
  }
  if (S.active(Beta)) {
    auto [CAt, LdcAt] = S.atCall(C);
    S.addAdjoint(Beta, triangleUpdate(S, "dot", Len, Upper,
                                      {DCM, S.strided(Layout, CAt, LdcAt)},
                                      {S.constant(1.0)}, /*Sums=*/true));
  }
  triangleUpdate(S, "scale", Len, Upper, {DCM}, {S.primal(Beta)}, false);
}

/// A scratch m x n matrix in the layout of argument \p Layout, and its
/// leading dimension.
static std::pair<Value *, Value *> scratchOf(BufferCallSite &S, unsigned Layout,
                                             Value *M, Value *N) {
  Value *One = ConstantInt::get(M->getType(), 1);
  return {S.temporary(S.B.CreateMul(M, N)),
          S.B.CreateBinaryIntrinsic(Intrinsic::smax,
                                    pick(S, S.rowMajor(Layout), N, M), One)};
}

/// A scratch copy of the m x n matrix \p Mat, \p Ld in the layout of
/// argument \p Layout, and its leading dimension.
static std::pair<Value *, Value *> scratchMatrix(BufferCallSite &S,
                                                 unsigned Layout, Value *M,
                                                 Value *N, Value *Mat,
                                                 Value *Ld) {
  auto [T, LdT] = scratchOf(S, Layout, M, N);
  S.eachColumn("copy", S.primal(Layout), M, N, {Mat, Ld, T, LdT});
  return {T, LdT};
}

/// trmm (or trsm) with the call's layout, side, triangle and diagonal.
static void triangularMatrixCall(BufferCallSite &S, StringRef Name,
                                 Value *Trans, Value *Alpha, Value *Mat,
                                 Value *Ld, Value *X, Value *LdX) {
  using namespace trmm;
  S.call(Name,
         {S.primal(Layout), S.primal(Side), S.primal(Uplo), Trans,
          S.primal(Diag), S.primal(M), S.primal(N), Alpha, Mat, Ld, X, LdX});
}

/// A_bar of trmm and trsm: op(A)_bar = Scale P Q^T on the left (m x m),
/// Scale Q^T P on the right (n x n), P and Q m x n, added to A_bar's
/// triangle (transposed where op(A) = A^T; without a unit diagonal).
static void addOpTriangularAdjoint(BufferCallSite &S, Value *Scale, Value *P,
                                   Value *LdP, Value *Q, Value *LdQ) {
  using namespace trmm;
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  Value *Rows = S.primal(M), *Columns = S.primal(N), *Left = S.leftSide(Side);
  Value *Order = pick(S, Left, Rows, Columns);
  Value *One = ConstantInt::get(Order->getType(), 1);
  Value *LdG = S.B.CreateBinaryIntrinsic(Intrinsic::smax, Order, One);
  Value *G = S.temporary(S.B.CreateMul(Order, Order));
  Value *NoT = S.transposeFlag(false), *Tr = S.transposeFlag(true);
  S.call("gemm",
         {S.primal(Layout), pick(S, Left, NoT, Tr), pick(S, Left, Tr, NoT),
          Order, Order, pick(S, Left, Columns, Rows), Scale,
          pick(S, Left, P, Q), pick(S, Left, LdP, LdQ), pick(S, Left, Q, P),
          pick(S, Left, LdQ, LdP), S.constant(0.0), G, LdG});
  auto GM = S.strided(Layout, G, LdG);
  Value *Transposed = S.transposed(Trans);
  BufferCallSite::StridedMatrix OpG = {
      G, pick(S, Transposed, GM.ColumnStride, GM.RowStride),
      pick(S, Transposed, GM.RowStride, GM.ColumnStride)};
  triangleUpdate(S, "add", Order, S.upper(Uplo),
                 {S.strided(Layout, DA, S.primal(Lda)), OpG},
                 {S.constant(1.0), S.constant(1.0)}, /*Sums=*/false,
                 S.unitDiagonal(Diag));
}

Value *trmmTangent(BufferCallSite &S) {
  using namespace trmm;
  // dB = alpha op(A) dB + alpha op(dA) B + dalpha op(A) B (B op(A) on the
  // right), dA on A's triangle (none of its diagonal where unit), before
  // the call overwrites B.
  Value *DB = S.shadow(B);
  if (!DB)
    return nullptr;
  Value *Rows = S.primal(M), *Columns = S.primal(N);
  Value *Alpha = S.primal(trmm::Alpha);
  SmallVector<std::pair<Value *, Value *>, 2> Terms;
  if (Value *DA = S.shadow(A)) {
    auto T =
        scratchMatrix(S, Layout, Rows, Columns, S.primal(B), S.primal(Ldb));
    triangularMatrixCall(S, "trmm", S.primal(Trans), Alpha, DA, S.primal(Lda),
                         T.first, T.second);
    S.eachColumn("axpy", S.primal(Layout), Rows, Columns,
                 {S.B.CreateFMul(lessUnit(S, Diag), Alpha), S.primal(B),
                  S.primal(Ldb), T.first, T.second});
    Terms.push_back(T);
  }
  if (Value *DAlpha = S.shadow(trmm::Alpha)) {
    auto T =
        scratchMatrix(S, Layout, Rows, Columns, S.primal(B), S.primal(Ldb));
    triangularMatrixCall(S, "trmm", S.primal(Trans), DAlpha, S.primal(A),
                         S.primal(Lda), T.first, T.second);
    Terms.push_back(T);
  }
  triangularMatrixCall(S, "trmm", S.primal(Trans), Alpha, S.primal(A),
                       S.primal(Lda), DB, S.primal(Ldb));
  for (auto [T, LdT] : Terms)
    S.eachColumn("axpy", S.primal(Layout), Rows, Columns,
                 {S.constant(1.0), T, LdT, DB, S.primal(Ldb)});
  return nullptr;
}

void trmmAdjoint(BufferCallSite &S) {
  using namespace trmm;
  // op(A)_bar = alpha B_bar B^T on the left (alpha B^T B_bar on the right),
  // B as it was before the call, added to A_bar's triangle (transposed
  // where op(A) = A^T); alpha_bar += <B_bar, op(A) B>; then B_bar = alpha
  // op(A)^T B_bar (B_bar op(A)^T).
  Value *DB = S.shadow(B);
  if (!DB)
    return;
  Value *Rows = S.primal(M), *Columns = S.primal(N), *Ld = S.primal(Ldb);
  Value *Alpha = S.primal(trmm::Alpha);
  auto [AAt, LdaAt] = S.atCall(A);
  auto [BAt, LdbAt] = S.atCall(B);
  addOpTriangularAdjoint(S, Alpha, DB, Ld, BAt, LdbAt);
  if (S.active(trmm::Alpha)) {
    auto P = scratchMatrix(S, Layout, Rows, Columns, BAt, LdbAt);
    triangularMatrixCall(S, "trmm", S.primal(Trans), S.constant(1.0), AAt,
                         LdaAt, P.first, P.second);
    S.addAdjoint(trmm::Alpha,
                 S.eachColumn("dot", S.primal(Layout), Rows, Columns,
                              {P.first, P.second, DB, Ld}));
  }
  triangularMatrixCall(S, "trmm", flipped(S, Trans), Alpha, AAt, LdaAt, DB, Ld);
}

Value *trsmTangent(BufferCallSite &S) {
  using namespace trmm; // (trsm's arguments are trmm's)
  // X = alpha op(A)^-1 B: dX = op(A)^-1 (dalpha B + alpha dB - op(dA) X)
  // (on the right: (dalpha B + alpha dB - X op(dA)) op(A)^-1), before the
  // call overwrites B.
  Value *DB = S.shadow(B);
  if (!DB)
    return nullptr;
  Value *Rows = S.primal(M), *Columns = S.primal(N), *Ld = S.primal(Ldb);
  Value *Alpha = S.primal(trmm::Alpha);
  std::pair<Value *, Value *> Term;
  if (Value *DA = S.shadow(A)) {
    auto X = scratchMatrix(S, Layout, Rows, Columns, S.primal(B), Ld);
    triangularMatrixCall(S, "trsm", S.primal(Trans), Alpha, S.primal(A),
                         S.primal(Lda), X.first, X.second);
    Term = scratchMatrix(S, Layout, Rows, Columns, X.first, X.second);
    triangularMatrixCall(S, "trmm", S.primal(Trans), S.constant(1.0), DA,
                         S.primal(Lda), Term.first, Term.second);
    S.eachColumn(
        "axpy", S.primal(Layout), Rows, Columns,
        {lessUnit(S, Diag), X.first, X.second, Term.first, Term.second});
  }
  S.eachColumn("scal", S.primal(Layout), Rows, Columns, {Alpha, DB, Ld});
  if (Value *DAlpha = S.shadow(trmm::Alpha))
    S.eachColumn("axpy", S.primal(Layout), Rows, Columns,
                 {DAlpha, S.primal(B), Ld, DB, Ld});
  if (Term.first)
    S.eachColumn("axpy", S.primal(Layout), Rows, Columns,
                 {S.constant(-1.0), Term.first, Term.second, DB, Ld});
  triangularMatrixCall(S, "trsm", S.primal(Trans), S.constant(1.0), S.primal(A),
                       S.primal(Lda), DB, Ld);
  return nullptr;
}

void trsmAdjoint(BufferCallSite &S) {
  using namespace trmm;
  // With Y = op(A)^-1 B (B before the call; X = alpha Y) and Z = op(A)^-T
  // X_bar (X_bar op(A)^-T on the right): alpha_bar += <X_bar, Y>, op(A)_bar
  // = -alpha Z Y^T (-alpha Y^T Z), B_bar = alpha Z.
  Value *DB = S.shadow(B);
  if (!DB)
    return;
  Value *Rows = S.primal(M), *Columns = S.primal(N), *Ld = S.primal(Ldb);
  Value *Alpha = S.primal(trmm::Alpha);
  auto [AAt, LdaAt] = S.atCall(A);
  std::pair<Value *, Value *> Y;
  if (S.shadow(A) || S.active(trmm::Alpha)) {
    auto [BAt, LdbAt] = S.atCall(B);
    Y = scratchMatrix(S, Layout, Rows, Columns, BAt, LdbAt);
    triangularMatrixCall(S, "trsm", S.primal(Trans), S.constant(1.0), AAt,
                         LdaAt, Y.first, Y.second);
  }
  if (S.active(trmm::Alpha))
    S.addAdjoint(trmm::Alpha,
                 S.eachColumn("dot", S.primal(Layout), Rows, Columns,
                              {Y.first, Y.second, DB, Ld}));
  triangularMatrixCall(S, "trsm", flipped(S, Trans), S.constant(1.0), AAt,
                       LdaAt, DB, Ld);
  if (Y.first)
    addOpTriangularAdjoint(S, S.B.CreateFNeg(Alpha), DB, Ld, Y.first, Y.second);
  S.eachColumn("scal", S.primal(Layout), Rows, Columns, {Alpha, DB, Ld});
}

Value *symmTangent(BufferCallSite &S) {
  using namespace symm;
  // dC = beta dC + alpha A dB + alpha dA B + dalpha A B + dbeta C (B A on
  // the right), dA symmetric from the same triangle, before the call
  // overwrites C.  The first symm term scales dC by beta.
  Value *DC = S.shadow(C);
  if (!DC)
    return nullptr;
  Value *Rows = S.primal(M), *Columns = S.primal(N);
  Value *Scale = S.primal(Beta);
  auto Term = [&](Value *Alpha, Value *Sym, Value *Mat) {
    S.call("symm", {S.primal(Layout), S.primal(Side), S.primal(Uplo), Rows,
                    Columns, Alpha, Sym, S.primal(Lda), Mat, S.primal(Ldb),
                    Scale ? Scale : S.constant(1.0), DC, S.primal(Ldc)});
    Scale = nullptr;
  };
  productRule(S, Alpha, B, A,
              [&](Value *Scale, Value *BV, Value *AV) { Term(Scale, AV, BV); });
  if (Scale)
    S.eachColumn("scal", S.primal(Layout), Rows, Columns,
                 {Scale, DC, S.primal(Ldc)});
  if (Value *DBeta = S.shadow(Beta))
    S.eachColumn("axpy", S.primal(Layout), Rows, Columns,
                 {DBeta, S.primal(C), S.primal(Ldc), DC, S.primal(Ldc)});
  return nullptr;
}

void symmAdjoint(BufferCallSite &S) {
  using namespace symm;
  // B_bar += alpha A C_bar (alpha C_bar A on the right); with G = alpha
  // C_bar B^T (alpha B^T C_bar), A_bar += G + G^T on A's triangle, its
  // diagonal once; alpha_bar += <C_bar, A B>, beta_bar += <C_bar, C>; then
  // C_bar = beta C_bar.
  Value *DC = S.shadow(C);
  if (!DC)
    return;
  Value *Layout = S.primal(symm::Layout), *Ldc = S.primal(symm::Ldc);
  Value *Rows = S.primal(M), *Columns = S.primal(N);
  Value *Alpha = S.primal(symm::Alpha), *Left = S.leftSide(Side);
  auto [AAt, LdaAt] = S.atCall(A);
  auto [BAt, LdbAt] = S.atCall(B);
  auto Symm = [&](Value *Scale, Value *Mat, Value *Ld, Value *Beta, Value *Out,
                  Value *LdOut) {
    S.call("symm", {Layout, S.primal(Side), S.primal(Uplo), Rows, Columns,
                    Scale, AAt, LdaAt, Mat, Ld, Beta, Out, LdOut});
  };
  if (Value *DB = S.shadow(B))
    Symm(Alpha, DC, Ldc, S.constant(1.0), DB, S.primal(Ldb));
  if (Value *DA = S.shadow(A)) {
    Value *Order = pick(S, Left, Rows, Columns);
    Value *One = ConstantInt::get(Order->getType(), 1);
    Value *LdG = S.B.CreateBinaryIntrinsic(Intrinsic::smax, Order, One);
    Value *G = S.temporary(S.B.CreateMul(Order, Order));
    Value *NoT = S.transposeFlag(false), *Tr = S.transposeFlag(true);
    S.call("gemm",
           {Layout, pick(S, Left, NoT, Tr), pick(S, Left, Tr, NoT), Order,
            Order, pick(S, Left, Columns, Rows), Alpha, pick(S, Left, DC, BAt),
            pick(S, Left, Ldc, LdbAt), pick(S, Left, BAt, DC),
            pick(S, Left, LdbAt, Ldc), S.constant(0.0), G, LdG});
    auto GM = S.strided(symm::Layout, G, LdG);
    BufferCallSite::StridedMatrix GT = {G, GM.ColumnStride, GM.RowStride};
    Value *LdA = S.primal(Lda);
    triangleUpdate(S, "add2", Order, S.upper(Uplo),
                   {S.strided(symm::Layout, DA, LdA), GM, GT},
                   {S.constant(1.0), S.constant(1.0), S.constant(1.0)},
                   /*Sums=*/false);
    S.eachElement("diagonal.sub", Order,
                  {{DA, diagonal(S, LdA)}, {G, diagonal(S, LdG)}}, {Alpha},
                  /*Sums=*/false,
                  [](IRBuilderBase &B, ArrayRef<Value *> E,
                     ArrayRef<Value *> Scalars) -> Value * {
                    Type *T = Scalars[0]->getType();
                    B.CreateStore(B.CreateFSub(B.CreateLoad(T, E[0]),
                                               B.CreateLoad(T, E[1])),
                                  E[0]);
                    return nullptr;
                  });
  }
  if (S.active(symm::Alpha)) {
    auto [Product, LdP] = scratchOf(S, symm::Layout, Rows, Columns);
    Symm(S.constant(1.0), BAt, LdbAt, S.constant(0.0), Product, LdP);
    S.addAdjoint(symm::Alpha, S.eachColumn("dot", Layout, Rows, Columns,
                                           {Product, LdP, DC, Ldc}));
  }
  if (S.active(Beta)) {
    auto [CAt, LdcAt] = S.atCall(C);
    S.addAdjoint(Beta, S.eachColumn("dot", Layout, Rows, Columns,
                                    {CAt, LdcAt, DC, Ldc}));
  }
  S.eachColumn("scal", Layout, Rows, Columns, {S.primal(Beta), DC, Ldc});
}

} // namespace blas
} // namespace gpuad
