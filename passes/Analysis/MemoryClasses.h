//===- MemoryClasses.h - Which memory a pointer may reach -------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Partitions the memory a function touches into classes, by unification
/// (Steensgaard): pointers that may point into the same object end up in the
/// same class, and each class has one content class -- the class of the
/// pointers stored in it.  Activity is then a property of classes: a class
/// is shadowed (has shadow memory the derivative reads and writes) or not.
///
/// Roots of classes are: each pointer argument (all memory reachable from it
/// is its own class, so a shadow struct holds shadow pointers), each alloca,
/// each heap allocation, each global, the result of each other call, and one
/// Unknown class (inttoptr and the like).  GEPs, casts, PHIs and selects
/// unify their operands; loads and stores of pointers unify with contents;
/// memcpy unifies contents.  Calls do not unify their arguments: the callee
/// is differentiated with its own analysis.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_MEMORYCLASSES_H
#define GPUAD_ANALYSIS_MEMORYCLASSES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>
#include <vector>

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class LoadInst;
class Value;
class raw_ostream;
} // namespace llvm

namespace gpuad {

class CallTable;

/// What kinds of object a class contains (a bit set).
enum MemoryOrigin : unsigned {
  OriginShadowedArg = 1u << 0, ///< a pointer argument with a shadow (dup)
  OriginConstArg = 1u << 1,    ///< a pointer argument without one (const)
  OriginLocal = 1u << 2,       ///< an alloca
  OriginHeap = 1u << 3,        ///< malloc, new, ...
  OriginConstGlobal = 1u << 4, ///< a global constant (read-only data)
  OriginGlobal = 1u << 5,      ///< a mutable global
  OriginCallResult = 1u << 6,  ///< returned by a call gpuad differentiates
  OriginUnknown = 1u << 7,     ///< inttoptr, unknown calls
  OriginInactive = 1u << 8,    ///< a global the program marks inactive
};

/// What a call to a defined function does to its caller's memory classes,
/// summarised from the callee's own classes.
struct CallSummary {
  /// Per parameter: parameters in the same group may end up pointing into
  /// each other's memory (a constructor storing one argument into another);
  /// -1 for parameters that hold no pointer.
  llvm::SmallVector<int, 8> Group;
  /// Parameters the returned pointer may point into.
  llvm::SmallBitVector Returned;
  /// Globals it may point into (an accessor returning a static buffer), and
  /// whether it may point into memory of unknown origin.
  llvm::SmallVector<const llvm::GlobalVariable *, 2> ReturnedGlobals;
  bool ReturnsUnknown = false;
};
using CallSummaries = llvm::DenseMap<const llvm::Function *, CallSummary>;

class MemoryClasses {
public:
  /// Whether the memory behind a pointer may hold pointers (a memcpy from
  /// it then copies pointers and unifies contents).
  using MayHoldPointersFn = std::function<bool(const llvm::Value *)>;
  /// Whether an integer value holds an address (the type analysis says so).
  using IsAddressFn = std::function<bool(const llvm::Value *)>;

  /// \p ArgHasShadow[i] says whether pointer argument i has a shadow.
  /// \p Depth bounds the callee summaries computed for calls; \p Summaries
  /// caches them (shared with the analyses of callees).
  MemoryClasses(llvm::Function &F, const CallTable &Calls,
                llvm::ArrayRef<bool> ArgHasShadow,
                MayHoldPointersFn MayHoldPointers = nullptr,
                IsAddressFn IsAddress = nullptr, unsigned Depth = 0,
                std::shared_ptr<CallSummaries> Summaries = nullptr);

  /// The summary of \p F (computed from its own classes, at most a few
  /// calls deep; beyond that, for recursion, and for returns of unknown
  /// origin, conservative: every pointer parameter related).
  const CallSummary &summaryOf(llvm::Function &F);

  /// The class of pointer \p V, or -1 for null/undef and non-pointers.
  int classOf(const llvm::Value *V) const;
  /// The class of the pointers stored in class \p C.
  int contentOf(int C);
  /// The content class of \p C if it has one (-1 otherwise); never creates.
  int contentIfAny(int C) const {
    int N = Nodes[find(C)].Content;
    return N == -1 ? -1 : find(N);
  }
  unsigned origins(int C) const { return Nodes[find(C)].Origins; }
  /// The value class \p C was made for (an argument, alloca, global...).
  const llvm::Value *example(int C) const { return Nodes[C].Example; }
  unsigned numClasses() const { return Nodes.size(); }
  int find(int C) const;

  /// A stable name for class \p C's root, for printers ("%x", "@g", ...).
  std::string describe(int C) const;

private:
  struct Node {
    int Parent;
    int Content = -1;
    unsigned Origins = 0;
    const llvm::Value *Example = nullptr;
  };

  int make(unsigned Origins, const llvm::Value *Example);
  int unite(int A, int B);
  void assign(const llvm::Value *V, int C);
  int classOrMake(const llvm::Value *V);
  void build(llvm::Function &F);

  /// Applies the callee summary at \p Call; the class of its result.
  int applyCall(const llvm::CallBase &Call);

  /// Whether load \p LI reads an address as an integer.
  bool readsAddress(const llvm::LoadInst &LI) const;

  const CallTable &Calls;
  MayHoldPointersFn MayHoldPointers;
  IsAddressFn IsAddress;
  unsigned Depth;
  std::shared_ptr<CallSummaries> Summaries;

  mutable std::vector<Node> Nodes;
  llvm::DenseMap<const llvm::Value *, int> ClassOf;
  int Unknown = -1;
};

} // namespace gpuad

#endif // GPUAD_ANALYSIS_MEMORYCLASSES_H
