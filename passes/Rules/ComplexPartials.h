//===- ComplexPartials.h - Partials of complex functions --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The partials of the complex rows of the rule table (RuleTable.cpp lists
/// the rows and their spellings).  Each function gives, for one complex
/// operand z = x + iy, the Jacobian of the result's real and imaginary parts
/// in x and y.  Holomorphic functions state their complex derivative w'(z)
/// once; the Jacobian follows from the Cauchy-Riemann equations.  Branch
/// cuts (clog, csqrt, cpow on the negative real axis) need nothing special:
/// C99 makes each function continuous from the side the sign of a zero
/// imaginary part selects, and the derivative formula, evaluated at the
/// function's own result, is the one-sided derivative from that side.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_COMPLEXPARTIALS_H
#define GPUAD_RULES_COMPLEXPARTIALS_H

#include "Rules/DerivativeRules.h"

namespace gpuad {
namespace complex_partials {

/// z1 * z2, z1 / z2: the operand's number in the name.
ComplexJacobian mul1(RuleContext &R);
ComplexJacobian mul2(RuleContext &R);
ComplexJacobian div1(RuleContext &R);
ComplexJacobian div2(RuleContext &R);
/// |z| and arg z (real results).
ComplexJacobian abs(RuleContext &R);
ComplexJacobian arg(RuleContext &R);
ComplexJacobian exp(RuleContext &R);
ComplexJacobian log(RuleContext &R);
ComplexJacobian sqrt(RuleContext &R);
/// z^w: with respect to z (1) and w (2).
ComplexJacobian pow1(RuleContext &R);
ComplexJacobian pow2(RuleContext &R);
ComplexJacobian sin(RuleContext &R);
ComplexJacobian cos(RuleContext &R);
ComplexJacobian tan(RuleContext &R);
ComplexJacobian sinh(RuleContext &R);
ComplexJacobian cosh(RuleContext &R);
ComplexJacobian tanh(RuleContext &R);

} // namespace complex_partials
} // namespace gpuad

#endif // GPUAD_RULES_COMPLEXPARTIALS_H
