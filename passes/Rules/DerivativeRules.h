//===- DerivativeRules.h - The derivative rule table ------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The engine knows no operation; operations know their derivative.  Each row
/// of the table states, once, the partial derivative of an operation's result
/// with respect to each operand, as IR built from the primal operands and
/// result.  Forward mode computes `sum_i partial_i * tangent_i`; reverse mode
/// accumulates `partial_i * adjoint` into operand i; batched modes do the same
/// per lane.  Every spelling of an operation -- the IR opcode, the LLVM
/// intrinsic, libm (double, float and long double), CUDA's libdevice
/// (`__nv_*`) and ROCm's ocml (`__ocml_*_f16/_f32/_f64`) -- is an alias row of
/// the same family.  A row also records which primal values its partials
/// read, so the tape can cache exactly those.  Complex functions (C's
/// `_Complex` arithmetic and `<complex.h>`) are rows too: their partials are
/// 2x2 real Jacobians per complex operand (see ComplexCalls.h for how the
/// real and imaginary parts travel in a call).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_DERIVATIVERULES_H
#define GPUAD_RULES_DERIVATIVERULES_H

#include "Target/MathProvider.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <functional>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Instruction;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

/// What a partial-derivative function sees: the builder, the primal operands
/// and result (fetched on demand, so reverse mode loads from the tape only
/// what a rule reads), and the target's math.
class RuleContext {
public:
  RuleContext(llvm::IRBuilderBase &B, llvm::Type *Ty,
              std::function<llvm::Value *(unsigned)> Operand,
              std::function<llvm::Value *()> Result, MathProvider &Math)
      : B(B), Ty(Ty), OperandFn(std::move(Operand)),
        ResultFn(std::move(Result)), Math(Math) {}

  llvm::IRBuilderBase &B;
  /// The floating-point type of the result (scalar or vector).
  llvm::Type *Ty;

  llvm::Value *operand(unsigned I) const { return OperandFn(I); }
  llvm::Value *result() const { return ResultFn(); }
  /// Part \p I of a complex row's result (0 real, 1 imaginary), whether it
  /// is returned as `{T, T}`, `<2 x T>` or nested in a struct.
  llvm::Value *resultPart(unsigned I) const;
  llvm::Value *math(MathFn Fn, llvm::ArrayRef<llvm::Value *> Args) const {
    return Math.emit(B, Fn, Args);
  }
  /// \p X as a constant of type Ty (splatted for vectors).
  llvm::Value *constant(double X) const;

private:
  std::function<llvm::Value *(unsigned)> OperandFn;
  std::function<llvm::Value *()> ResultFn;
  MathProvider &Math;
};

using PartialFn = llvm::Value *(*)(RuleContext &);

/// The partials of a complex row's result w = u + iv with respect to one
/// complex operand z = x + iy: du/dx, du/dy, dv/dx, dv/dy.  Null entries are
/// zero; a real result (cabs, carg) has only the u row.  A holomorphic
/// function with derivative w'(z) = a + ib has {a, -b, b, a}.
struct ComplexJacobian {
  llvm::Value *ReX = nullptr, *ReY = nullptr, *ImX = nullptr, *ImY = nullptr;
};
/// Reads operands as real parts: operand(2k) = x, operand(2k+1) = y of
/// complex operand k.
using ComplexPartialFn = ComplexJacobian (*)(RuleContext &);

/// Bit in Partial::Needs standing for the primal result.
constexpr uint8_t NeedsResult = 1u << 7;
constexpr uint8_t needsOperand(unsigned I) { return uint8_t(1u << I); }

struct Partial {
  /// Null: the result does not depend differentiably on this operand (an
  /// integer exponent, the sign source of copysign).
  PartialFn Fn = nullptr;
  /// The primal values Fn reads (needsOperand(i) | NeedsResult).
  uint8_t Needs = 0;
};

enum class RuleKind {
  /// result = f(operands); the derivative is given by Partials.
  Elementwise,
  /// Piecewise constant (floor, ceil, ...): derivative zero.
  ZeroDerivative,
  /// A floating-point conversion (fpext, fptrunc): linear; forward mode
  /// applies the same conversion to the tangent, reverse mode the opposite
  /// one to the adjoint.
  Conversion,
  /// Several results of operand 0, some written through pointer arguments
  /// (sincos(x, &s, &c), modf(x, &ip)); each output is the result of an
  /// elementwise family, listed in Outputs.
  MultipleOutputs,
  /// A function of one or two complex operands with a complex result (cexp,
  /// __muldc3) or a real one (cabs, carg).  ComplexPartials has one Jacobian
  /// per complex operand; NumOperands counts real parts (2 or 4).
  Complex,
};

/// Where a MultipleOutputs rule puts one result.
struct RuleOutput {
  /// -1 for the return value, else the pointer argument written.
  int Arg = -1;
  /// For a returned aggregate ({mantissa, exponent} of llvm.frexp): the
  /// element; -1 for the whole return value.
  int Element = -1;
  /// The family (a spelling in the table) that computes this result from
  /// operand 0; null marks the end of the list.
  const char *Family = nullptr;
};

struct DerivativeRule {
  /// The family's name for messages ("sin", "fmul").
  llvm::StringRef Family;
  RuleKind Kind;
  std::array<Partial, 3> Partials;
  /// Number of leading operands the rule covers (call arguments beyond them
  /// are ignored; there are none for the rows in the table).
  unsigned NumOperands;
  /// MultipleOutputs only.
  std::array<RuleOutput, 2> Outputs = {};
  /// Complex only.
  std::array<ComplexPartialFn, 2> ComplexPartials = {};
  /// Complex only: the result is real (cabs) rather than complex.
  bool RealResult = false;
};

/// The built-in row a spelling names (intrinsic names without their type
/// suffix, e.g. "llvm.sin"), or null.  A family's own name is a spelling
/// only where the table lists it as one ("sin", "fadd"), not "copy", "rcp",
/// "minnum" or "frexp-mantissa": those name rows, not functions.  Calls are
/// matched through a module's CallTable, which adds the module's aliases.
const DerivativeRule *findBuiltinRule(llvm::StringRef Name);
/// The row a family name or a spelling names: for rows that name other rows
/// (a MultipleOutputs row's outputs), aliases and tests.  Never for
/// deciding what a call is.
const DerivativeRule *findFamily(llvm::StringRef Name);
/// Whether a non-intrinsic call of type \p FT can be \p R's function: as
/// many parameters as the row has operands; for elementwise, zero-derivative
/// and conversion rows a floating-point first operand and result; for
/// several-output rows a floating-point first operand and pointers where
/// results are written.  Complex rows are matched per call (ComplexCall).
bool fitsRule(const DerivativeRule &R, const llvm::FunctionType &FT);

/// Every built-in spelling (for tests and docs).
void forEachBuiltinRuleName(
    llvm::function_ref<void(llvm::StringRef, const DerivativeRule &)> Fn);

} // namespace gpuad

#endif // GPUAD_RULES_DERIVATIVERULES_H
