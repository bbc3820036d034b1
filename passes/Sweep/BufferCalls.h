//===- BufferCalls.h - Emitting a buffer routine's derivative ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What forward and reverse mode share when they run a buffer routine's
/// builders (CallRule.h): calls of other routines of the family in the
/// call's own precision and spelling -- by value for CBLAS, through stack
/// slots for Fortran's by-pointer arguments -- and the zeroing of a strided
/// buffer.  Each mode adds how it reads primal values, shadows and adjoints.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_BUFFERCALLS_H
#define GPUAD_SWEEP_BUFFERCALLS_H

#include "Rules/CallTable.h"

namespace llvm {
class CallBase;
class Function;
class IntegerType;
} // namespace llvm

namespace gpuad {

class BufferCallEmitter : public BufferCallSite {
public:
  llvm::Value *call(llvm::StringRef Name,
                    llvm::ArrayRef<llvm::Value *> Args) override;
  void zero(llvm::Value *N, llvm::Value *Buffer, llvm::Value *Inc) override;

protected:
  BufferCallEmitter(llvm::IRBuilderBase &B, llvm::CallBase &Call,
                    const CallClass &Class);

  /// Emits routine \p Name at \p At (the builders' B, or a place in the
  /// forward sweep).
  llvm::Value *emitCall(llvm::IRBuilderBase &At, llvm::StringRef Name,
                        llvm::ArrayRef<llvm::Value *> Args);
  /// Argument \p I of the primal call as its value: read from memory, at
  /// \p At, for the Fortran spelling's integers and scalars.
  llvm::Value *valueAt(llvm::IRBuilderBase &At, unsigned I);
  bool isBuffer(unsigned I) const {
    return Routine.Args[I].Kind == ArgKind::Buffer;
  }
  bool byPointer() const {
    return Spelling.Convention == BufferSpelling::Fortran;
  }

  llvm::CallBase &Call;
  const BufferRoutine &Routine;
  BufferSpelling Spelling;
  /// Lengths and increments, as values.
  llvm::IntegerType *IntTy;
};

} // namespace gpuad

#endif // GPUAD_SWEEP_BUFFERCALLS_H
