//===- LibraryAlgorithms.h - Thrust algorithm calls as map kernels -*- C++ -*-//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Host code calls `thrust::transform(thrust::device, first, last, out, f)`
/// on device data.  gpuad does not differentiate the library's kernels;
/// it runs such a call as a *map kernel* of its own, one thread per element
/// applying the user's functor, which the pass plugin makes in the device
/// compilation and launches from the differentiated host code (see
/// passes/Rules/AlgorithmCalls.h).  Both halves need facts only the AST
/// has: which overload of `operator()` the library calls, how the functor
/// is laid out, and what the iterators point to.  This file finds them, in
/// both the host and the device compilation (the same source gives both
/// the same records, and so the same kernel names).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_FRONTEND_LIBRARYALGORITHMS_H
#define GPUAD_FRONTEND_LIBRARYALGORITHMS_H

#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class MangleContext;
} // namespace clang

namespace gpuad {

/// The record (one line, in the format passes/Rules/AlgorithmCalls.h
/// reads) of \p Call to \p Callee where \p Callee is one of the Thrust
/// algorithms gpuad runs as map kernels on device data, or "" where it is
/// not.  A call gpuad cannot run that way still gets a record, whose status
/// says why.
std::string describeAlgorithmCall(const clang::CallExpr &Call,
                                  const clang::FunctionDecl &Callee,
                                  clang::ASTContext &Ctx,
                                  clang::MangleContext &Mangle);

} // namespace gpuad

#endif // GPUAD_FRONTEND_LIBRARYALGORITHMS_H
