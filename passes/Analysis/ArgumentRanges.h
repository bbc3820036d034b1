//===- ArgumentRanges.h - Bytes reached through parameters ------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The bytes one call of a function may access through each pointer
/// parameter, as offsets from the parameter that are expressions of its
/// integer parameters: `[Lo, Hi)`, evaluated at the function's entry.
///
/// Each load and store's address is a scalar-evolution expression; inside a
/// loop it is an affine recurrence `{start,+,step}`, whose values lie between
/// its first and its value after the loop's symbolic maximum backedge-taken
/// count (an affine recurrence is monotone).  Outer loops are eliminated the
/// same way from the inside out.  The bounds hold for every access that
/// runs; where a loop does not run the expressions may be anything, which
/// only widens the union.
///
/// The analysis gives up (with the reason) unless every memory access of the
/// function goes through a parameter at such an offset or into memory of
/// its own (locals, its own heap allocations, constant globals), and it
/// calls nothing that reaches memory: then the ranges cover everything the
/// call can touch through its parameters.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_ARGUMENTRANGES_H
#define GPUAD_ANALYSIS_ARGUMENTRANGES_H

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class Function;
class SCEV;
class ScalarEvolution;
class TargetLibraryInfo;
} // namespace llvm

namespace gpuad {

class CallTable;

/// What a call does through one pointer parameter.
struct ArgumentRange {
  /// Byte offsets from the parameter, `[Lo, Hi)`: expressions of the
  /// function's integer parameters only (SCEV unknowns are Arguments).
  const llvm::SCEV *Lo = nullptr;
  const llvm::SCEV *Hi = nullptr;
  bool Written = false;
  /// Some access sits in a loop (where knowing the parameter alone reaches
  /// the memory pays: vectorisation, hoisting).
  bool InLoop = false;
};

struct ArgumentRanges {
  /// Per parameter: its range, or none for a parameter that is not a
  /// pointer or whose memory the function never touches.
  llvm::SmallVector<std::optional<ArgumentRange>, 8> Params;
  /// Empty when the ranges are complete; else why they are not known.
  std::string Unknown;
};

/// The ranges of \p F (in loop-simplified form), computed with \p SE.
ArgumentRanges computeArgumentRanges(llvm::Function &F,
                                     llvm::ScalarEvolution &SE,
                                     const llvm::TargetLibraryInfo &TLI,
                                     const CallTable &Calls);

} // namespace gpuad

#endif // GPUAD_ANALYSIS_ARGUMENTRANGES_H
