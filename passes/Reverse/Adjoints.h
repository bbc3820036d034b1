//===- Adjoints.h - Adjoint accumulators of the reverse sweep ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every active value gets an accumulator: a local of its shadow type,
/// zeroed at entry.  Users add their contributions as the reverse sweep
/// meets them; the value's own reverse takes the sum (and zeroes it, since
/// in a loop the next reverse iteration is a different instance).  SROA
/// turns the locals into SSA values, PHIs where control merges.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_ADJOINTS_H
#define GPUAD_REVERSE_ADJOINTS_H

#include "Support/Lanes.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace llvm {
class AllocaInst;
class Type;
class Function;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace gpuad {

class Adjoints {
public:
  /// \p ViewOf: for a value of integer type that carries floats wider than
  /// its lanes, the floating-point type its adjoints are added in.
  using ViewFn = std::function<llvm::Type *(llvm::Value *)>;
  Adjoints(llvm::Function &F, const Lanes &L, ViewFn ViewOf)
      : F(F), L(L), ViewOf(std::move(ViewOf)) {}

  /// d(V) += Delta (Delta of V's shadow type; null is zero).
  void add(llvm::IRBuilderBase &B, llvm::Value *V, llvm::Value *Delta);
  /// The accumulated d(V), reset to zero.
  llvm::Value *take(llvm::IRBuilderBase &B, llvm::Value *V);

private:
  llvm::AllocaInst *slot(llvm::Value *V);

  llvm::Function &F;
  const Lanes &L;
  ViewFn ViewOf;
  llvm::DenseMap<const llvm::Value *, llvm::AllocaInst *> Slots;
};

} // namespace gpuad

#endif // GPUAD_REVERSE_ADJOINTS_H
