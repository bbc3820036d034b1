//===- DemangledTypes.cpp - Source types from C++ mangled names -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/DemangledTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Function.h"

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
demangledParameterTypes(StringRef Name, bool WithoutCloneSuffix) {
  if (!Name.starts_with("_Z"))
    return std::nullopt;
  // The demangler keeps pointing into the name: it must outlive D's use.
  // (A clone's suffix, `.rev.dd.dret`, off: mangled names hold no dot.)
  if (WithoutCloneSuffix)
    Name = Name.take_until([](char C) { return C == '.'; });
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

bool isPassedWhole(StringRef Type) {
  return Type.ends_with("*") || Type.ends_with("&") ||
         is_contained(
             ArrayRef<StringRef>{"bool", "char", "signed char", "unsigned char",
                                 "short", "unsigned short", "int",
                                 "unsigned int", "long", "unsigned long",
                                 "long long", "unsigned long long", "float",
                                 "double", "long double"},
             Type);
}

std::optional<SmallVector<std::string, 8>>
declaredArgumentTypes(const Function &F, bool WithoutCloneSuffix) {
  std::optional<SmallVector<std::string, 8>> Declared =
      demangledParameterTypes(F.getName(), WithoutCloneSuffix);
  if (!Declared || is_contained(*Declared, "..."))
    return std::nullopt;
  SmallVector<unsigned, 8> Explicit; // the IR arguments not sret
  for (const Argument &A : F.args())
    if (!A.hasStructRetAttr())
      Explicit.push_back(A.getArgNo());
  unsigned Skip;
  if (Explicit.size() == Declared->size())
    Skip = 0;
  else if (Explicit.size() == Declared->size() + 1 &&
           F.getArg(Explicit[0])->getType()->isPointerTy() &&
           all_of(*Declared, isPassedWhole))
    Skip = 1; // `this`: nothing else adds an argument
  else
    return std::nullopt;
  SmallVector<std::string, 8> Types(F.arg_size());
  for (unsigned K = Skip; K < Explicit.size(); ++K) {
    StringRef T = (*Declared)[K - Skip];
    // Pointers and references are IR pointers, and arithmetic types not:
    // else a struct's fields and a dropped empty struct met by chance.
    bool Indirect = T.ends_with("*") || T.ends_with("&");
    if ((Indirect || isPassedWhole(T)) &&
        Indirect != F.getArg(Explicit[K])->getType()->isPointerTy())
      return std::nullopt;
    Types[Explicit[K]] = T.str();
  }
  return Types;
}

std::string demangledBaseName(StringRef Name) {
  // (The demangler keeps pointing into the name.)
  std::string Mangled = Name.str();
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return Mangled;
  size_t Size = 0;
  char *Buf = D.getFunctionName(nullptr, &Size);
  std::string Base = Buf ? Buf : Name.str();
  std::free(Buf);
  return Base;
}

/// The qualified name of the function \p Name demangles to, without its
/// template arguments and past a template's return type (`double
/// thrust::...::f<...>`): `thrust::...::f`.
static std::string qualifiedName(StringRef Name) {
  std::string Base = demangledBaseName(Name);
  StringRef Head = StringRef(Base).split('<').first;
  return Head.substr(Head.rfind(' ') + 1).str();
}

bool isVersionNamespace(StringRef Namespace) {
  return any_of(Namespace, [](char C) { return isDigit(C); });
}

std::string libraryFunctionName(StringRef Name) {
  std::string Qualified = qualifiedName(Name);
  SmallVector<StringRef, 8> Parts;
  StringRef(Qualified).split(Parts, "::");
  std::string Readable;
  for (StringRef P : Parts)
    if (!P.empty() && !isVersionNamespace(P))
      Readable += (Readable.empty() ? "" : "::") + P.str();
  return Readable;
}

bool gpuLibraryFunction(StringRef Name) {
  // (Not a function whose template arguments name the libraries' types.)
  std::string Qualified = qualifiedName(Name);
  return any_of(
      ArrayRef<StringRef>{"thrust::", "cub::", "cuda::", "rocprim::",
                          "hipcub::", "cooperative_groups::"},
      [&](StringRef NS) { return StringRef(Qualified).starts_with(NS); });
}

} // namespace gpuad
