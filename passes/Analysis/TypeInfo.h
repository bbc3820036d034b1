//===- TypeInfo.h - Type analysis of values and memory ----------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Infers, for every value of a function, a TypeTree: whether it (and the
/// memory reachable through it) holds floats, integers or pointers.  IR types
/// alone do not say this: clang copies a double through an i64, memcpy moves
/// untyped bytes, and a `ptr` says nothing about what it points to.
///
/// Facts come from IR types, TBAA access tags, and uses (a GEP index is an
/// integer, an fadd operand is a float), and flow in both directions through
/// loads, stores, memcpy, GEPs (constant offsets exactly, run-time indices
/// folded modulo the element size), casts, PHIs, selects and aggregates, to a
/// fixed point.  Across calls, facts come from both sides when a
/// TypeSummaries is given: a call's operands and result learn what the
/// callee's own analysis found for its parameters and return (so a vector
/// filled by push_back is known to hold doubles), and a function's
/// parameters can start from what its callers know.  Consumers treat
/// Unknown and Anything conservatively.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_TYPEINFO_H
#define GPUAD_ANALYSIS_TYPEINFO_H

#include "Analysis/AccessPaths.h"
#include "Analysis/TypeTree.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <vector>

namespace llvm {
class Argument;
class CallBase;
class DataLayout;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace gpuad {

class KernelLaunch;

class CallTable;
struct BufferRoutine;
struct BufferSpelling;

class TypeInfo;

/// What the analysis of each defined function finds for its parameters and
/// return, computed on demand and kept for the module (calls nested deeper
/// than a few levels, and recursion, contribute nothing).  A summary that
/// missed callees for depth is computed again when asked for from a
/// shallower call, so what a function's summary says does not depend on
/// which caller asked first.
class TypeSummaries {
public:
  explicit TypeSummaries(const CallTable &Calls) : Calls(Calls) {}
  struct Summary {
    llvm::SmallVector<TypeTree, 8> Params;
    TypeTree Return;
    /// What flows between parameters and the result, which only a caller
    /// can turn into types.
    PathRelations Relations;
  };
  /// The summary of \p F, or null while it is being computed or too deep.
  /// The pointer stays valid for the life of this object.
  const Summary *get(llvm::Function &F);

private:
  Summary compute(llvm::Function &F);

  const CallTable &Calls;

  struct Entry {
    std::unique_ptr<Summary> S;
    unsigned Depth = 0;        // the depth it was computed at
    bool MissedDeeper = false; // a callee was cut off for depth
  };
  std::map<const llvm::Function *, Entry> Done;
  /// Summaries replaced by better ones, kept for pointers handed out.
  std::vector<std::unique_ptr<Summary>> Replaced;
  llvm::SmallPtrSet<const llvm::Function *, 8> InProgress;
  unsigned Depth = 0;
  bool CutOff = false; // the summary being computed missed a callee
};

class TypeInfo {
public:
  using ArgumentTypes = llvm::DenseMap<const llvm::Argument *, TypeTree>;
  TypeInfo(llvm::Function &F, const CallTable &Calls,
           TypeSummaries *Callees = nullptr)
      : TypeInfo(F, Calls, ArgumentTypes(), Callees) {}
  /// \p Calls says what calls are; \p Known: what callers know of some
  /// arguments (joined in first); \p Callees: summaries of called functions
  /// (null: calls are opaque); \p Fallback: what holds of some pointer
  /// arguments' memory where the code says nothing of it.
  TypeInfo(llvm::Function &F, const CallTable &Calls,
           const ArgumentTypes &Known, TypeSummaries *Callees,
           const ArgumentTypes &Fallback = ArgumentTypes());

  /// The floats \p F's parameters' declared source types (its mangled
  /// name) say they are or point to (scalar floats and arrays of them), per
  /// argument: for a function made
  /// from \p F whose arguments no longer line up with its name (a
  /// derivative with shadows between them).
  static llvm::SmallVector<TypeTree, 8> declaredFloats(const llvm::Function &F);

  /// Everything known about \p V (computed on demand for constants).
  TypeTree tree(const llvm::Value *V) const;
  /// The type of \p V itself.
  ConcreteType typeOf(const llvm::Value *V) const { return tree(V).at({}); }
  /// The type of the memory at byte \p Offset behind pointer \p Ptr.
  ConcreteType memoryAt(const llvm::Value *Ptr, int Offset) const {
    return tree(Ptr).at({Offset});
  }

  /// True when \p V is known to hold only integer data (no float bits, no
  /// pointer): its derivative is zero and it needs no shadow.
  bool isInteger(const llvm::Value *V) const;

  /// True when \p V is an integer the types call a pointer: an address.
  bool isAddress(const llvm::Value *V) const;

  /// Whether the memory behind \p Ptr may hold pointers: unknown memory
  /// may; memory known to hold only floats and integers does not.
  bool mayHoldPointers(const llvm::Value *Ptr) const;

  void print(llvm::raw_ostream &OS) const;

private:
  void solve();
  void visit(llvm::Instruction &I);
  /// Joins \p T into V's tree; queues V's neighbours when it grew.
  void update(const llvm::Value *V, const TypeTree &T);
  void update(const llvm::Value *V, const TypePath &P, ConcreteType C);

  void visitMemoryAccess(llvm::Instruction &I, llvm::Value *Ptr,
                         llvm::Value *Val);
  void visitGEP(llvm::Instruction &I);
  void visitMemTransfer(llvm::Value *Dst, llvm::Value *Src, llvm::Value *Len);
  void visitAggregate(llvm::Instruction &I);
  void visitIntegerOp(llvm::Instruction &I);
  void applyTBAA(llvm::Instruction &I, llvm::Value *Ptr, llvm::Type *AccessTy);

  void visitCall(llvm::CallBase &Call);
  /// The float type of the array \p P points into at a constant positive
  /// offset, where the array is known to hold that type only.
  llvm::Type *floatArrayAround(llvm::Value *P) const;
  void visitBufferCall(llvm::CallBase &Call, const BufferRoutine &R,
                       const BufferSpelling &S);
  void visitKernelLaunch(const KernelLaunch &L);
  /// Applies a callee's relations between its parameters and result to
  /// the operands and result of \p Call.
  void applyRelations(llvm::CallBase &Call, const PathRelations &Relations);

  llvm::Function &F;
  const llvm::DataLayout &DL;
  const CallTable &Calls;
  TypeSummaries *Callees;
  llvm::DenseMap<const llvm::Value *, TypeTree> Trees;
  llvm::SetVector<llvm::Instruction *> Worklist;
};

/// The TypeTree that the IR type \p Ty implies by itself (floats, pointers,
/// and the element layout of vectors and aggregates).
TypeTree treeOfType(llvm::Type *Ty, const llvm::DataLayout &DL);

} // namespace gpuad

#endif // GPUAD_ANALYSIS_TYPEINFO_H
