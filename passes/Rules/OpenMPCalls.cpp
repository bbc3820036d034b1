//===- OpenMPCalls.cpp - OpenMP runtime entry points ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/OpenMPCalls.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace gpuad {

std::optional<StringRef> mirroredTeamSync(StringRef Name) {
  return StringSwitch<std::optional<StringRef>>(Name)
      .Case("__kmpc_barrier", StringRef("__kmpc_barrier"))
      .Case("gpuad_omp_critical_enter",
            StringRef("gpuad_omp_critical_reverse_exit"))
      .Case("gpuad_omp_critical_exit",
            StringRef("gpuad_omp_critical_reverse_enter"))
      .Case("__kmpc_serialized_parallel",
            StringRef("__kmpc_end_serialized_parallel"))
      .Case("__kmpc_end_serialized_parallel",
            StringRef("__kmpc_serialized_parallel"))
      .Default(std::nullopt);
}

std::optional<StringRef> unsupportedOpenMPConstruct(StringRef Name) {
  static const std::pair<StringRef, StringRef> Prefixes[] = {
      {"__kmpc_omp_task", "task"},
      {"__kmpc_taskloop", "taskloop"},
      {"__kmpc_taskgroup", "taskgroup"},
      {"__kmpc_end_taskgroup", "taskgroup"},
      {"__kmpc_task_reduction", "task reduction"},
      {"__kmpc_ordered", "ordered"},
      {"__kmpc_end_ordered", "ordered"},
      {"__kmpc_doacross", "ordered (doacross)"},
      {"__kmpc_fork_teams", "teams"},
      {"__kmpc_push_num_teams", "teams"},
      {"__kmpc_copyprivate", "copyprivate"},
      {"__kmpc_threadprivate", "threadprivate"},
      {"__kmpc_cancel", "cancel"},
      {"__kmpc_atomic_", "atomic (through the runtime)"},
      {"__kmpc_fork_call", "parallel (a region gpuad cannot follow)"},
      {"__kmpc_critical", "critical (a section whose end gpuad cannot find)"},
      {"__kmpc_end_critical",
       "critical (a section whose entry gpuad cannot find)"},
      {"__kmpc_reduce", "reduction (in a form gpuad does not know)"},
      {"__kmpc_end_reduce", "reduction (in a form gpuad does not know)"},
      {"__tgt_", "target"},
  };
  for (auto [Prefix, Construct] : Prefixes)
    if (Name.starts_with(Prefix))
      return Construct;
  return std::nullopt;
}

} // namespace gpuad
