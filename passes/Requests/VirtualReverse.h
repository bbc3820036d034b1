//===- VirtualReverse.h - Enzyme's __enzyme_virtualreverse -------*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// `__enzyme_virtualreverse(C)` gives the shadow of a function or of a
/// C++ vtable (a constant, or a vptr loaded at run time).  Programs store it
/// where the shadow of a function pointer lives (a struct's callback field,
/// the vptr of a shadow object) before a derivative runs.
///
/// In Enzyme that shadow is a pair of generated functions that derivatives
/// call through.  gpuad never calls through a shadow function pointer: a
/// call through a pointer dispatches on the *primal* pointer to the
/// callee's own derivative (Core/IndirectCalls), and the shadow of a
/// function is the function itself.  So the answer is C, whatever its
/// value at run time: shadow objects built this way hold what gpuad
/// expects, on the host and on the device.
/// A program that calls through the result itself, expecting Enzyme's pair,
/// is not supported (the user guide says so).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_VIRTUALREVERSE_H
#define GPUAD_REQUESTS_VIRTUALREVERSE_H

namespace llvm {
class CallBase;
} // namespace llvm

namespace gpuad {

class Diagnostics;

/// Replaces \p Call by the shadow of its operand.  Returns false
/// after reporting an error (the call is then left for eraseRequestCall).
bool lowerVirtualReverse(llvm::CallBase &Call, Diagnostics &Diags);

} // namespace gpuad

#endif // GPUAD_REQUESTS_VIRTUALREVERSE_H
