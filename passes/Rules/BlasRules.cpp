//===- BlasRules.cpp - Derivatives of BLAS routines -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/BlasRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace gpuad {

Value *BufferCallSite::constant(double X) const {
  return ConstantFP::get(Element, X);
}

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

/// scal does nothing where its increment is not positive (reference BLAS
/// and OpenBLAS alike): \p V there, zero elsewhere.
static Value *whereScalActs(BufferCallSite &S, Value *V) {
  Value *Inc = S.primal(scal::IncX);
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
    S.call("axpy", {S.primal(N), whereScalActs(S, DAlpha), S.primal(X),
                    S.primal(IncX), DX, S.primal(IncX)});
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
                 whereScalActs(S, S.call("dot", {S.primal(N), XAt, IncXAt, DX,
                                                 S.primal(IncX)})));
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

} // namespace blas
} // namespace gpuad
