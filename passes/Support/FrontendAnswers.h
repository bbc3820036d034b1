//===- FrontendAnswers.h - What the frontend plugin found -------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// gpuad's frontend plugin (frontend/) runs in the same clang process as the
/// pass plugin and answers questions only the AST can: the kernels host
/// requests may launch, the Thrust calls run as map kernels.  Each answer is
/// text, one item per line, behind an exported C function the pass plugin
/// finds among the loaded libraries.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_FRONTENDANSWERS_H
#define GPUAD_SUPPORT_FRONTENDANSWERS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace gpuad {

/// The lines the frontend plugin's exported function \p Symbol answers;
/// none where the plugin did not run or did not analyse this compilation
/// (plain clang without -fplugin, opt).
std::optional<llvm::SmallVector<llvm::StringRef, 8>>
frontendAnswer(const char *Symbol);

} // namespace gpuad

#endif // GPUAD_SUPPORT_FRONTENDANSWERS_H
