//===- ForwardEmitter.h - Forward-mode (tangent) derivatives ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Forward mode: a forward sweep (Core/ForwardSweep) that also gives every
/// active data value its tangent, right after the value is computed:
///   - arithmetic and math calls: sum of rule partials times operand tangents;
///   - casts, selects, aggregates, vector ops, PHIs: moved by the shared
///     sweep like any shadow;
///   - memory: tangents are stored to and loaded from shadow memory, memset
///     zeroes it, atomics act on it;
///   - calls to defined functions: a call to their own forward derivative,
///     which returns the primal result and its tangent.
/// Width N keeps N tangents in one value (see Lanes).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_FORWARD_FORWARDEMITTER_H
#define GPUAD_FORWARD_FORWARDEMITTER_H

#include "Sweep/ForwardSweep.h"

namespace gpuad {

struct DerivativeSignature;

class ForwardEmitter final : public ForwardSweep {
public:
  ForwardEmitter(SweepPlanner &Ctx, const DerivativeKey &Key,
                 llvm::Function &Derivative, const DerivativeSignature &Sig)
      : ForwardSweep(Ctx, Key, Derivative), Sig(Sig) {}

  /// Emits the derivative; false if errors were reported.
  bool run();

private:
  bool wantsShadow(const llvm::Value *V) const override;
  void emitData(llvm::Instruction &I) override;
  void emitRuleCall(llvm::CallBase &Call, const DerivativeRule &Rule) override;
  void emitBufferCall(llvm::CallBase &Call, const CallClass &Class) override;
  /// The tangent kernel's launch, in place of the primal's
  /// (ForwardLaunches.cpp).
  void emitKernelLaunch(KernelLaunch &L) override;
  void emitDerivativeCall(llvm::CallBase &Call) override;
  void emitMessage(llvm::CallBase &Call, const MpiRoutine &Mpi) override;
  void emitMemSet(llvm::CallBase &Call) override;
  void emitAtomicRMW(llvm::AtomicRMWInst &I) override;
  void emitShuffle(llvm::CallBase &Call, unsigned Operand) override;

  void emitElementwise(llvm::Instruction &I, const DerivativeRule &Rule);
  /// sincos and friends: each output's tangent, returned or stored to the
  /// shadow of the pointer it is written through.
  void emitMultipleOutputs(llvm::CallBase &Call, const DerivativeRule &Rule);
  /// cexp, __muldc3 and friends: the Jacobians of the real parts
  /// (Rules/ComplexCalls.h).
  void emitComplex(llvm::CallBase &Call, const DerivativeRule &Rule);
  void rewriteReturns();

  const DerivativeSignature &Sig;
};

} // namespace gpuad

#endif // GPUAD_FORWARD_FORWARDEMITTER_H
