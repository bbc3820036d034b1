//===- BufferCalls.h - Emitting a buffer routine's derivative ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What forward and reverse mode share when they run a buffer routine's
/// builders (CallRule.h): calls of other routines of the family in the
/// call's own precision and spelling -- by value for CBLAS, through stack
/// slots for Fortran's by-pointer arguments and cuBLAS's scalars -- and the
/// zeroing of a strided buffer.  Each mode adds how it reads primal values,
/// shadows and adjoints.
///
/// A cuBLAS call's buffers are device memory: its derivative calls cuBLAS
/// on the call's handle (so on its stream), with host scalars while it runs
/// (the handle's pointer mode is restored after), takes scratch from the
/// device, and reads or updates a scalar argument in host or device memory
/// as the pointer mode said at the call (runtime/Cublas.h).  What needs a
/// loop over elements (asum's signs, a triangle's update) runs on host
/// copies of the device memory it reads, copied back after.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_BUFFERCALLS_H
#define GPUAD_SWEEP_BUFFERCALLS_H

#include "Rules/CallTable.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <tuple>

namespace llvm {
class CallBase;
class Function;
class IntegerType;
} // namespace llvm

namespace gpuad {

class TargetHooks;

class BufferCallEmitter : public BufferCallSite {
public:
  llvm::Value *call(llvm::StringRef Name,
                    llvm::ArrayRef<llvm::Value *> Args) override;
  void zero(llvm::Value *N, llvm::Value *Buffer, llvm::Value *Inc) override;
  llvm::Value *eachColumn(llvm::StringRef Name, llvm::Value *Layout,
                          llvm::Value *Rows, llvm::Value *Columns,
                          llvm::ArrayRef<llvm::Value *> Args) override;
  llvm::Value *
  eachElement(llvm::StringRef Name, llvm::Value *N,
              llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Vectors,
              llvm::ArrayRef<llvm::Value *> Scalars, bool Sums,
              ElementBody Body) override;
  llvm::Value *eachTriangleElement(
      llvm::StringRef Name, llvm::Value *N, llvm::Value *Upper,
      llvm::Value *Strict, llvm::ArrayRef<StridedMatrix> Matrices,
      llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Rows,
      llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Columns,
      llvm::ArrayRef<llvm::Value *> Scalars, bool Sums,
      ElementBody Body) override;
  llvm::Value *temporary(llvm::Value *Count) override;
  void swapRows(llvm::Value *Columns, llvm::Value *A, llvm::Value *Ld,
                llvm::Value *Pivots, llvm::Value *Count, bool Inverse) override;
  void require(llvm::Value *Ok, llvm::StringRef Message) override;
  void copyMatrix(llvm::Value *Rows, llvm::Value *Columns, StridedMatrix From,
                  StridedMatrix To) override;
  /// Frees the temporaries, once the derivative has read them, and gives a
  /// cuBLAS handle back its pointer mode.
  void releaseTemporaries();
  /// cuBLAS: the pointer mode of \p Handle, read at \p At (an i32).
  static llvm::Value *pointerModeAt(llvm::IRBuilderBase &At,
                                    llvm::Value *Handle);
  /// cuBLAS: the call's handle where B emits.
  virtual llvm::Value *handle() = 0;
  /// What the runtime's helpers get for the handle: the call's (v2), null
  /// (the legacy API: the default stream); null on the host.
  llvm::Value *deviceHandle();
  /// cuBLAS: the handle's pointer mode when the call ran (an i32), a value
  /// of the forward sweep, before the call.
  virtual llvm::Value *modeAtCall() = 0;
  /// Reports that this spelling's derivative cannot do \p What (an error
  /// at the call).
  virtual void unsupported(const llvm::Twine &What) = 0;
  /// \p Bytes of scratch for the derivative at \p At, and its release: the
  /// heap, or device memory on \p Handle's stream for cuBLAS.
  llvm::Value *allocate(llvm::IRBuilderBase &At, llvm::Value *Bytes,
                        llvm::Value *Handle);
  void release(llvm::IRBuilderBase &At, llvm::Value *Block,
               llvm::Value *Handle);

protected:
  BufferCallEmitter(llvm::IRBuilderBase &B, llvm::CallBase &Call,
                    const CallClass &Class, TargetHooks &Target);

  /// Emits routine \p Name at \p At (the builders' B, or a place in the
  /// forward sweep); a cuBLAS call on \p Handle, by default handle().
  llvm::Value *emitCall(llvm::IRBuilderBase &At, llvm::StringRef Name,
                        llvm::ArrayRef<llvm::Value *> Args,
                        llvm::Value *Handle = nullptr);
  /// cuBLAS: the runtime's helper `gpuad_cublas_<Op>_<f32|f64>` on a
  /// scalar at \p Ptr in the memory \p Mode says, given \p Args after it.
  llvm::Value *scalarHelper(llvm::IRBuilderBase &At, llvm::StringRef Op,
                            llvm::Value *Handle, llvm::Value *Mode,
                            llvm::Value *Ptr,
                            llvm::ArrayRef<llvm::Value *> Args = {});
  /// cuBLAS: switches the handle to host scalars for the derivative's own
  /// calls (once; releaseTemporaries switches back).
  void useHostScalars();
  /// cuBLAS: a loop over elements (asum's signs, a triangle's update) runs
  /// on host copies: stage() copies \p Elements elements of device memory
  /// at \p Device to the host (once per buffer) and returns the copy;
  /// unstage() copies every staged buffer back and frees the copies.
  llvm::Value *stage(llvm::Value *Device, llvm::Value *Elements);
  void unstage();
  /// The elements a vector of \p N at increment \p Inc spans (an i64).
  llvm::Value *vectorSpan(llvm::Value *N, llvm::Value *Inc);
  /// The call's operand for argument \p I; null for a layout the spelling
  /// does not pass.
  llvm::Value *operand(unsigned I) const;
  /// Argument \p I of the primal call as its value: read from memory, at
  /// \p At, for the Fortran spelling's integers and scalars; column major
  /// for Fortran's missing layout.
  llvm::Value *valueAt(llvm::IRBuilderBase &At, unsigned I);
  /// How many elements, from its first, buffer argument \p I spans (a
  /// vector: its length; a matrix: up to its last element), given each
  /// argument's value at \p At.
  llvm::Value *span(llvm::IRBuilderBase &At, unsigned I,
                    llvm::function_ref<llvm::Value *(unsigned)> ValueOf);
  /// The helper eachColumn calls for routine \p R with \p Args.
  llvm::Function *columnsFunction(const BufferRoutine &R,
                                  llvm::ArrayRef<llvm::Value *> Args);
  bool isBuffer(unsigned I) const { return Routine.Args[I].isBuffer(); }
  bool byPointer() const {
    return Spelling.Convention == BufferSpelling::Fortran;
  }
  /// cuBLAS v2: a handle, scalars by pointer.
  bool cublas() const { return Spelling.Convention == BufferSpelling::Cublas; }
  /// Either cuBLAS API: buffers in device memory.
  bool onDevice() const {
    return cublas() || Spelling.Convention == BufferSpelling::CublasLegacy;
  }
  /// Whether argument \p I is a scalar passed by pointer (Fortran's, or
  /// cuBLAS's alpha and beta): its shadow is memory.
  bool scalarByPointer(unsigned I) const {
    return Routine.Args[I].Kind == ArgKind::Scalar && (byPointer() || cublas());
  }
  /// The spelling of the routines the derivative calls: the call's own, but
  /// LAPACKE's derivatives call BLAS and LAPACK the Fortran way.
  BufferSpelling calleeSpelling() const {
    BufferSpelling S = Spelling;
    if (S.Convention == BufferSpelling::Lapacke)
      S.Convention = BufferSpelling::Fortran;
    return S;
  }

  llvm::CallBase &Call;
  TargetHooks &Target;
  /// Lengths and increments, as values.
  llvm::IntegerType *IntTy;
  llvm::SmallVector<llvm::Value *, 2> Temporaries;
  /// cuBLAS: the pointer mode useHostScalars replaced.
  llvm::Value *SavedMode = nullptr;
  /// cuBLAS: the buffers staged to the host for the loop being emitted:
  /// device pointer, host copy, bytes.
  llvm::SmallVector<std::tuple<llvm::Value *, llvm::Value *, llvm::Value *>, 4>
      StagedBlocks;
  bool Staging = false;
};

} // namespace gpuad

#endif // GPUAD_SWEEP_BUFFERCALLS_H
