//===- ReverseCalls.cpp - Calls to defined functions in reverse mode ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A call to a defined function is differentiated in split form: the
/// forward sweep calls the callee's augmented half, which runs the callee
/// and returns its tape; the reverse sweep calls the backward half with the
/// same arguments (as they were at the call), the adjoint of the result and
/// that tape, and adds the adjoints it returns to the arguments'.  The
/// callee's tape is an ordinary forward value to the caller's Tape: kept in
/// a register, or cached per iteration when the call is in a loop.
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Tape/Tape.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gpuad {

void ReverseEmitter::emitDerivativeCall(CallBase &Call) {
  // An invoke becomes an invoke of the augmented half; the unwind path does
  // not reach the return and has no reverse (exceptions thrown through a
  // derivative end it).
  DerivativeKey K = calleeKey(Call, DiffMode::ReverseAugmented);
  for (const Use &A : Call.args())
    K.Overwritten.push_back(!A->getType()->isPointerTy() ||
                            overwrittenAfterCall(Call, A.get()));
  SplitHalves H = Ctx.getSplit(K);
  const DerivativeSignature &S = Ctx.signatureOf(*H.Augmented);
  CallBase *Aug = emitReplacementCall(Call, H.Augmented, calleeArgs(Call, S));
  Value *Primal = S.field(B, Aug, S.PrimalField);
  Value *Shadow = S.field(B, Aug, S.ShadowField);
  AugCall &AC = AugCalls[Aug];
  AC = {H.Backward,
        S.field(B, Aug, S.TapeField),
        Primal,
        {},
        Ctx.argumentWrites().writtenGlobals(Call)};
  SmallBitVector Written = Ctx.argumentWrites().writtenArguments(Call);
  for (unsigned K : Written.set_bits())
    AC.WrittenOperands.push_back(S.PrimalParam[K]);
  replaceCall(Call, Primal);
  if (Primal && Shadow)
    setShadow(Primal, Shadow);
}

void ReverseEmitter::reverseDerivativeCall(CallBase &Aug) {
  const AugCall &AC = AugCalls.find(&Aug)->second;
  const DerivativeSignature &S = Ctx.signatureOf(*AC.Backward);
  // The backward half's leading parameters are the augmented half's.
  SmallVector<Value *, 16> Args(S.Type->getNumParams());
  for (unsigned P = 0; P < Aug.arg_size(); ++P)
    Args[P] = lookup(Aug.getArgOperand(P));
  if (S.SeedParam >= 0)
    Args[S.SeedParam] = Adj->take(B, AC.Result);
  if (S.TapeParam >= 0)
    Args[S.TapeParam] = lookup(AC.Tape);
  CallInst *Bwd = B.CreateCall(AC.Backward, Args);
  Bwd->setAttributes(Aug.getAttributes());
  Bwd->setCallingConv(AC.Backward->getCallingConv());
  for (auto [K, ArgNo] : enumerate(S.AdjointArgs))
    addAdjoint(Aug.getArgOperand(S.PrimalParam[ArgNo]), S.adjointOf(B, Bwd, K));
}

} // namespace gpuad
