//===- RequestProcessing.h - One entry-point call, start to end -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What the pass does with each call to an `__enzyme_*` entry point: parse
/// it, prove what its call site can (disjoint arguments, a run-time alias
/// check), ask the planner for the derivative, plan lane batching, lower the
/// call, and say so in a remark.  Calls that are not derivatives (batch,
/// call_inactive, virtualreverse, type hints) are lowered here too.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_REQUESTPROCESSING_H
#define GPUAD_REQUESTS_REQUESTPROCESSING_H

#include <vector>

namespace llvm {
class CallBase;
} // namespace llvm

namespace gpuad {

class DerivativeContext;

/// Handles one call to an `__enzyme_*` entry point.
void processEntryCall(llvm::CallBase &Call, DerivativeContext &Ctx);

/// Requests in an order where a function is differentiated only after the
/// requests inside it (forward over forward) have been lowered.
std::vector<llvm::CallBase *>
innermostFirst(std::vector<llvm::CallBase *> Calls);

} // namespace gpuad

#endif // GPUAD_REQUESTS_REQUESTPROCESSING_H
