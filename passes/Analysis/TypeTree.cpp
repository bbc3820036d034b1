//===- TypeTree.cpp - What bytes hold: float, integer, pointer ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/TypeTree.h"

#include "llvm/IR/Type.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

bool ConcreteType::join(const ConcreteType &O) {
  if (O.K == Unknown || *this == O)
    return false;
  if (K == Unknown) {
    *this = O;
    return true;
  }
  unsigned Joined = seenKinds() | O.seenKinds();
  if (K == Anything && Seen == Joined)
    return false;
  K = Anything;
  FloatTy = nullptr;
  Seen = Joined;
  return true;
}

std::string ConcreteType::str() const {
  switch (K) {
  case Unknown:
    return "Unknown";
  case Integer:
    return "Integer";
  case Pointer:
    return "Pointer";
  case Anything:
    return mayBeFloat() ? "Anything" : "Anything(no float)";
  case Float: {
    std::string S;
    raw_string_ostream OS(S);
    OS << "Float@" << *FloatTy;
    return S;
  }
  }
  return "?";
}

ConcreteType TypeTree::at(const TypePath &Path) const {
  auto It = Entries.find(Path);
  if (It != Entries.end())
    return It->second;
  // An entry at offset -1 covers every offset of its level.
  if (!Path.empty()) {
    TypePath Any = Path;
    Any.back() = -1;
    It = Entries.find(Any);
    if (It != Entries.end())
      return It->second;
  }
  return ConcreteType();
}

bool TypeTree::insert(const TypePath &Path, ConcreteType C) {
  if (C.kind() == ConcreteType::Unknown || Path.size() > MaxDepth)
    return false;
  TypePath P = Path;
  for (int &Off : P)
    if (Off > MaxOffset || Off < -1)
      Off = -1;
  // Already covered by the -1 entry of its level: it says C, or more.
  // (After widening, offsets the -1 entry subsumes must not come back, or
  // the next widening would drop them again without end.)
  if (!P.empty() && P.back() != -1) {
    TypePath Any = P;
    Any.back() = -1;
    auto It = Entries.find(Any);
    if (It != Entries.end() && !ConcreteType(It->second).join(C))
      return false;
  }
  bool Changed = Entries[P].join(C);
  if (Changed && P.size() == 1 && P[0] != -1)
    widenFirstLevel();
  if (Changed && P.size() == 1 && P[0] == -1) {
    // Single offsets that say what -1 says are redundant.
    for (auto It = Entries.begin(); It != Entries.end();) {
      if (It->first.size() == 1 && It->first[0] != -1 && It->second == C)
        It = Entries.erase(It);
      else
        ++It;
    }
  }
  return Changed;
}

void TypeTree::widenFirstLevel() {
  unsigned Count = 0;
  for (const auto &[Path, C] : Entries)
    Count += Path.size() == 1 && Path[0] != -1;
  if (Count <= MaxOffsetsPerLevel)
    return;
  // Replace every first-level offset (and what lies behind it) by -1.
  std::map<TypePath, ConcreteType> Widened;
  for (const auto &[Path, C] : Entries) {
    TypePath Q = Path;
    if (!Q.empty())
      Q[0] = -1;
    Widened[Q].join(C);
  }
  Entries = std::move(Widened);
}

bool TypeTree::join(const TypeTree &O) {
  bool Changed = false;
  for (const auto &[Path, C] : O.Entries)
    Changed |= insert(Path, C);
  return Changed;
}

TypeTree TypeTree::child(const TypePath &Prefix) const {
  TypeTree T;
  for (const auto &[Path, C] : Entries) {
    if (Path.size() < Prefix.size())
      continue;
    bool Matches = true;
    for (unsigned I = 0; I < Prefix.size(); ++I)
      Matches &= Path[I] == Prefix[I] || Path[I] == -1;
    if (Matches)
      T.insert(TypePath(Path.begin() + Prefix.size(), Path.end()), C);
  }
  return T;
}

TypeTree TypeTree::underPrefix(const TypePath &Prefix) const {
  TypeTree T;
  for (const auto &[Path, C] : Entries) {
    TypePath P = Prefix;
    P.append(Path.begin(), Path.end());
    T.insert(P, C);
  }
  return T;
}

TypeTree TypeTree::shifted(int Delta, int Lo, int Size) const {
  TypeTree T;
  for (const auto &[Path, C] : Entries) {
    if (Path.empty()) {
      continue; // the value itself is not memory
    }
    TypePath P = Path;
    if (P[0] != -1) {
      if (P[0] < Lo || (Size >= 0 && P[0] >= Lo + Size))
        continue;
      P[0] += Delta;
      if (P[0] < 0)
        continue;
    }
    T.insert(P, C);
  }
  return T;
}

TypeTree TypeTree::clipped(int Size) const {
  if (Size < 0)
    return shifted(0);
  // The element size of the every-offset fact, to enumerate its elements.
  ConcreteType Every = at({-1});
  int Step = Every.kind() == ConcreteType::Float
                 ? int(Every.floatType()->getPrimitiveSizeInBits() / 8)
                 : 8;
  bool Enumerate = Step > 0 && Size / Step <= int(MaxOffsetsPerLevel);
  TypeTree T;
  for (const auto &[Path, C] : Entries) {
    if (Path.empty())
      continue;
    if (Path[0] >= 0) {
      if (Path[0] < Size)
        T.insert(Path, C);
      continue;
    }
    if (!Enumerate) {
      T.insert(Path, C);
      continue;
    }
    for (int Offset = 0; Offset + Step <= Size; Offset += Step) {
      TypePath P = Path;
      P[0] = Offset;
      T.insert(P, C);
    }
  }
  return T;
}

TypeTree TypeTree::folded(int Stride) const {
  TypeTree T;
  if (Stride <= 0)
    return T;
  for (const auto &[Path, C] : Entries) {
    if (Path.empty())
      continue;
    TypePath P = Path;
    if (P[0] != -1)
      P[0] %= Stride;
    T.insert(P, C);
  }
  return T;
}

TypeTree TypeTree::arrayElement(int Stride) const {
  if (Stride <= 0)
    return TypeTree();
  // The every-offset facts hold for every element; the facts at fixed
  // offsets are grouped by the element they fall in.
  TypeTree Element;
  std::map<int, TypeTree> Elements;
  for (const auto &[Path, C] : Entries) {
    if (Path.empty())
      continue;
    if (Path[0] == -1) {
      Element.insert(Path, C);
      continue;
    }
    TypePath P = Path;
    P[0] %= Stride;
    Elements[Path[0] / Stride].insert(P, C);
  }
  for (const auto &[Index, Facts] : Elements) {
    for (const auto &[Path, C] : Facts.entries()) {
      ConcreteType Seen = Element.at(Path);
      if (C.kind() != ConcreteType::Unknown && Seen.isKnown() && !(Seen == C))
        return Element; // the data after the array starts here
    }
    Element.join(Facts);
  }
  return Element;
}

void TypeTree::print(raw_ostream &OS) const {
  OS << "{";
  bool First = true;
  for (const auto &[Path, C] : Entries) {
    if (C.kind() == ConcreteType::Unknown)
      continue;
    OS << (First ? "" : ", ") << "[";
    for (unsigned I = 0; I < Path.size(); ++I)
      OS << (I ? "," : "") << Path[I];
    OS << "]:" << C.str();
    First = false;
  }
  OS << "}";
}

} // namespace gpuad
