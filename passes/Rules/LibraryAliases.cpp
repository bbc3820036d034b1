//===- LibraryAliases.cpp - Rule spellings that vary by library version ---===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/LibraryAliases.h"

#include "Rules/DerivativeRules.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace gpuad {

/// Demangled names (inline version namespaces removed) -> table spelling.
static const StringMap<StringRef> &thrustNames() {
  static const StringMap<StringRef> Names = [] {
    StringMap<StringRef> M;
    const std::pair<StringRef, StringRef> Functions[] = {
        {"cexp", "cexp"},   {"clog", "clog"},   {"csqrt", "csqrt"},
        {"csinh", "csinh"}, {"ccosh", "ccosh"}, {"ctanh", "ctanh"}};
    for (auto [Name, Row] : Functions) {
      M["thrust::detail::complex::" + Name.str() +
        "(thrust::complex<double> const&)"] = Row;
      M["thrust::detail::complex::" + Name.str() +
        "f(thrust::complex<float> const&)"] = Row;
    }
    return M;
  }();
  return Names;
}

void forEachLibraryAlias(const Module &M,
                         function_ref<void(StringRef, StringRef)> Fn) {
  static const Regex VersionNamespace("THRUST_[A-Za-z0-9_]*_NS::");
  for (const Function &F : M) {
    StringRef Name = F.getName();
    if (!Name.starts_with("_ZN6thrust"))
      continue;
    std::string Plain = demangle(Name);
    // Every occurrence: the namespace appears in the name and the argument.
    std::string Prev;
    while (Prev != Plain) {
      Prev = Plain;
      Plain = VersionNamespace.sub("", Plain);
    }
    auto It = thrustNames().find(Plain);
    if (It != thrustNames().end())
      Fn(Name, It->second);
  }
}

} // namespace gpuad
