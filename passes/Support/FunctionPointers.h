//===- FunctionPointers.h - How a function pointer is used ------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Whether a pointer that holds a function is only ever called: then no
/// memory is reached through it, and it carries no derivative.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_FUNCTIONPOINTERS_H
#define GPUAD_SUPPORT_FUNCTIONPOINTERS_H

namespace llvm {
class Value;
} // namespace llvm

namespace gpuad {

/// Whether pointer \p V (a function argument, a function pointer made from
/// an integer) is only called, compared, or passed on to such arguments (a
/// callback): memory is never reached through it.
bool isOnlyCalled(const llvm::Value &V);

} // namespace gpuad

#endif // GPUAD_SUPPORT_FUNCTIONPOINTERS_H
