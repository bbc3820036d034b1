//===- RuntimeMemory.h - GPU runtime copies as tagged intrinsics -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A host function's `cudaMemcpy(dst, src, n, kind)` moves n bytes from src
/// to dst as `memcpy` does, wherever the two live, and `cudaMemset` fills as
/// `memset` does.  Every analysis already knows the intrinsics -- which
/// bytes become which, what is written, what is typed how -- so the
/// normalised clone carries each runtime copy and fill as the intrinsic,
/// tagged `!gpuad.runtime` with its API ("cuda", "hip") and whether it was
/// asynchronous.  What gpuad emits for a tagged intrinsic (the primal's
/// copy, the shadows' copies, zeroing) is tagged too, and every generated
/// function has its tagged intrinsics turned back into runtime calls
/// before anything else may optimise it: `memcpy` becomes
/// `<api>Memcpy(dst, src, n, <api>MemcpyDefault)` (unified addressing
/// tells the direction), an asynchronous one is preceded by
/// `<api>DeviceSynchronize()` (it then orders at least as strongly as the
/// stream did), and `memset` becomes `<api>Memset`.  Code that reads or
/// writes the bytes of a tagged intrinsic itself (an adjoint's addition)
/// must stage them through host memory.  cuBLAS's transfers
/// (`cublasSetMatrix(rows, cols, size, A, lda, B, ldb)`, `...Vector`, their
/// `Async` forms) become such copies too: one of the whole where both
/// leading dimensions (increments) are the rows (1), else one per column
/// (element), in a loop.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_RUNTIMEMEMORY_H
#define GPUAD_NORMALIZE_RUNTIMEMEMORY_H

#include "Rules/CallRule.h"

#include <optional>

namespace llvm {
class CallBase;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace gpuad {

class CallTable;

/// Replaces each runtime copy and fill in \p F with its tagged intrinsic;
/// the runtime's result (an error code) becomes success.
bool tagRuntimeMemory(llvm::Function &F, const CallTable &Calls);
/// Replaces the runtime's call \p Call (a call, or an invoke: the runtimes
/// do not throw) by \p Result (null: success, 0), and erases it.
void replaceRuntimeCall(llvm::CallBase &Call, llvm::Value *Result);
/// The runtime a tagged intrinsic stands for (Copy, CopyAsync, Set,
/// SetAsync), or none.
std::optional<RuntimeCall> runtimeOf(const llvm::Instruction &I);
/// Tags \p New, an intrinsic gpuad emitted for \p Like, as \p Like is
/// (nothing where \p Like is untagged).
void tagLike(llvm::Instruction &New, const llvm::Instruction &Like);
/// Tags \p New as a synchronous call of runtime \p Api.
void tagRuntime(llvm::Instruction &New, const char *Api);
/// Turns \p F's tagged intrinsics into runtime calls.
bool lowerRuntimeMemory(llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_RUNTIMEMEMORY_H
