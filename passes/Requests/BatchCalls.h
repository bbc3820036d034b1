//===- BatchCalls.h - Enzyme's __enzyme_batch --------------------*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// `__enzyme_batch(f, enzyme_width, W, args...)` evaluates f for W lanes:
/// each parameter takes W values, one per lane (the default at width W > 1,
/// or after `enzyme_vector`), one value all lanes share (`enzyme_scalar`),
/// or `enzyme_buffer, stride, base` (lane v's pointer at base + v * stride
/// bytes).  The W results fill the type the call declares (a struct, array
/// or vector of W results, or an sret slot).
///
/// gpuad lowers the call to W calls of f, lane after lane, in the caller;
/// the optimizer may then inline and vectorise them.  f need not be defined
/// here.  Lanes that write memory another lane reads see each other's
/// writes in lane order (Enzyme's batching runs the lanes in lock-step,
/// instruction by instruction); lanes that share nothing they write, the
/// intended use, get the same results either way.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_BATCHCALLS_H
#define GPUAD_REQUESTS_BATCHCALLS_H

namespace llvm {
class CallBase;
} // namespace llvm

namespace gpuad {

class Diagnostics;

/// Replaces \p Call by the W calls it asks for.  Returns false after
/// reporting an error (the call is then left for eraseRequestCall).
bool lowerBatchCall(llvm::CallBase &Call, Diagnostics &Diags);

} // namespace gpuad

#endif // GPUAD_REQUESTS_BATCHCALLS_H
