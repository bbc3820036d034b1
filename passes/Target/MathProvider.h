//===- MathProvider.h - Elementary functions a target supplies --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The elementary functions derivative rules may need, which each target
/// supplies in its own library: LLVM intrinsics on the host, libdevice on
/// NVPTX, ocml on AMDGPU.  Rules name a MathFn, never a target's library.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_MATHPROVIDER_H
#define GPUAD_TARGET_MATHPROVIDER_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class IRBuilderBase;
class Value;
} // namespace llvm

namespace gpuad {

/// Elementary functions a partial derivative may need.  The target supplies
/// them (LLVM intrinsics on the host, libdevice on NVPTX, ocml on AMDGPU), so
/// rules never name a target's library.
enum class MathFn { Sin, Cos, Exp, Log, Pow, Powi, Sinh, Cosh, Atan2 };

/// Supplies MathFn calls of a given floating-point (or vector) type.
class MathProvider {
public:
  virtual ~MathProvider();
  virtual llvm::Value *emit(llvm::IRBuilderBase &B, MathFn Fn,
                            llvm::ArrayRef<llvm::Value *> Args) = 0;
};

} // namespace gpuad

#endif // GPUAD_TARGET_MATHPROVIDER_H
