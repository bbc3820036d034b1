//===- BlasRules.cpp - Derivatives of BLAS routines -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/BlasRules.h"
#include "Rules/BlasRuleHelpers.h"

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

Value *flipped(BufferCallSite &S, unsigned I) {
  return S.transposeFlag(S.B.CreateNot(S.transposed(I)));
}

Value *pick(BufferCallSite &S, Value *Cond, Value *A, Value *B) {
  return S.B.CreateSelect(Cond, A, B);
}

void productRule(BufferCallSite &S, unsigned Alpha, unsigned X, unsigned Y,
                 function_ref<void(Value *Alpha, Value *X, Value *Y)> Term) {
  if (Value *DX = S.shadow(X))
    Term(S.primal(Alpha), DX, S.primal(Y));
  if (Value *DY = S.shadow(Y))
    Term(S.primal(Alpha), S.primal(X), DY);
  if (Value *DAlpha = S.shadow(Alpha))
    Term(DAlpha, S.primal(X), S.primal(Y));
}

Value *diagonal(BufferCallSite &S, Value *Lda) {
  return S.B.CreateAdd(Lda, ConstantInt::get(Lda->getType(), 1));
}

Value *lessUnit(BufferCallSite &S, unsigned Diag) {
  return S.B.CreateSelect(S.unitDiagonal(Diag), S.constant(-1.0),
                          S.constant(0.0));
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

} // namespace blas
} // namespace gpuad
