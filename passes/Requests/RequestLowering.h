//===- RequestLowering.h - Replace a request by a derivative call -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Turns a parsed request into a call of the generated derivative: caller
/// values are coerced to parameter types, width-N shadows packed (given as N
/// arguments, or as `base + v*stride` for enzyme_dupv), and the result --
/// primal and/or N tangents -- repacked, scalar by scalar, into whatever type
/// the request call declares (a scalar, a struct, an array, a vector, or an
/// sret slot).  A mismatch in shape is a diagnostic, not a silent cast.
/// Split mode adds the tape (see TapeTransport.h) and the return's seed.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_REQUESTLOWERING_H
#define GPUAD_REQUESTS_REQUESTLOWERING_H

#include "Support/EntryPoints.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace gpuad {

class Diagnostics;
class TargetHooks;
struct DerivativeSignature;
struct DiffRequest;
struct LanePlan;

/// Replaces \p Req's call by a call to \p Derivative, or with \p Plan by
/// the lane-mapped computation (Derivative its fallback).  Returns false
/// after reporting an error (the call is then left for eraseRequestCall).
bool lowerRequest(const DiffRequest &Req, llvm::Function &Derivative,
                  const DerivativeSignature &Sig, TargetHooks &Target,
                  Diagnostics &Diags, const LanePlan *Plan = nullptr);

/// Replaces an `__enzyme_augmentsize` call by the byte count of the tape
/// the augmented half with signature \p AugSig returns.
void lowerTapeSize(const DiffRequest &Req, const DerivativeSignature &AugSig);

} // namespace gpuad

#endif // GPUAD_REQUESTS_REQUESTLOWERING_H
