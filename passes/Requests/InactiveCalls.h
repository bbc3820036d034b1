//===- InactiveCalls.h - Enzyme's __enzyme_call_inactive --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// `__enzyme_call_inactive(f, args...)` calls f(args...) and says that the
/// call carries no derivative (Enzyme's way to stop derivatives at one call
/// rather than at every call of a function).  gpuad replaces it by that call,
/// typed by the arguments and the result the program declares, with the
/// call-site attribute `enzyme_inactive` the analyses read for inactive
/// functions.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_INACTIVECALLS_H
#define GPUAD_REQUESTS_INACTIVECALLS_H

namespace llvm {
class CallBase;
} // namespace llvm

namespace gpuad {

class Diagnostics;

/// Replaces \p Call by the inactive call it asks for.  Returns false after
/// reporting an error (the call is then left for eraseRequestCall).
bool lowerInactiveCall(llvm::CallBase &Call, Diagnostics &Diags);

} // namespace gpuad

#endif // GPUAD_REQUESTS_INACTIVECALLS_H
