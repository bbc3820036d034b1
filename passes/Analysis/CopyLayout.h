//===- CopyLayout.h - Where the floats are in a memory copy -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The reverse of memcpy moves the adjoints of the floats it copied, so it
/// must know where in the copied bytes the floats are.  The type analysis
/// describes memory by offsets from a pointer; it cannot say that a layout
/// repeats (an array of structs), nor what lies beyond the offsets it saw.
/// CopyLayout adds what the IR says: the element size of the array a
/// pointer points into (an array alloca or global, a GEP into an array or
/// over a run-time index), and how far the known layout reaches.  A copy
/// longer than that reach, of memory that is not known to repeat, has bytes
/// of unknown type: an error (or a run-time stop for a length known only
/// then), never adjoints silently left behind.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ANALYSIS_COPYLAYOUT_H
#define GPUAD_ANALYSIS_COPYLAYOUT_H

#include "Analysis/TypeTree.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class DataLayout;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class TypeInfo;

/// The floats in memory, from a type tree: either one float type throughout
/// (an array), or floats at known offsets (a struct).
struct CopiedFloats {
  llvm::Type *Throughout = nullptr;
  llvm::SmallVector<std::pair<int, llvm::Type *>, 8> AtOffsets;
  bool OtherData = false; // integers or pointers at known offsets
  /// With Throughout and OtherData: the first offset of other data, before
  /// which the bytes are the array's floats (an array member followed by
  /// other members).
  uint64_t ThroughoutBefore = 0;
  bool Unknown = false; // nothing is known
  /// The first offset of bytes that are a float in some uses and other
  /// data in others (which a copy of them moves cannot be told), if any.
  std::optional<uint64_t> FirstMixed;
};
CopiedFloats copiedFloats(const TypeTree &T);

/// What a copy from \p Src to \p Dst moves, for its reverse.
struct CopyLayout {
  CopiedFloats Floats;
  /// The layout of Floats.AtOffsets repeats every Stride bytes (an array of
  /// records); 0 if it is one record.
  uint64_t Stride = 0;
  /// For one record: the bytes from the start whose types are known.  A copy
  /// of more has bytes that may hold floats nobody described.
  uint64_t Reach = 0;
};
CopyLayout copyLayout(const llvm::Value *Dst, const llvm::Value *Src,
                      const TypeInfo &TI, const llvm::DataLayout &DL);

/// The size of the elements of the array whose element \p Ptr points to the
/// start of, where the IR says (0 if it does not).
uint64_t arrayElementStride(const llvm::Value *Ptr, const llvm::DataLayout &DL);

} // namespace gpuad

#endif // GPUAD_ANALYSIS_COPYLAYOUT_H
