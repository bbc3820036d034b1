//===- Markers.h - enzyme_* argument markers --------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Recognises the markers of the call ABI in their three spellings: a C/CUDA
/// global passed by value (`load i32, ptr @enzyme_dup`), the same global
/// passed by address, and an IR metadata string (`metadata !"enzyme_dup"`).
/// Globals are matched by their source name, so C++ names in a namespace
/// (`_ZN2ns10enzyme_dupE`) work too.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_MARKERS_H
#define GPUAD_REQUESTS_MARKERS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

enum class MarkerKind {
  Dup,
  DupNoNeed,
  DupV,
  DupNoNeedV,
  NotOverwritten,
  Const,
  Out,
  Width,
  Tape,
  Allocated,
  PrimalReturn,
  NoReturn,
  ConstReturn,
  DupReturn,
  ActiveReturn,
};

/// What an argument of a request call is, as far as markers go.
struct MarkerMatch {
  /// The marker's spelling, e.g. "enzyme_dup" (empty when not a marker).
  std::string Name;
  /// Set when Name is a known marker; unset for an unknown `enzyme_*` name.
  std::optional<MarkerKind> Kind;
  bool isMarker() const { return !Name.empty(); }
};

/// Classifies \p V.  A value that is not spelled `enzyme_*` in any of the
/// three forms is not a marker.
MarkerMatch matchMarker(const llvm::Value *V);

/// The `enzyme_*` name a global is known by in the source, or empty.
std::string markerNameOf(const llvm::GlobalVariable &GV);

/// Removes the now unused loads of marker globals and unused marker
/// declarations, so no reference to an `extern int enzyme_*` remains (PTX has
/// no unresolved externs).  Definitions the user wrote are kept.
void eraseDeadMarkerReferences(llvm::Module &M);

} // namespace gpuad

#endif // GPUAD_REQUESTS_MARKERS_H
