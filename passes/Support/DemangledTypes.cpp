//===- DemangledTypes.cpp - Source types from C++ mangled names -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/DemangledTypes.h"

#include "llvm/Demangle/Demangle.h"

#include <cstdlib>

using namespace llvm;

namespace gpuad {

/// The top-level types of a parameter list "(T1, T2<A, B>, ...)".
static SmallVector<std::string, 8> splitParameterList(StringRef List) {
  SmallVector<std::string, 8> Types;
  List = List.trim();
  if (!List.consume_front("(") || !List.consume_back(")"))
    return Types;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= List.size(); ++I) {
    char C = I < List.size() ? List[I] : ',';
    if (C == '(' || C == '<' || C == '[')
      ++Depth;
    else if (C == ')' || C == '>' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef T = List.slice(Start, I).trim();
      if (!T.empty() && T != "void")
        Types.push_back(T.str());
      Start = I + 1;
    }
  }
  return Types;
}

std::optional<SmallVector<std::string, 8>>
demangledParameterTypes(StringRef Name) {
  if (!Name.starts_with("_Z"))
    return std::nullopt;
  // The demangler keeps pointing into the name: it must outlive D's use.
  std::string Mangled = Name.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()) || !D.isFunction())
    return std::nullopt;
  size_t Size = 0;
  char *Params = D.getFunctionParameters(nullptr, &Size);
  if (!Params)
    return std::nullopt;
  SmallVector<std::string, 8> Types = splitParameterList(Params);
  std::free(Params);
  return Types;
}

} // namespace gpuad
