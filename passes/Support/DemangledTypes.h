//===- DemangledTypes.h - Source types from C++ mangled names ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A C++ function's Itanium-mangled name says its parameters' source types
/// ("(double*, double*, std::allocator<double>&)"), which the IR's opaque
/// pointers no longer do.  The request parser reads them to tell a struct
/// passed by value apart; the type analysis to know what a `double *`
/// parameter points to when nothing in the body says (libstdc++'s
/// relocation helpers move a vector's doubles with memmove).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_DEMANGLEDTYPES_H
#define GPUAD_SUPPORT_DEMANGLEDTYPES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

/// The source types of the parameters of the function named \p Name (an
/// Itanium-mangled name; a clone's suffix such as ".gpuad.primal" is
/// allowed), in order, `...` for a variadic tail; none if \p Name is no
/// mangled function.  \p WithoutCloneSuffix reads the name up to its first
/// dot: any suffix (a derivative's `.rev.dd.dret`) is then allowed.
std::optional<llvm::SmallVector<std::string, 8>>
demangledParameterTypes(llvm::StringRef Name, bool WithoutCloneSuffix = false);

/// Whether a parameter of source type \p Type reaches the IR as one
/// argument whatever the target: a pointer, a reference or a builtin
/// arithmetic type (a struct by value may be split into its fields).
bool isPassedWhole(llvm::StringRef Type);

/// The demangled name without parameters or return type (`ns::step<int>`
/// for `void ns::step<int>(double*, int)`), or \p Name itself.
std::string demangledBaseName(llvm::StringRef Name);
/// Whether \p Name is a function of CUDA's or ROCm's own GPU libraries
/// (Thrust, CUB, libcu++, rocPRIM, hipCUB, cooperative groups).
bool gpuLibraryFunction(llvm::StringRef Name);
/// A GPU library function's name for messages, without its template
/// arguments or versioned namespaces (`thrust::transform_reduce`).
std::string libraryFunctionName(llvm::StringRef Name);
/// Whether \p Namespace is a library's versioned inline namespace
/// (`THRUST_300001_SM_750_NS`, `CUB_300001_SM_750`, libcu++'s `__4`).
bool isVersionNamespace(llvm::StringRef Namespace);

/// The declared source type of each of \p F's IR arguments, from its
/// mangled name (empty for `this` and an sret pointer); none where the
/// arguments do not line up with the declaration (a struct split into its
/// fields, a variadic tail) or the name is not mangled.
std::optional<llvm::SmallVector<std::string, 8>>
declaredArgumentTypes(const llvm::Function &F, bool WithoutCloneSuffix = false);

} // namespace gpuad

#endif // GPUAD_SUPPORT_DEMANGLEDTYPES_H
