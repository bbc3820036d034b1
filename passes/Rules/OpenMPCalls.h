//===- OpenMPCalls.h - OpenMP runtime entry points ---------------*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What gpuad knows of libomp's entry points beyond the inactive rows
/// (CallRules.def): which synchronise a team, and so are mirrored in the
/// reverse sweep -- a barrier stays a barrier; leaving a critical section
/// becomes entering it, in the opposite order of the entries, so the
/// adjoints of the section's body are added one thread at a time as the
/// body ran -- and which implement constructs gpuad does not
/// differentiate.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_OPENMPCALLS_H
#define GPUAD_RULES_OPENMPCALLS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace gpuad {

/// The call that undoes \p Name's synchronisation in the reverse sweep,
/// with the same operands, if \p Name synchronises a team: a barrier's is a
/// barrier; a critical section is entered in the reverse sweep by
/// `gpuad_omp_critical_reverse_enter` with the ticket its entry took
/// (Normalize/ParallelRegions.h), where it was left.  The runtime's own
/// `__kmpc_critical` has none: a section gpuad could not give a ticket is
/// not differentiated.
std::optional<llvm::StringRef> mirroredTeamSync(llvm::StringRef Name);

/// The OpenMP construct a runtime entry point that gpuad does not
/// differentiate implements (tasks, `ordered`, ...), if \p Name is one.
std::optional<llvm::StringRef> unsupportedOpenMPConstruct(llvm::StringRef Name);

} // namespace gpuad

#endif // GPUAD_RULES_OPENMPCALLS_H
