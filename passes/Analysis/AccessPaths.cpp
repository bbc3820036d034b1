//===- AccessPaths.cpp - What a function does with its arguments' memory --===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/AccessPaths.h"

#include "Analysis/TypeTree.h"
#include "Support/LocalSlots.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gpuad {

AccessPath AccessPath::loaded() const {
  AccessPath P = *this;
  P.Loads.push_back(Offset);
  P.Offset = 0;
  return P;
}

namespace {

/// Resolves the pointers of one function to paths from its parameters.
class PathFinder {
public:
  PathFinder(Function &F,
             function_ref<const PathRelations *(Function &)> RelationsOf)
      : DL(F.getParent()->getDataLayout()), RelationsOf(RelationsOf) {}

  std::optional<AccessPath> resolve(const Value *V, unsigned Depth = 0) const;
  /// \p Callee's path \p Q at the call \p Call, in this function's terms.
  std::optional<AccessPath> atCall(const AccessPath &Q, const CallBase &Call,
                                   unsigned Depth = 0) const;

private:
  const DataLayout &DL;
  function_ref<const PathRelations *(Function &)> RelationsOf;
};

} // namespace

/// A path can only be followed so deep: type trees end there too.
static bool withinBounds(const AccessPath &P) {
  return P.Offset >= 0 && P.Offset < TypeTree::MaxOffset &&
         P.Loads.size() < TypeTree::MaxDepth;
}

std::optional<AccessPath> PathFinder::resolve(const Value *V,
                                              unsigned Depth) const {
  if (Depth > 16)
    return std::nullopt;
  V = V->stripPointerCasts();
  if (const auto *A = dyn_cast<Argument>(V))
    return AccessPath{int(A->getArgNo()), {}, 0};
  if (const auto *GEP = dyn_cast<GEPOperator>(V)) {
    APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
    if (!GEP->accumulateConstantOffset(DL, Offset))
      return std::nullopt;
    std::optional<AccessPath> P = resolve(GEP->getPointerOperand(), Depth + 1);
    if (!P)
      return std::nullopt;
    P->Offset += Offset.getSExtValue();
    return withinBounds(*P) ? P : std::nullopt;
  }
  if (const auto *LI = dyn_cast<LoadInst>(V)) {
    if (!LI->isSimple() || !LI->getType()->isPointerTy())
      return std::nullopt;
    const Value *Addr = LI->getPointerOperand()->stripPointerCasts();
    if (const auto *Slot = dyn_cast<AllocaInst>(Addr)) {
      const Value *Stored = onlyStoredValue(*Slot);
      return Stored ? resolve(Stored, Depth + 1) : std::nullopt;
    }
    std::optional<AccessPath> P = resolve(Addr, Depth + 1);
    if (!P || !withinBounds(P->loaded()))
      return std::nullopt;
    return P->loaded();
  }
  const auto *Call = dyn_cast<CallBase>(V);
  if (!Call)
    return std::nullopt;
  if (const Value *Arg = Call->getReturnedArgOperand())
    return resolve(Arg, Depth + 1);
  Function *Callee = Call->getCalledFunction();
  const PathRelations *Rels = Callee ? RelationsOf(*Callee) : nullptr;
  if (!Rels)
    return std::nullopt;
  // The callee returns one of its paths (`return *this`, an accessor).
  const AccessPath Result;
  for (const PathRelation &R : *Rels)
    if (R.K == PathRelation::SameValue && R.A == Result && !R.OneWay &&
        R.B.Arg != AccessPath::ResultArg)
      return atCall(R.B, *Call, Depth + 1);
  return std::nullopt;
}

std::optional<AccessPath> PathFinder::atCall(const AccessPath &Q,
                                             const CallBase &Call,
                                             unsigned Depth) const {
  if (Q.Arg == AccessPath::ResultArg || unsigned(Q.Arg) >= Call.arg_size())
    return std::nullopt;
  std::optional<AccessPath> P = resolve(Call.getArgOperand(Q.Arg), Depth);
  if (!P)
    return std::nullopt;
  for (int Load : Q.Loads) {
    P->Offset += Load;
    if (!withinBounds(P->loaded()))
      return std::nullopt;
    P = P->loaded();
  }
  P->Offset += Q.Offset;
  return withinBounds(*P) ? P : std::nullopt;
}

PathRelations
findPathRelations(Function &F,
                  function_ref<const PathRelations *(Function &)> RelationsOf) {
  constexpr unsigned MaxRelations = 64;
  PathFinder Paths(F, RelationsOf);
  const DataLayout &DL = F.getParent()->getDataLayout();
  PathRelations Found;
  auto Add = [&](PathRelation::Kind K, std::optional<AccessPath> A,
                 std::optional<AccessPath> B, int Length = 0,
                 bool OneWay = false) {
    if (A && B && !(*A == *B) && Found.size() < MaxRelations)
      Found.push_back({K, *A, *B, Length, OneWay});
  };
  for (Instruction &I : instructions(F)) {
    if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
      // A path returned, or a member's value (`array_get(a)` at -O0).
      Value *RV = Ret->getReturnValue();
      if (RV && RV->getType()->isPointerTy())
        Add(PathRelation::SameValue, AccessPath(), Paths.resolve(RV));
      else if (auto *LI = dyn_cast_or_null<LoadInst>(RV); LI && LI->isSimple())
        if (std::optional<AccessPath> At =
                Paths.resolve(LI->getPointerOperand());
            At && withinBounds(At->loaded()))
          Add(PathRelation::SameValue, AccessPath(), At->loaded());
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      // A pointer stored into a member, or a member's value copied from
      // another path through a register.
      if (!SI->isSimple())
        continue;
      std::optional<AccessPath> At = Paths.resolve(SI->getPointerOperand());
      Value *V = SI->getValueOperand();
      if (V->getType()->isPointerTy()) {
        if (At)
          Add(PathRelation::SameValue, At->loaded(), Paths.resolve(V));
      } else if (auto *LI = dyn_cast<LoadInst>(V); LI && LI->isSimple()) {
        Add(PathRelation::SameBytes, At, Paths.resolve(LI->getPointerOperand()),
            int(DL.getTypeStoreSize(V->getType())));
      }
    } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      auto *Len = dyn_cast<ConstantInt>(MT->getLength());
      if (Len && Len->getZExtValue() <= uint64_t(TypeTree::MaxOffset))
        Add(PathRelation::SameBytes, Paths.resolve(MT->getRawDest()),
            Paths.resolve(MT->getRawSource()), int(Len->getZExtValue()));
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      Function *Callee = Call->getCalledFunction();
      const PathRelations *Rels = Callee ? RelationsOf(*Callee) : nullptr;
      if (!Rels)
        continue;
      // The callee's relations among its parameters hold among what this
      // function passes it.
      for (const PathRelation &R : *Rels)
        Add(R.K, Paths.atCall(R.A, *Call), Paths.atCall(R.B, *Call), R.Length,
            R.OneWay);
    }
  }
  // A result that may be any of several paths only learns from them.
  const AccessPath Result;
  unsigned Returned = count_if(Found, [&](const PathRelation &R) {
    return R.K == PathRelation::SameValue && R.A == Result;
  });
  if (Returned > 1)
    for (PathRelation &R : Found)
      if (R.K == PathRelation::SameValue && R.A == Result)
        R.OneWay = true;
  return Found;
}

} // namespace gpuad
