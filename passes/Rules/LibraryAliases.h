//===- LibraryAliases.h - Spellings that vary by version --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Some libraries name their math functions in a way the table cannot list:
/// thrust puts everything in an inline namespace named after its version and
/// the target architecture (`thrust::THRUST_300001_SM_800_NS::detail::
/// complex::cexp`), so the mangled name changes with the toolkit and the
/// -arch flag.  forEachLibraryAlias finds such functions in a module by
/// their demangled names, with the version namespace left out: the module's
/// CallTable makes each an alias of its row.  Thrust's elementary functions of
/// complex<double> and complex<float> (exp, log, sqrt, sinh, cosh, tanh:
/// thrust/detail/complex/*.h) test and set the bits of their operands, so
/// they must be differentiated by rule, never through their bodies.  They
/// take their operand by reference: the Preprocessor passes it by value
/// before the rows read it (see ComplexCalls.h).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_LIBRARYALIASES_H
#define GPUAD_RULES_LIBRARYALIASES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace gpuad {

/// Calls \p Fn with each version-named library function of \p M and the
/// row it is a spelling of.
void forEachLibraryAlias(
    const llvm::Module &M,
    llvm::function_ref<void(llvm::StringRef Name, llvm::StringRef Family)> Fn);

} // namespace gpuad

#endif // GPUAD_RULES_LIBRARYALIASES_H
