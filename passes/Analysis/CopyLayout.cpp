//===- CopyLayout.cpp - Where the floats are in a memory copy -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/CopyLayout.h"

#include "Analysis/TypeInfo.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <numeric>

using namespace llvm;

namespace gpuad {

CopiedFloats copiedFloats(const TypeTree &T) {
  CopiedFloats C;
  bool Any = false;
  // Entries come in offset order (-1 first): the first of a kind is the
  // lowest offset.
  for (const auto &[Path, Ty] : T.entries()) {
    // Bytes that are an integer here and a pointer there are no float's.
    bool NoFloat = Ty.kind() == ConcreteType::Anything && !Ty.mayBeFloat();
    if (Path.size() == 1 && Ty.kind() == ConcreteType::Anything && !NoFloat &&
        !C.FirstMixed)
      C.FirstMixed = std::max(Path[0], 0);
    if (Path.size() != 1 || !(Ty.isKnown() || NoFloat))
      continue;
    Any = true;
    if (Ty.kind() != ConcreteType::Float) {
      if (!C.OtherData)
        C.ThroughoutBefore = std::max(Path[0], 0);
      C.OtherData = true;
      continue;
    }
    if (Path[0] < 0)
      C.Throughout = Ty.floatType();
    else
      C.AtOffsets.push_back({Path[0], Ty.floatType()});
  }
  C.Unknown = !Any;
  // An array of one float type, possibly with its first elements listed.
  if (!C.OtherData && !C.AtOffsets.empty() &&
      all_of(C.AtOffsets,
             [&](auto &P) {
               return P.second == C.AtOffsets[0].second &&
                      (!C.Throughout || P.second == C.Throughout);
             }) &&
      (C.Throughout || C.AtOffsets.size() > 1 || C.AtOffsets[0].first == 0))
    C.Throughout = C.AtOffsets[0].second;
  if (C.Throughout && !C.OtherData)
    C.AtOffsets.clear();
  return C;
}

uint64_t arrayElementStride(const Value *Ptr, const DataLayout &DL) {
  Ptr = Ptr->stripPointerCasts();
  auto ElementSize = [&](Type *Ty) -> uint64_t {
    if (auto *AT = dyn_cast<ArrayType>(Ty))
      return DL.getTypeAllocSize(AT->getElementType());
    return 0;
  };
  if (const auto *AI = dyn_cast<AllocaInst>(Ptr))
    return AI->isArrayAllocation() ? DL.getTypeAllocSize(AI->getAllocatedType())
                                   : ElementSize(AI->getAllocatedType());
  if (const auto *GV = dyn_cast<GlobalVariable>(Ptr))
    return ElementSize(GV->getValueType());
  const auto *GEP = dyn_cast<GEPOperator>(Ptr);
  if (!GEP)
    return 0;
  // A run-time index steps over elements of the gcd of its scales.
  unsigned BitWidth = DL.getIndexTypeSizeInBits(GEP->getType());
  SmallMapVector<Value *, APInt, 4> VarOffsets;
  APInt ConstOffset(BitWidth, 0);
  if (!GEP->collectOffset(DL, BitWidth, VarOffsets, ConstOffset))
    return 0;
  if (!VarOffsets.empty()) {
    uint64_t Stride = 0;
    for (auto &[V, Scale] : VarOffsets)
      Stride = std::gcd(Stride, Scale.abs().getZExtValue());
    int64_t C = ConstOffset.getSExtValue();
    return Stride && C % int64_t(Stride) == 0 ? Stride : 0;
  }
  // Constant indices whose last steps into an array: a decayed array.
  uint64_t Stride = 0;
  unsigned No = 0;
  for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
       GTI != E; ++GTI, ++No)
    Stride = No > 0 && GTI.isSequential()
                 ? uint64_t(GTI.getSequentialElementStride(DL))
                 : 0;
  return Stride;
}

/// Bytes a scalar of kind \p C at \p Offset may take, up to \p Next (the
/// next known offset, or -1).
static uint64_t scalarBytes(const ConcreteType &C, int Offset, int Next,
                            const DataLayout &DL) {
  uint64_t Bytes = 8;
  if (C.kind() == ConcreteType::Float)
    Bytes = DL.getTypeStoreSize(C.floatType());
  else if (C.kind() == ConcreteType::Pointer)
    Bytes = DL.getPointerSize();
  else if (Next > Offset)
    Bytes = std::min<uint64_t>(Bytes, Next - Offset);
  return Bytes;
}

/// Whether folding \p T modulo \p Stride keeps every known first-level
/// fact (an array of records, not bytes of one record taken as elements).
static bool foldsCleanly(const TypeTree &T, uint64_t Stride) {
  TypeTree Folded = T.folded(Stride);
  for (const auto &[Path, C] : T.entries())
    if (Path.size() == 1 && Path[0] >= 0 && C.isKnown() &&
        !(Folded.at({int(Path[0] % Stride)}) == C))
      return false;
  return true;
}

CopyLayout copyLayout(const Value *Dst, const Value *Src, const TypeInfo &TI,
                      const DataLayout &DL) {
  TypeTree T = TI.tree(Dst);
  T.join(TI.tree(Src));
  CopyLayout L;
  L.Floats = copiedFloats(T);
  if (L.Floats.AtOffsets.empty() || L.Floats.Throughout)
    return L;
  for (const Value *P : {Dst, Src})
    if (uint64_t S = arrayElementStride(P, DL); S && foldsCleanly(T, S)) {
      L.Stride = S;
      L.Floats = copiedFloats(T.folded(S));
      return L;
    }
  SmallVector<std::pair<int, ConcreteType>, 8> Known;
  for (const auto &[Path, C] : T.entries())
    if (Path.size() == 1 && Path[0] >= 0 && C.kind() != ConcreteType::Unknown)
      Known.push_back({Path[0], C});
  for (unsigned K = 0; K < Known.size(); ++K) {
    int Next = K + 1 < Known.size() ? Known[K + 1].first : -1;
    L.Reach = std::max<uint64_t>(
        L.Reach, Known[K].first +
                     scalarBytes(Known[K].second, Known[K].first, Next, DL));
  }
  return L;
}

} // namespace gpuad
