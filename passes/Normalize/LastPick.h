//===- LastPick.h - Select recurrences keep one index, not a flag each ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A running maximum `m = x[i] > m ? x[i] : m` (or fmax, which preprocessing
/// turns into that select) is a select recurrence: the loop-carried value P
/// becomes, in each iteration, either P itself or a new value.  Its adjoint
/// goes back through the iterations unchanged until the last iteration that
/// picked the new value, goes entirely to that value, and is zero before.
/// So when nothing else reads P or the select differentiably (comparisons
/// only), the reverse sweep needs only the number of the last iteration that
/// picked the new value -- one integer per loop entry, kept like any value
/// the loop leaves behind -- instead of which arm every iteration picked.
///
/// Before reverse mode differentiates a function, each such select gets a
/// companion in its loop: an iteration counter and the last picking
/// iteration (`last = cond ? k : last`, -1 before any), and the loop's exit
/// block a PHI of it.  The reverse sweep's condition for the select in
/// iteration k is then `k == last` (the new value was picked) instead of the
/// per-iteration condition.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_LASTPICK_H
#define GPUAD_NORMALIZE_LASTPICK_H

#include <optional>

namespace llvm {
class Function;
class PHINode;
class SelectInst;
} // namespace llvm

namespace gpuad {

/// Adds the companions to \p F's select recurrences (in loop-simplified,
/// LCSSA form).  Returns whether \p F changed.
bool recordLastPicks(llvm::Function &F);

/// What the reverse sweep compares for a select recordLastPicks gave a
/// companion: the select picked its new value in iteration Counter exactly
/// when Counter == Last (Last is read after the loop, so in the reverse
/// sweep it is the loop's last pick).
struct LastPick {
  llvm::PHINode *Counter;
  llvm::PHINode *Last;
  /// The new value is the select's true operand (else its false one).
  bool NewIsTrue;
};
std::optional<LastPick> findLastPick(llvm::SelectInst &Sel);

} // namespace gpuad

#endif // GPUAD_NORMALIZE_LASTPICK_H
