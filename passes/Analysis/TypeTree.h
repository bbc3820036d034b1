//===- TypeTree.h - What bytes hold: float, integer, pointer ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A TypeTree describes a value and the memory reachable from it.  Each entry
/// maps a path of byte offsets to a concrete type:
///   []       the value itself;
///   [k]      for a pointer, the memory at byte offset k; for an aggregate or
///            vector value, its element at byte offset k;
///   [k, j]   the memory at offset j behind the pointer stored at offset k.
/// Offset -1 stands for every offset (an array indexed at run time).
/// Facts only accumulate (a join semi-lattice); two different facts about
/// the same bytes make them Anything, which users treat as unknown -- but
/// Anything remembers whether a float was among the facts: bytes that are an
/// integer here and a pointer there are not a float's.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_TYPETREE_H
#define GPUAD_ANALYSIS_TYPETREE_H

#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>

namespace llvm {
class Type;
class raw_ostream;
} // namespace llvm

namespace gpuad {

class ConcreteType {
public:
  enum Kind { Unknown, Integer, Pointer, Float, Anything };

  ConcreteType() = default;
  /// Integer, Pointer, Anything (which may be a float), Unknown.
  explicit ConcreteType(Kind K) : K(K), Seen(K == Anything ? AllKinds : 0) {}
  /// A floating-point scalar type (half, float, double, ...).
  static ConcreteType floatOf(llvm::Type *Ty) {
    ConcreteType C(Float);
    C.FloatTy = Ty;
    return C;
  }

  Kind kind() const { return K; }
  llvm::Type *floatType() const { return FloatTy; }
  bool isKnown() const { return K != Unknown && K != Anything; }
  /// Whether the bytes may hold a float: Float, or Anything joined from
  /// facts that include one (or of unknown origin).
  bool mayBeFloat() const {
    return K == Float || (K == Anything && (Seen & kindBit(Float)));
  }

  /// Joins \p O into this; returns true if this changed.
  bool join(const ConcreteType &O);

  bool operator==(const ConcreteType &O) const {
    return K == O.K && FloatTy == O.FloatTy && Seen == O.Seen;
  }
  std::string str() const;

private:
  static constexpr unsigned kindBit(Kind K) { return 1u << K; }
  static constexpr unsigned AllKinds =
      (1u << Integer) | (1u << Pointer) | (1u << Float);
  /// The kinds an Anything was joined from.
  unsigned seenKinds() const { return K == Anything ? Seen : kindBit(K); }

  Kind K = Unknown;
  llvm::Type *FloatTy = nullptr;
  unsigned Seen = 0;
};

using TypePath = llvm::SmallVector<int, 3>;

class TypeTree {
public:
  /// Paths deeper than this are dropped (pointer chains beyond are unknown).
  static constexpr unsigned MaxDepth = 4;
  /// Offsets beyond this are folded into -1 (bounded trees).
  static constexpr int MaxOffset = 4096;
  /// A level with more distinct offsets than this is widened to -1 (a
  /// pointer bumped in a loop would otherwise enumerate every offset).
  static constexpr unsigned MaxOffsetsPerLevel = 32;

  ConcreteType at(const TypePath &Path) const;
  /// Joins \p C at \p Path; returns true on change.
  bool insert(const TypePath &Path, ConcreteType C);
  /// Joins every entry of \p O; returns true on change.
  bool join(const TypeTree &O);

  /// The entries below \p Prefix with the prefix removed (e.g. the memory of
  /// the pointer stored at offset k: `child({k})`).
  TypeTree child(const TypePath &Prefix) const;
  /// This tree with \p Prefix prepended to every path.
  TypeTree underPrefix(const TypePath &Prefix) const;
  /// Entries with first offset in [Lo, Lo+Size) shifted by -Lo (and -1
  /// entries kept), for a GEP or an aggregate element.
  TypeTree shifted(int Delta, int Lo = 0, int Size = -1) const;
  /// The memory of the first \p Size bytes only (what a copy of that many
  /// moves): an every-offset (-1) fact becomes one per element within them,
  /// so an array's type does not spread past the bytes copied.
  TypeTree clipped(int Size) const;
  /// Only the first-level offsets that are multiples-modulo-\p Stride
  /// equivalent, folded into [0, Stride): an element of an array.
  TypeTree folded(int Stride) const;
  /// What any element of the array this tree's pointer points into holds,
  /// for a run-time index over \p Stride-byte elements: the facts of its
  /// elements folded into [0, Stride), and every-offset (-1) facts.  The
  /// array ends at the first element whose facts disagree with those before
  /// it: a pointer to an array member also sees the members after it (a
  /// caller's view of the enclosing object), which are not elements.
  TypeTree arrayElement(int Stride) const;

  bool empty() const { return Entries.empty(); }
  const std::map<TypePath, ConcreteType> &entries() const { return Entries; }
  void print(llvm::raw_ostream &OS) const;

private:
  void widenFirstLevel();

  std::map<TypePath, ConcreteType> Entries;
};

} // namespace gpuad

#endif // GPUAD_ANALYSIS_TYPETREE_H
