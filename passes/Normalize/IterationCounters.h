//===- IterationCounters.h - Enzyme's __enzyme_iter ------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// `__enzyme_iter(base, step)` is an integer that grows with the order of
/// differentiation: `base` in the program, `base + k * step` in code that
/// has been differentiated k times.  A series truncated at N terms can so
/// keep one more term in each derivative, whose order drops by one
/// (Enzyme's mycos.c: sin's Taylor series, differentiated four times).
///
/// Every clone gpuad differentiates (Preprocessor::makeClone) replaces each
/// call's `base` by `base + step`; a derivative calls the generated code of
/// its callees, so differentiating a derivative again adds `step` again.
/// When the pass is done, each remaining call is its `base`.  The calls are
/// inactive and read no memory.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_ITERATIONCOUNTERS_H
#define GPUAD_NORMALIZE_ITERATIONCOUNTERS_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace gpuad {

/// Whether \p F is `__enzyme_iter` (any name containing it).
bool isIterationCounter(const llvm::Function &F);

/// Marks the counters' declarations inactive and free of side effects.
void declareIterationCounters(llvm::Module &M);

/// In \p Clone, a copy about to be differentiated: base += step.  Returns
/// true if it changed something.
bool advanceIterationCounters(llvm::Function &Clone);

/// Replaces each remaining call by its base and erases the declarations.
/// Returns true if it changed something.
bool lowerIterationCounters(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_ITERATIONCOUNTERS_H
