//===- BlasRules.cpp - Derivatives of BLAS routines -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/BlasRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace gpuad {

namespace blas {

// Argument numbers, as CallRules.def lists them.
namespace dot {
enum { N, X, IncX, Y, IncY };
} // namespace dot
namespace axpy {
enum { N, Alpha, X, IncX, Y, IncY };
} // namespace axpy
namespace scal {
enum { N, Alpha, X, IncX };
} // namespace scal
namespace nrm2 {
enum { N, X, IncX };
} // namespace nrm2
namespace copy {
enum { N, X, IncX, Y, IncY };
} // namespace copy
namespace swap {
enum { N, X, IncX, Y, IncY };
} // namespace swap
namespace asum {
enum { N, X, IncX };
} // namespace asum
namespace gemv {
enum { Layout, Trans, M, N, Alpha, A, Lda, X, IncX, Beta, Y, IncY };
} // namespace gemv
namespace ger {
enum { Layout, M, N, Alpha, X, IncX, Y, IncY, A, Lda };
} // namespace ger
namespace symv {
enum { Layout, Uplo, N, Alpha, A, Lda, X, IncX, Beta, Y, IncY };
} // namespace symv
namespace syr2 {
enum { Layout, Uplo, N, Alpha, X, IncX, Y, IncY, A, Lda };
} // namespace syr2
namespace triangular { // trmv, trsv
enum { Layout, Uplo, Trans, Diag, N, A, Lda, X, IncX };
} // namespace triangular
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

static Value *sum(BufferCallSite &S, Value *A, Value *B) {
  return A ? S.B.CreateFAdd(A, B) : B;
}

Value *dotTangent(BufferCallSite &S) {
  using namespace dot;
  Value *T = nullptr;
  if (Value *DX = S.shadow(X))
    T = S.call("dot",
               {S.primal(N), DX, S.primal(IncX), S.primal(Y), S.primal(IncY)});
  if (Value *DY = S.shadow(Y))
    T = sum(S, T,
            S.call("dot", {S.primal(N), S.primal(X), S.primal(IncX), DY,
                           S.primal(IncY)}));
  return T ? T : S.constant(0.0);
}

void dotAdjoint(BufferCallSite &S) {
  using namespace dot;
  Value *R = S.resultAdjoint();
  if (!R)
    return;
  // x_bar += r_bar * y, y_bar += r_bar * x.
  if (Value *DX = S.shadow(X)) {
    auto [YAt, IncYAt] = S.atCall(Y);
    S.call("axpy", {S.primal(N), R, YAt, IncYAt, DX, S.primal(IncX)});
  }
  if (Value *DY = S.shadow(Y)) {
    auto [XAt, IncXAt] = S.atCall(X);
    S.call("axpy", {S.primal(N), R, XAt, IncXAt, DY, S.primal(IncY)});
  }
}

Value *axpyTangent(BufferCallSite &S) {
  using namespace axpy;
  // dy += alpha dx + dalpha x, before the call (it does not change x).
  Value *DY = S.shadow(Y);
  if (!DY)
    return nullptr;
  if (Value *DX = S.shadow(X))
    S.call("axpy", {S.primal(N), S.primal(Alpha), DX, S.primal(IncX), DY,
                    S.primal(IncY)});
  if (Value *DAlpha = S.shadow(Alpha))
    S.call("axpy", {S.primal(N), DAlpha, S.primal(X), S.primal(IncX), DY,
                    S.primal(IncY)});
  return nullptr;
}

void axpyAdjoint(BufferCallSite &S) {
  using namespace axpy;
  // alpha_bar += x . y_bar, x_bar += alpha y_bar; y_bar passes through.
  Value *DY = S.shadow(Y);
  if (!DY)
    return;
  if (S.active(Alpha)) {
    auto [XAt, IncXAt] = S.atCall(X);
    S.addAdjoint(Alpha,
                 S.call("dot", {S.primal(N), XAt, IncXAt, DY, S.primal(IncY)}));
  }
  if (Value *DX = S.shadow(X))
    S.call("axpy", {S.primal(N), S.primal(Alpha), DY, S.primal(IncY), DX,
                    S.primal(IncX)});
}

/// scal and asum do nothing where their increment (argument \p IncArg) is
/// not positive (reference BLAS and OpenBLAS alike): \p V there, zero
/// elsewhere.
static Value *whereIncrementPositive(BufferCallSite &S, unsigned IncArg,
                                     Value *V) {
  Value *Inc = S.primal(IncArg);
  Value *Acts = S.B.CreateICmpSGT(Inc, ConstantInt::get(Inc->getType(), 0));
  return S.B.CreateSelect(Acts, V, ConstantFP::get(V->getType(), 0.0));
}

Value *scalTangent(BufferCallSite &S) {
  using namespace scal;
  // dx = alpha dx + dalpha x, before the call overwrites x.
  Value *DX = S.shadow(X);
  if (!DX)
    return nullptr;
  S.call("scal", {S.primal(N), S.primal(Alpha), DX, S.primal(IncX)});
  if (Value *DAlpha = S.shadow(Alpha))
    S.call("axpy", {S.primal(N), whereIncrementPositive(S, IncX, DAlpha),
                    S.primal(X), S.primal(IncX), DX, S.primal(IncX)});
  return nullptr;
}

void scalAdjoint(BufferCallSite &S) {
  using namespace scal;
  // alpha_bar += x . x_bar (x before the call), then x_bar = alpha x_bar.
  Value *DX = S.shadow(X);
  if (!DX)
    return;
  if (S.active(Alpha)) {
    auto [XAt, IncXAt] = S.atCall(X);
    S.addAdjoint(Alpha,
                 whereIncrementPositive(S, IncX,
                                        S.call("dot", {S.primal(N), XAt, IncXAt,
                                                       DX, S.primal(IncX)})));
  }
  S.call("scal", {S.primal(N), S.primal(Alpha), DX, S.primal(IncX)});
}

/// A / R, zero where R is (x = 0: the norm has no derivative there; take
/// the subgradient 0).
static Value *quotientOrZero(BufferCallSite &S, Value *A, Value *R) {
  Value *Zero = S.constant(0.0);
  return S.B.CreateSelect(S.B.CreateFCmpOEQ(R, Zero), Zero,
                          S.B.CreateFDiv(A, R));
}

Value *nrm2Tangent(BufferCallSite &S) {
  using namespace nrm2;
  // dr = (x . dx) / r.
  Value *DX = S.shadow(X);
  if (!DX)
    return S.constant(0.0);
  Value *Dot = S.call(
      "dot", {S.primal(N), S.primal(X), S.primal(IncX), DX, S.primal(IncX)});
  Value *R = S.call("nrm2", {S.primal(N), S.primal(X), S.primal(IncX)});
  return quotientOrZero(S, Dot, R);
}

void nrm2Adjoint(BufferCallSite &S) {
  using namespace nrm2;
  // x_bar += (r_bar / r) x.
  Value *RBar = S.resultAdjoint();
  Value *DX = S.shadow(X);
  if (!RBar || !DX)
    return;
  auto [XAt, IncXAt] = S.atCall(X);
  S.call("axpy", {S.primal(N), quotientOrZero(S, RBar, S.result()), XAt, IncXAt,
                  DX, S.primal(IncX)});
}

void copyAdjoint(BufferCallSite &S) {
  using namespace copy;
  // x_bar += y_bar; y_bar = 0 (y's value before the call is lost).
  Value *DY = S.shadow(Y);
  if (!DY)
    return;
  if (Value *DX = S.shadow(X))
    S.call("axpy", {S.primal(N), S.constant(1.0), DY, S.primal(IncY), DX,
                    S.primal(IncX)});
  S.zero(S.primal(N), DY, S.primal(IncY));
}

/// swap's tangent and adjoint alike: the shadows trade places; one without
/// the other takes the inactive side's values, whose derivative is zero.
static void swapShadows(BufferCallSite &S) {
  using namespace swap;
  Value *DX = S.shadow(X), *DY = S.shadow(Y);
  if (DX && DY)
    S.call("swap", {S.primal(N), DX, S.primal(IncX), DY, S.primal(IncY)});
  else if (DX)
    S.zero(S.primal(N), DX, S.primal(IncX));
  else if (DY)
    S.zero(S.primal(N), DY, S.primal(IncY));
}

Value *swapTangent(BufferCallSite &S) {
  swapShadows(S);
  return nullptr;
}

void swapAdjoint(BufferCallSite &S) { swapShadows(S); }

/// sign(x) * V: the subgradient 0 at x = 0.
static Value *signTimes(IRBuilderBase &B, Value *X, Value *V) {
  Value *Zero = ConstantFP::get(X->getType(), 0.0);
  return B.CreateSelect(B.CreateFCmpOLT(X, Zero), B.CreateFNeg(V),
                        B.CreateSelect(B.CreateFCmpOGT(X, Zero), V, Zero));
}

Value *asumTangent(BufferCallSite &S) {
  using namespace asum;
  // dr = sum sign(x_i) dx_i.
  Value *DX = S.shadow(X);
  if (!DX)
    return S.constant(0.0);
  Type *Element = S.Element;
  Value *Inc = S.primal(IncX);
  Value *T = S.eachElement(
      "asum.tangent", S.primal(N), {{S.primal(X), Inc}, {DX, Inc}}, {},
      /*Sums=*/true,
      [&](IRBuilderBase &B, ArrayRef<Value *> E, ArrayRef<Value *>) {
        return signTimes(B, B.CreateLoad(Element, E[0]),
                         B.CreateLoad(Element, E[1]));
      });
  return whereIncrementPositive(S, IncX, T);
}

void asumAdjoint(BufferCallSite &S) {
  using namespace asum;
  // x_bar += r_bar sign(x).
  Value *RBar = S.resultAdjoint();
  Value *DX = S.shadow(X);
  if (!RBar || !DX)
    return;
  Type *Element = S.Element;
  auto [XAt, IncXAt] = S.atCall(X);
  S.eachElement(
      "asum.adjoint", S.primal(N), {{XAt, IncXAt}, {DX, S.primal(IncX)}},
      {whereIncrementPositive(S, IncX, RBar)}, /*Sums=*/false,
      [&](IRBuilderBase &B, ArrayRef<Value *> E,
          ArrayRef<Value *> Scalars) -> Value * {
        Value *Sum =
            B.CreateFAdd(B.CreateLoad(Element, E[1]),
                         signTimes(B, B.CreateLoad(Element, E[0]), Scalars[0]));
        B.CreateStore(Sum, E[1]);
        return nullptr;
      });
}

/// \p Len where the m x n matrix \p M, \p N has elements, else 0: gemv
/// and ger return at once on an empty matrix, without scaling y.
static Value *ifNonEmpty(BufferCallSite &S, Value *Len, Value *M, Value *N) {
  Value *Zero = ConstantInt::get(Len->getType(), 0);
  Value *NonEmpty =
      S.B.CreateAnd(S.B.CreateICmpSGT(M, Zero), S.B.CreateICmpSGT(N, Zero));
  return S.B.CreateSelect(NonEmpty, Len, Zero);
}

/// The flag that says the opposite of flag argument \p I.
static Value *flipped(BufferCallSite &S, unsigned I) {
  return S.transposeFlag(S.B.CreateNot(S.transposed(I)));
}

/// A or B as \p Cond says, for two calls that differ in their operands.
static Value *pick(BufferCallSite &S, Value *Cond, Value *A, Value *B) {
  return S.B.CreateSelect(Cond, A, B);
}

/// The product rule of alpha f(x, y), f bilinear: \p Term (alpha, dx, y),
/// (alpha, x, dy), (dalpha, x, y), in that order, for the operands that
/// have tangents (arguments \p Alpha, \p X, \p Y).
static void
productRule(BufferCallSite &S, unsigned Alpha, unsigned X, unsigned Y,
            function_ref<void(Value *Alpha, Value *X, Value *Y)> Term) {
  if (Value *DX = S.shadow(X))
    Term(S.primal(Alpha), DX, S.primal(Y));
  if (Value *DY = S.shadow(Y))
    Term(S.primal(Alpha), S.primal(X), DY);
  if (Value *DAlpha = S.shadow(Alpha))
    Term(DAlpha, S.primal(X), S.primal(Y));
}

Value *gemvTangent(BufferCallSite &S) {
  using namespace gemv;
  // dy = beta dy + alpha op(A) dx + alpha op(dA) x + dalpha op(A) x
  //      + dbeta y, before the call overwrites y.  The first gemv term
  // scales dy by beta; without one, scal does.
  Value *DY = S.shadow(Y);
  if (!DY)
    return nullptr;
  Value *Scale = S.primal(Beta);
  auto Term = [&](Value *Alpha, Value *Mat, Value *Vec) {
    S.call("gemv", {S.primal(Layout), S.primal(Trans), S.primal(M), S.primal(N),
                    Alpha, Mat, S.primal(Lda), Vec, S.primal(IncX),
                    Scale ? Scale : S.constant(1.0), DY, S.primal(IncY)});
    Scale = nullptr;
  };
  productRule(S, Alpha, X, A, [&](Value *Scale, Value *Vec, Value *Mat) {
    Term(Scale, Mat, Vec);
  });
  Value *YLen = ifNonEmpty(S, S.length(Y), S.primal(M), S.primal(N));
  if (Scale)
    S.call("scal", {YLen, Scale, DY, S.magnitude(S.primal(IncY))});
  if (Value *DBeta = S.shadow(Beta))
    S.call("axpy",
           {YLen, DBeta, S.primal(Y), S.primal(IncY), DY, S.primal(IncY)});
  return nullptr;
}

void gemvAdjoint(BufferCallSite &S) {
  using namespace gemv;
  Value *DY = S.shadow(Y);
  if (!DY)
    return;
  Value *DYInc = S.primal(IncY);
  Value *YLen = ifNonEmpty(S, S.length(Y), S.primal(M), S.primal(N));
  Value *Transposed = S.transposed(Trans);
  // A_bar += alpha y_bar x^T (alpha x y_bar^T where op(A) = A^T).
  if (Value *DA = S.shadow(A)) {
    auto [XAt, IncXAt] = S.atCall(X);
    S.call("ger",
           {S.primal(Layout), S.primal(M), S.primal(N), S.primal(Alpha),
            pick(S, Transposed, XAt, DY), pick(S, Transposed, IncXAt, DYInc),
            pick(S, Transposed, DY, XAt), pick(S, Transposed, DYInc, IncXAt),
            DA, S.primal(Lda)});
  }
  // x_bar += alpha op(A)^T y_bar.
  if (Value *DX = S.shadow(X)) {
    auto [AAt, LdaAt] = S.atCall(A);
    S.call("gemv", {S.primal(Layout), flipped(S, Trans), S.primal(M),
                    S.primal(N), S.primal(Alpha), AAt, LdaAt, DY, DYInc,
                    S.constant(1.0), DX, S.primal(IncX)});
  }
  // alpha_bar += y_bar . op(A) x.
  if (S.active(Alpha)) {
    auto [AAt, LdaAt] = S.atCall(A);
    auto [XAt, IncXAt] = S.atCall(X);
    Value *Product = S.temporary(YLen);
    Value *One = ConstantInt::get(YLen->getType(), 1);
    S.call("gemv", {S.primal(Layout), S.primal(Trans), S.primal(M), S.primal(N),
                    S.constant(1.0), AAt, LdaAt, XAt, IncXAt, S.constant(0.0),
                    Product, One});
    S.addAdjoint(Alpha, S.call("dot", {YLen, Product, One, DY, DYInc}));
  }
  // beta_bar += y_bar . y (before the call); then y_bar = beta y_bar.
  if (S.active(Beta)) {
    auto [YAt, IncYAt] = S.atCall(Y);
    S.addAdjoint(Beta, S.call("dot", {YLen, YAt, IncYAt, DY, DYInc}));
  }
  S.call("scal", {YLen, S.primal(Beta), DY, S.magnitude(DYInc)});
}

/// A matrix's diagonal as a vector: its increment, \p Lda + 1.
static Value *diagonal(BufferCallSite &S, Value *Lda) {
  return S.B.CreateAdd(Lda, ConstantInt::get(Lda->getType(), 1));
}

/// For k < \p N, W_k += Scale D_kk U_k (D a matrix with leading dimension
/// \p Lda; U and W vectors at their increments); or, where \p Sums, the
/// sum of Scale D_kk U_k W_k.
static Value *diagonalTimes(BufferCallSite &S, Value *N, Value *Scale, Value *D,
                            Value *Lda, Value *U, Value *IncU, Value *W,
                            Value *IncW, bool Sums) {
  return S.eachElement(
      Sums ? "diagonal.dot" : "diagonal.axpy", N,
      {{D, diagonal(S, Lda)}, {U, IncU}, {W, IncW}}, {Scale}, Sums,
      [&](IRBuilderBase &B, ArrayRef<Value *> E,
          ArrayRef<Value *> Scalars) -> Value * {
        Type *T = Scalars[0]->getType();
        Value *Term =
            B.CreateFMul(Scalars[0], B.CreateFMul(B.CreateLoad(T, E[0]),
                                                  B.CreateLoad(T, E[1])));
        if (Sums)
          return B.CreateFMul(Term, B.CreateLoad(T, E[2]));
        B.CreateStore(B.CreateFAdd(B.CreateLoad(T, E[2]), Term), E[2]);
        return nullptr;
      });
}

Value *symvTangent(BufferCallSite &S) {
  using namespace symv;
  // dy = beta dy + alpha A dx + alpha dA x + dalpha A x + dbeta y, dA
  // symmetric from the same triangle, before the call overwrites y.
  Value *DY = S.shadow(Y);
  if (!DY)
    return nullptr;
  Value *Scale = S.primal(Beta);
  auto Term = [&](Value *Alpha, Value *Mat, Value *Vec) {
    S.call("symv", {S.primal(Layout), S.primal(Uplo), S.primal(N), Alpha, Mat,
                    S.primal(Lda), Vec, S.primal(IncX),
                    Scale ? Scale : S.constant(1.0), DY, S.primal(IncY)});
    Scale = nullptr;
  };
  productRule(S, Alpha, X, A, [&](Value *Scale, Value *Vec, Value *Mat) {
    Term(Scale, Mat, Vec);
  });
  if (Scale)
    S.call("scal", {S.length(Y), Scale, DY, S.magnitude(S.primal(IncY))});
  if (Value *DBeta = S.shadow(Beta))
    S.call("axpy", {S.length(Y), DBeta, S.primal(Y), S.primal(IncY), DY,
                    S.primal(IncY)});
  return nullptr;
}

void symvAdjoint(BufferCallSite &S) {
  using namespace symv;
  Value *DY = S.shadow(Y);
  if (!DY)
    return;
  Value *DYInc = S.primal(IncY), *Len = S.length(Y);
  // A_bar, on the triangle read: alpha (y_bar x^T + x y_bar^T) off the
  // diagonal, alpha y_bar_i x_i on it -- syr2, less the diagonal's second
  // half.
  if (Value *DA = S.shadow(A)) {
    auto [XAt, IncXAt] = S.atCall(X);
    S.call("syr2",
           {S.primal(Layout), S.primal(Uplo), S.primal(N), S.primal(Alpha), XAt,
            IncXAt, DY, DYInc, DA, S.primal(Lda)});
    S.eachElement(
        "diagonal.less", Len,
        {{DA, diagonal(S, S.primal(Lda))}, {XAt, IncXAt}, {DY, DYInc}},
        {S.primal(Alpha)}, /*Sums=*/false,
        [&](IRBuilderBase &B, ArrayRef<Value *> E,
            ArrayRef<Value *> Scalars) -> Value * {
          Type *T = Scalars[0]->getType();
          Value *Half =
              B.CreateFMul(Scalars[0], B.CreateFMul(B.CreateLoad(T, E[1]),
                                                    B.CreateLoad(T, E[2])));
          B.CreateStore(B.CreateFSub(B.CreateLoad(T, E[0]), Half), E[0]);
          return nullptr;
        });
  }
  // x_bar += alpha A y_bar.
  if (Value *DX = S.shadow(X)) {
    auto [AAt, LdaAt] = S.atCall(A);
    S.call("symv",
           {S.primal(Layout), S.primal(Uplo), S.primal(N), S.primal(Alpha), AAt,
            LdaAt, DY, DYInc, S.constant(1.0), DX, S.primal(IncX)});
  }
  // alpha_bar += y_bar . A x.
  if (S.active(Alpha)) {
    auto [AAt, LdaAt] = S.atCall(A);
    auto [XAt, IncXAt] = S.atCall(X);
    Value *Product = S.temporary(Len);
    Value *One = ConstantInt::get(Len->getType(), 1);
    S.call("symv",
           {S.primal(Layout), S.primal(Uplo), S.primal(N), S.constant(1.0), AAt,
            LdaAt, XAt, IncXAt, S.constant(0.0), Product, One});
    S.addAdjoint(Alpha, S.call("dot", {Len, Product, One, DY, DYInc}));
  }
  // beta_bar += y_bar . y (before the call); then y_bar = beta y_bar.
  if (S.active(Beta)) {
    auto [YAt, IncYAt] = S.atCall(Y);
    S.addAdjoint(Beta, S.call("dot", {Len, YAt, IncYAt, DY, DYInc}));
  }
  S.call("scal", {Len, S.primal(Beta), DY, S.magnitude(DYInc)});
}

Value *syr2Tangent(BufferCallSite &S) {
  using namespace syr2;
  // dA += alpha (dx y^T + y dx^T) + alpha (x dy^T + dy x^T)
  //       + dalpha (x y^T + y x^T), on the same triangle.
  Value *DA = S.shadow(A);
  if (!DA)
    return nullptr;
  auto Term = [&](Value *Alpha, Value *U, Value *V) {
    S.call("syr2", {S.primal(Layout), S.primal(Uplo), S.primal(N), Alpha, U,
                    S.primal(IncX), V, S.primal(IncY), DA, S.primal(Lda)});
  };
  productRule(S, Alpha, X, Y, Term);
  return nullptr;
}

void syr2Adjoint(BufferCallSite &S) {
  using namespace syr2;
  // With S the symmetric matrix of A_bar's triangle: x_bar += alpha (S y
  // + diag(A_bar) y), y_bar += alpha (S x + diag(A_bar) x), alpha_bar +=
  // x . S y + sum_k A_bar_kk x_k y_k (the diagonal is updated twice); A_bar
  // passes through.
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  Value *Len = S.primal(N), *Lda = S.primal(syr2::Lda);
  auto Symv = [&](Value *Alpha, Value *Vec, Value *Inc, Value *Beta, Value *Out,
                  Value *IncOut) {
    S.call("symv", {S.primal(Layout), S.primal(Uplo), Len, Alpha, DA, Lda, Vec,
                    Inc, Beta, Out, IncOut});
  };
  auto Bar = [&](unsigned Out, unsigned OutInc, unsigned Other) {
    Value *DOut = S.shadow(Out);
    if (!DOut)
      return;
    auto [V, IncV] = S.atCall(Other);
    Symv(S.primal(Alpha), V, IncV, S.constant(1.0), DOut, S.primal(OutInc));
    diagonalTimes(S, Len, S.primal(Alpha), DA, Lda, V, IncV, DOut,
                  S.primal(OutInc), /*Sums=*/false);
  };
  Bar(X, IncX, Y);
  Bar(Y, IncY, X);
  if (S.active(Alpha)) {
    auto [XAt, IncXAt] = S.atCall(X);
    auto [YAt, IncYAt] = S.atCall(Y);
    Value *Product = S.temporary(Len);
    Value *One = ConstantInt::get(Len->getType(), 1);
    Symv(S.constant(1.0), YAt, IncYAt, S.constant(0.0), Product, One);
    Value *Dot = S.call("dot", {Len, Product, One, XAt, IncXAt});
    S.addAdjoint(
        Alpha,
        S.B.CreateFAdd(Dot, diagonalTimes(S, Len, S.constant(1.0), DA, Lda, XAt,
                                          IncXAt, YAt, IncYAt, /*Sums=*/true)));
  }
}

/// M += Alpha u v^T on the triangle of the n x n matrix \p M that uplo
/// argument \p Uplo names (without the diagonal where \p Strict), in the
/// layout of argument \p Layout.
static void addTriangleOuter(BufferCallSite &S, unsigned Layout, unsigned Uplo,
                             Value *Strict, Value *N, Value *Alpha, Value *M,
                             Value *Ld, std::pair<Value *, Value *> U,
                             std::pair<Value *, Value *> V) {
  S.eachTriangleElement(
      "outer", N, S.upper(Uplo), Strict, {S.strided(Layout, M, Ld)}, {U}, {V},
      {Alpha}, /*Sums=*/false,
      [](IRBuilderBase &B, ArrayRef<Value *> E,
         ArrayRef<Value *> Scalars) -> Value * {
        Type *T = Scalars[0]->getType();
        Value *Term =
            B.CreateFMul(Scalars[0], B.CreateFMul(B.CreateLoad(T, E[1]),
                                                  B.CreateLoad(T, E[2])));
        B.CreateStore(B.CreateFAdd(B.CreateLoad(T, E[0]), Term), E[0]);
        return nullptr;
      });
}

/// A triangular routine (trmv, trsv) \p Name on vector \p X (increment
/// \p Inc) with matrix \p Mat, \p Ld, transposed as \p Trans says.
static void triangularCall(BufferCallSite &S, StringRef Name, Value *Trans,
                           Value *Mat, Value *Ld, Value *X, Value *Inc) {
  using namespace triangular;
  S.call(Name, {S.primal(Layout), S.primal(Uplo), Trans, S.primal(Diag),
                S.primal(N), Mat, Ld, X, Inc});
}

/// A copy of vector argument \p X (as \p V, \p Inc give it) in a scratch
/// vector at increment 1, and that 1.
static std::pair<Value *, Value *> scratchCopy(BufferCallSite &S, Value *Len,
                                               Value *V, Value *Inc) {
  Value *T = S.temporary(Len);
  Value *One = ConstantInt::get(Len->getType(), 1);
  S.call("copy", {Len, V, Inc, T, One});
  return {T, One};
}

/// -1 where diag argument \p Diag says unit, else 0: what takes the unit
/// diagonal a triangular routine adds back out.
static Value *lessUnit(BufferCallSite &S, unsigned Diag) {
  return S.B.CreateSelect(S.unitDiagonal(Diag), S.constant(-1.0),
                          S.constant(0.0));
}

Value *trmvTangent(BufferCallSite &S) {
  using namespace triangular;
  // dx = op(A) dx + op(dA) x, dA on A's triangle (none of its diagonal
  // where unit), before the call overwrites x.
  Value *DX = S.shadow(X);
  if (!DX)
    return nullptr;
  Value *Len = S.primal(N);
  std::pair<Value *, Value *> Term;
  if (Value *DA = S.shadow(A)) {
    Term = scratchCopy(S, Len, S.primal(X), S.primal(IncX));
    triangularCall(S, "trmv", S.primal(Trans), DA, S.primal(Lda), Term.first,
                   Term.second);
    S.call("axpy", {Len, lessUnit(S, Diag), S.primal(X), S.primal(IncX),
                    Term.first, Term.second});
  }
  triangularCall(S, "trmv", S.primal(Trans), S.primal(A), S.primal(Lda), DX,
                 S.primal(IncX));
  if (Term.first)
    S.call("axpy",
           {Len, S.constant(1.0), Term.first, Term.second, DX, S.primal(IncX)});
  return nullptr;
}

void trmvAdjoint(BufferCallSite &S) {
  using namespace triangular;
  // A_bar += x_bar x^T (x x_bar^T where op(A) = A^T) on A's triangle, x as
  // it was before the call; then x_bar = op(A)^T x_bar.
  Value *DX = S.shadow(X);
  if (!DX)
    return;
  Value *Len = S.primal(N), *Transposed = S.transposed(Trans);
  std::pair<Value *, Value *> Bar = {DX, S.primal(IncX)};
  if (Value *DA = S.shadow(A)) {
    auto XAt = S.atCall(X);
    addTriangleOuter(S, Layout, Uplo, S.unitDiagonal(Diag), Len,
                     S.constant(1.0), DA, S.primal(Lda),
                     {pick(S, Transposed, XAt.first, Bar.first),
                      pick(S, Transposed, XAt.second, Bar.second)},
                     {pick(S, Transposed, Bar.first, XAt.first),
                      pick(S, Transposed, Bar.second, XAt.second)});
  }
  auto [AAt, LdaAt] = S.atCall(A);
  triangularCall(S, "trmv", flipped(S, Trans), AAt, LdaAt, DX, S.primal(IncX));
}

Value *trsvTangent(BufferCallSite &S) {
  using namespace triangular;
  // x' = op(A)^-1 x: dx' = op(A)^-1 (dx - op(dA) x'), before the call
  // overwrites x (x' solved into a scratch vector).
  Value *DX = S.shadow(X);
  if (!DX)
    return nullptr;
  Value *Len = S.primal(N);
  if (Value *DA = S.shadow(A)) {
    auto Solved = scratchCopy(S, Len, S.primal(X), S.primal(IncX));
    triangularCall(S, "trsv", S.primal(Trans), S.primal(A), S.primal(Lda),
                   Solved.first, Solved.second);
    auto Term = scratchCopy(S, Len, Solved.first, Solved.second);
    triangularCall(S, "trmv", S.primal(Trans), DA, S.primal(Lda), Term.first,
                   Term.second);
    S.call("axpy", {Len, lessUnit(S, Diag), Solved.first, Solved.second,
                    Term.first, Term.second});
    S.call("axpy", {Len, S.constant(-1.0), Term.first, Term.second, DX,
                    S.primal(IncX)});
  }
  triangularCall(S, "trsv", S.primal(Trans), S.primal(A), S.primal(Lda), DX,
                 S.primal(IncX));
  return nullptr;
}

void trsvAdjoint(BufferCallSite &S) {
  using namespace triangular;
  // x' = op(A)^-1 x: x_bar = op(A)^-T x'_bar; A_bar -= x_bar x'^T (x'
  // x_bar^T where op(A) = A^T) on A's triangle, x' solved again from x as
  // it was before the call.
  Value *DX = S.shadow(X);
  if (!DX)
    return;
  Value *Len = S.primal(N), *Transposed = S.transposed(Trans);
  auto [AAt, LdaAt] = S.atCall(A);
  triangularCall(S, "trsv", flipped(S, Trans), AAt, LdaAt, DX, S.primal(IncX));
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  auto XAt = S.atCall(X);
  auto Solved = scratchCopy(S, Len, XAt.first, XAt.second);
  triangularCall(S, "trsv", S.primal(Trans), AAt, LdaAt, Solved.first,
                 Solved.second);
  std::pair<Value *, Value *> Bar = {DX, S.primal(IncX)};
  addTriangleOuter(S, Layout, Uplo, S.unitDiagonal(Diag), Len, S.constant(-1.0),
                   DA, S.primal(Lda),
                   {pick(S, Transposed, Solved.first, Bar.first),
                    pick(S, Transposed, Solved.second, Bar.second)},
                   {pick(S, Transposed, Bar.first, Solved.first),
                    pick(S, Transposed, Bar.second, Solved.second)});
}

Value *gerTangent(BufferCallSite &S) {
  using namespace ger;
  // dA += alpha dx y^T + alpha x dy^T + dalpha x y^T.
  Value *DA = S.shadow(A);
  if (!DA)
    return nullptr;
  auto Term = [&](Value *Alpha, Value *U, Value *V) {
    S.call("ger", {S.primal(Layout), S.primal(M), S.primal(N), Alpha, U,
                   S.primal(IncX), V, S.primal(IncY), DA, S.primal(Lda)});
  };
  productRule(S, Alpha, X, Y, Term);
  return nullptr;
}

void gerAdjoint(BufferCallSite &S) {
  using namespace ger;
  // x_bar += alpha A_bar y, y_bar += alpha A_bar^T x,
  // alpha_bar += x . A_bar y; A_bar passes through.
  Value *DA = S.shadow(A);
  if (!DA)
    return;
  auto Gemv = [&](bool Transposed, Value *Alpha, Value *Vec, Value *Inc,
                  Value *Beta, Value *Out, Value *IncOut) {
    S.call("gemv", {S.primal(Layout), S.transposeFlag(Transposed), S.primal(M),
                    S.primal(N), Alpha, DA, S.primal(Lda), Vec, Inc, Beta, Out,
                    IncOut});
  };
  if (Value *DX = S.shadow(X)) {
    auto [YAt, IncYAt] = S.atCall(Y);
    Gemv(false, S.primal(Alpha), YAt, IncYAt, S.constant(1.0), DX,
         S.primal(IncX));
  }
  if (Value *DY = S.shadow(Y)) {
    auto [XAt, IncXAt] = S.atCall(X);
    Gemv(true, S.primal(Alpha), XAt, IncXAt, S.constant(1.0), DY,
         S.primal(IncY));
  }
  if (S.active(Alpha)) {
    auto [XAt, IncXAt] = S.atCall(X);
    auto [YAt, IncYAt] = S.atCall(Y);
    Value *MLen = ifNonEmpty(S, S.primal(M), S.primal(M), S.primal(N));
    Value *Product = S.temporary(MLen);
    Value *One = ConstantInt::get(MLen->getType(), 1);
    Gemv(false, S.constant(1.0), YAt, IncYAt, S.constant(0.0), Product, One);
    S.addAdjoint(Alpha, S.call("dot", {MLen, Product, One, XAt, IncXAt}));
  }
}

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
