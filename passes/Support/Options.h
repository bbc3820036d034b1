//===- Options.h - gpuad pass parameters ------------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one place gpuad's knobs live.  They are pass parameters
/// (`-passes='gpuad<no-cleanup;libdevice=/path/libdevice.10.bc>'`); the
/// `-mllvm -gpuad-*` spellings are thin aliases for clang users: they are
/// the defaults the pass parameters override (under clang and under opt).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_OPTIONS_H
#define GPUAD_SUPPORT_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace gpuad {

/// Where reverse-mode tapes of compile-time size live (Tape/TapePlacement.h).
/// Auto: shared-memory slots when the calling kernels' block size is known
/// and they fit, else thread-local memory within the target's budget, else
/// the global tape pool.  The others force one place (Heap: no fixed-size
/// regions at all, every loop's frames on the heap -- device malloc).
enum class TapePlacementChoice { Auto, Local, Shared, Pool, Heap };

/// How a width-N derivative in device code carries its N directions
/// (Batch/LaneMapping.h): N shadows per thread (Vector), or the N lanes of a
/// lane group, one direction each (Lanes, where the function allows it).
/// Auto: lanes where the vector form would exceed the target's register
/// budget for full occupancy.  Host code always uses vectors.
enum class BatchMappingChoice { Auto, Lanes, Vector };

struct GpuadOptions {
  /// Run gpuad's own clean-up pipeline (SROA, EarlyCSE, InstCombine,
  /// SimplifyCFG) on every generated function.
  bool Cleanup = true;
  /// CUDA libdevice bitcode, used to supply `__nv_*` functions that
  /// derivative rules need and the module lacks.  Empty: search the usual
  /// install locations.
  std::string LibDevice;
  /// Directory of the ROCm device libraries (ocml.bc, oclc_*.bc).  Empty:
  /// search the usual install locations.
  std::string RocmDeviceLibs;
  /// Reverse mode: treat the pointer parameters of differentiated functions
  /// as restrict (not overlapping each other or globals), as if the source
  /// said `__restrict__`.  Smaller tapes and fewer GPU atomics; a wrong
  /// gradient if the caller does pass overlapping memory.
  bool AssumeNoAliasArgs = false;
  /// Reverse mode: a value a loop leaves behind (its LCSSA PHI) is kept once,
  /// when the loop exits, not once per iteration (off: per iteration, read
  /// back at the exit iteration -- to show what the optimisation saves).
  /// Also a select recurrence's (running maximum's) conditions: its last
  /// pick only (LastPick.h), off: every iteration's.
  bool LastIterationCache = true;
  /// Specialise combined reverse derivatives on the pointer arguments
  /// their call site proves disjoint (CallSiteAliasing.h).
  bool CallSiteAliasing = true;
  /// Combined reverse derivatives of host code check at run time whether
  /// their pointer arguments overlap, and run a restrict version if not
  /// (RuntimeDisjointness.h).
  bool RuntimeAliasCheck = true;
  /// Reverse mode: move pure calls with loop-invariant arguments out of
  /// their loops before differentiating (InvariantCalls.h).
  bool HoistInvariantCalls = true;
  /// The device module is for the CPU emulator (`-gpuad-emulation`, set by
  /// `gpuad-cc --emulate`): device library functions stay calls, and none
  /// are linked in; the emulator's runtime supplies them.
  bool Emulation = false;
  /// Device modules: which kernels get derivative kernels for launches
  /// from differentiated host code (Requests/LaunchDerivatives.h): "auto",
  /// "all", "none", or a comma-separated list of kernel names.
  std::string LaunchDerivatives = "auto";
  TapePlacementChoice TapePlacement = TapePlacementChoice::Auto;
  /// MiB the reverse sweep keeps of each time loop's states, beyond which
  /// the loop is checkpointed (Normalize/CheckpointedLoops.h); 0: no budget.
  unsigned TapeBudgetMiB = 0;
  BatchMappingChoice BatchMapping = BatchMappingChoice::Auto;
  /// Where print<gpuad-tape> wants each reverse-mode tape's layout (null:
  /// nowhere).
  llvm::raw_ostream *TapeLayout = nullptr;

  /// Options as set by `-mllvm -gpuad-*` (defaults otherwise).
  static GpuadOptions fromCommandLine();
  /// Parses the text between `gpuad<` and `>`, starting from the command-line
  /// values; parameters are separated by ';'.
  static llvm::Expected<GpuadOptions> parse(llvm::StringRef Params);
};

} // namespace gpuad

#endif // GPUAD_SUPPORT_OPTIONS_H
