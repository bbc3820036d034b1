//===- ComplexCalls.h - How complex values cross a call ---------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A complex row (RuleKind::Complex) is stated on real parts: operand parts
/// x1, y1[, x2, y2] and result parts u[, v].  In IR a `_Complex T` crosses a
/// call in one of a few shapes, which this file reads without naming any
/// function or target:
///   - two T arguments (x86-64 `double _Complex`, the compiler-rt libcalls
///     `__muldc3(a, b, c, d)`, NVPTX and AMDGPU);
///   - one `<2 x T>` argument (x86-64 `float _Complex`: `cexpf(<2 x float>)`);
///   - one aggregate holding exactly two T (`{T, T}`, or a struct wrapping
///     one, like `thrust::complex`);
/// and a complex result as `<2 x T>` or such an aggregate, a real one as T.
/// Forward mode applies the rule's Jacobians to the operands' tangents
/// (jvp), reverse mode their transposes to the result's adjoint (vjp), lane
/// by lane through Lanes, so batched modes need nothing else.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_COMPLEXCALLS_H
#define GPUAD_RULES_COMPLEXCALLS_H

#include "Rules/DerivativeRules.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include "llvm/IR/Function.h"

#include <optional>
#include <string>

namespace gpuad {

class CallTable;
class Lanes;

/// Part \p I (0 real, 1 imaginary) of a value \p V of one of the shapes
/// above; a scalar is its own only part.
llvm::Value *complexPart(llvm::IRBuilderBase &B, llvm::Value *V, unsigned I);

/// The error for a call to a complex row's function that does not have the
/// row's shape (e.g. `long double _Complex`, passed in memory).
std::string complexShapeError(const llvm::CallBase &Call,
                              const DerivativeRule &Rule);

/// A by-value wrapper of \p Callee, a function of complex row \p Rule that
/// takes each complex operand by reference (a pointer to its two parts):
/// `<callee>.gpuad.byvalue(x1, y1[, x2, y2])` stores the parts in stack
/// pairs and calls \p Callee.  It is created once per module and added to
/// the table as a spelling of \p Rule.  Null when \p Callee does not have
/// that shape.
llvm::Function *complexByValueWrapper(llvm::Function &Callee,
                                      const DerivativeRule &Rule,
                                      CallTable &Calls);

class ComplexCall {
public:
  /// The layout of \p Call's arguments and result for complex row \p Rule,
  /// or nothing when they do not have the row's shape.
  static std::optional<ComplexCall> match(const llvm::CallBase &Call,
                                          const DerivativeRule &Rule);

  /// The type of every real part.
  llvm::Type *partType() const { return PartTy; }
  /// Number of complex operands (1 or 2).
  unsigned numOperands() const { return Parts.size() / 2; }
  /// The call argument that holds operand part \p K.
  unsigned argumentOf(unsigned K) const { return Parts[K].Arg; }

  /// Primal operand part \p K, from \p Arg (argument argumentOf(K) as the
  /// caller sees it: the value, or its copy on the tape).
  llvm::Value *operandPart(llvm::IRBuilderBase &B, llvm::Value *Arg,
                           unsigned K) const;

  /// Forward mode: the result's tangent from the operands' tangents.
  /// \p ArgShadow gives an argument's shadow (null: zero); \p Jacobian
  /// evaluates the row's partial for complex operand k.
  llvm::Value *
  jvp(llvm::IRBuilderBase &B, const Lanes &L,
      llvm::function_ref<llvm::Value *(unsigned)> ArgShadow,
      llvm::function_ref<ComplexJacobian(unsigned)> Jacobian) const;

  /// Reverse mode: the adjoint contribution of result adjoint \p DI to each
  /// argument, as (argument, adjoint of the argument's type); \p Wanted says
  /// which arguments need one.
  llvm::SmallVector<std::pair<unsigned, llvm::Value *>, 4>
  vjp(llvm::IRBuilderBase &B, const Lanes &L, llvm::Value *DI,
      llvm::function_ref<bool(unsigned)> Wanted,
      llvm::function_ref<ComplexJacobian(unsigned)> Jacobian) const;

private:
  struct Part {
    unsigned Arg;
    /// Part 0 or 1 of a pair-shaped argument; -1: the argument itself.
    int Element;
  };
  llvm::SmallVector<Part, 4> Parts;
  llvm::Type *PartTy = nullptr;
  llvm::Type *ResultTy = nullptr;
  const llvm::CallBase *Call = nullptr;
  bool RealResult = false;
};

} // namespace gpuad

#endif // GPUAD_RULES_COMPLEXCALLS_H
