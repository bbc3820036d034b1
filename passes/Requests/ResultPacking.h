//===- ResultPacking.h - Results in the type a call declares ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// An entry point's result is a list of scalars (a primal, N tangents,
/// adjoints, W batched results), and the program declares whatever type it
/// likes to hold them: a scalar, a struct, an array, a vector, an sret slot.
/// These helpers take values apart into scalars, check that a declared type
/// holds exactly those scalars, and build the declared value from them.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_RESULTPACKING_H
#define GPUAD_REQUESTS_RESULTPACKING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class CallBase;
class DataLayout;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

/// The scalar types of \p Ty, in memory order (structs, arrays and vectors
/// taken apart).
void flattenType(llvm::Type *Ty, llvm::SmallVectorImpl<llvm::Type *> &Out);

/// The scalars of \p V, in the order flattenType gives their types.
void flattenValue(llvm::IRBuilderBase &B, llvm::Value *V,
                  llvm::SmallVectorImpl<llvm::Value *> &Out);

/// Whether the program reads \p Call's result: a use other than a store into
/// a local nothing reads (clang's -O0 code for an unread variable), or a
/// return slot someone reads.
bool resultIsRead(const llvm::CallBase &Call, const llvm::Value *ReturnSlot);

/// Builds a value of type \p Ty from the front of \p Leaves (consumed).
llvm::Value *buildValue(llvm::IRBuilderBase &B, llvm::Type *Ty,
                        llvm::ArrayRef<llvm::Value *> &Leaves);

/// Whether \p Declared holds \p Leaves exactly: as many scalars, each of
/// the same type, a float of another width, or a same-sized
/// reinterpretation.
bool shapesMatch(llvm::Type *Declared, llvm::ArrayRef<llvm::Value *> Leaves,
                 const llvm::DataLayout &DL);

/// \p Ty as the IR prints it.
std::string typeName(llvm::Type *Ty);

} // namespace gpuad

#endif // GPUAD_REQUESTS_RESULTPACKING_H
