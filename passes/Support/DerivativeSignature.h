//===- DerivativeSignature.h - Parameters and results of a derivative -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The calling convention of generated functions, in one place: each primal
/// parameter, followed by its shadow when it has one (one value holding all
/// lanes, see Lanes); the result is the primal return and/or its shadow, as
/// a two-element struct when both are returned.  Request lowering and the
/// emitters of callers and callees all read this.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_DERIVATIVESIGNATURE_H
#define GPUAD_SUPPORT_DERIVATIVESIGNATURE_H

#include "Support/DerivativeKey.h"
#include "Support/Lanes.h"

namespace llvm {
class FunctionType;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

struct DerivativeSignature {
  llvm::FunctionType *Type = nullptr;
  /// Parameter index of primal argument i, and of its shadow (-1: none).
  llvm::SmallVector<unsigned, 8> PrimalParam;
  llvm::SmallVector<int, 8> ShadowParam;
  bool ReturnsPrimal = false;
  /// Forward mode: the tangent of the return value is returned.
  bool ReturnsShadow = false;
  /// Reverse mode: the arguments (enzyme_out) whose adjoints are returned,
  /// in order, after the primal if that is returned too.
  llvm::SmallVector<unsigned, 4> AdjointArgs;
  /// Split mode, augmented half: field of the result holding the tape, the
  /// primal and the shadow of the return (-1: not returned).
  int TapeField = -1, PrimalField = -1, ShadowField = -1;
  /// The augmented half returns its one field alone, not in a struct.
  bool SingleResult = false;
  /// Split mode, backward half: parameter of the return's seed (its
  /// adjoint) and of the tape (-1: none).
  int SeedParam = -1, TapeParam = -1;

  /// The signature of the forward-mode derivative named by \p Key.
  static DerivativeSignature forward(const DerivativeKey &Key);
  /// The signature of the combined reverse-mode derivative named by \p Key:
  /// the primal arguments with their shadows; returns {primal?, adjoints}
  /// (a single value when there is one, nothing when none).
  static DerivativeSignature reverse(const DerivativeKey &Key);

  /// Split mode.  The augmented half takes the combined parameters and
  /// returns {tape, primal?, shadow?} (the shadow of a returned pointer); the
  /// backward half takes the combined parameters, the seed of an active
  /// return, then the tape (none when \p TapeTy is null), and returns the
  /// adjoints as the combined form does.
  static DerivativeSignature augmented(const DerivativeKey &Key,
                                       llvm::Type *TapeTy);
  static DerivativeSignature backward(const DerivativeKey &Key,
                                      llvm::Type *TapeTy);
  /// Whether the return of \p Key's function is a float that receives a
  /// seed (otherwise Ret == Shadow means a pointer whose shadow is returned).
  static bool seedsReturn(const DerivativeKey &Key);
  /// The tape's type: the augmented half's tape field, the backward half's
  /// tape parameter (null where there is none).
  llvm::Type *tapeType() const;
  /// Field \p Index of the augmented half's \p Result.
  llvm::Value *field(llvm::IRBuilderBase &B, llvm::Value *Result,
                     int Index) const;

  /// Split mode, augmented half: packs the tape, the primal and the shadow
  /// of the return (either may be null where the signature returns none).
  llvm::Value *packAugmented(llvm::IRBuilderBase &B, llvm::Value *Tape,
                             llvm::Value *Primal, llvm::Value *Shadow) const;
  /// Reverse mode: packs the primal (or null) and the adjoints.
  llvm::Value *packAdjoints(llvm::IRBuilderBase &B, llvm::Value *Primal,
                            llvm::ArrayRef<llvm::Value *> Adjoints) const;
  /// Reverse mode: the \p K-th returned adjoint of a call's \p Result.
  llvm::Value *adjointOf(llvm::IRBuilderBase &B, llvm::Value *Result,
                         unsigned K) const;

  /// Packs the values a derivative returns (either may be null when the
  /// signature does not return it).
  llvm::Value *packReturn(llvm::IRBuilderBase &B, llvm::Value *Primal,
                          llvm::Value *Shadow) const;
  /// Unpacks the result of a call to the derivative.
  llvm::Value *primalOf(llvm::IRBuilderBase &B, llvm::Value *Result) const;
  llvm::Value *shadowOf(llvm::IRBuilderBase &B, llvm::Value *Result) const;
  /// What a call to a forward (\p Forward) or combined reverse derivative
  /// returns, in order: the primal if returned, then the tangent of the
  /// return or each enzyme_out argument's adjoint.
  llvm::SmallVector<llvm::Value *, 4>
  resultsOf(llvm::IRBuilderBase &B, llvm::Value *Result, bool Forward) const;
};

/// Whether values of \p Ty hold a pointer (directly or as an element): a
/// returned one has a shadow (the augmented half returns it) and no seed.
bool typeHoldsPointer(llvm::Type *Ty);

} // namespace gpuad

#endif // GPUAD_SUPPORT_DERIVATIVESIGNATURE_H
