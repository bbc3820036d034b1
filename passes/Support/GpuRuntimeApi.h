//===- GpuRuntimeApi.h - gpuad's own calls of the CUDA/HIP runtime -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The host code gpuad emits around kernel launches calls the same runtime
/// the program does, by its prefix ("cuda" or "hip"): device allocations,
/// copies and fills on the launch's stream, synchronisation, launches, and
/// the question "which allocation holds this device pointer" (the driver's
/// cuMemGetAddressRange, reached through cudaGetDriverEntryPoint so that
/// nothing beyond libcudart is linked; HIP's hipMemGetAddressRange).
/// Every call's status is checked: a failure stops the program with a
/// message naming what gpuad was doing, never a silently wrong derivative.
/// The checks and the address-range query are small functions emitted once
/// per module (linkonce_odr).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_GPURUNTIMEAPI_H
#define GPUAD_SUPPORT_GPURUNTIMEAPI_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <utility>

namespace llvm {
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

class GpuRuntimeApi {
public:
  /// \p Api is the runtime's prefix: "cuda" or "hip".
  GpuRuntimeApi(llvm::Module &M, llvm::StringRef Api) : M(M), Api(Api.str()) {}

  /// A device block of \p Bytes (i64).
  llvm::Value *allocate(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                        const llvm::Twine &Purpose);
  void release(llvm::IRBuilderBase &B, llvm::Value *P);
  /// Copies (unified addressing tells the direction) and zeroes, ordered on
  /// \p Stream.
  void copy(llvm::IRBuilderBase &B, llvm::Value *Dst, llvm::Value *Src,
            llvm::Value *Bytes, llvm::Value *Stream);
  void zero(llvm::IRBuilderBase &B, llvm::Value *P, llvm::Value *Bytes,
            llvm::Value *Stream);
  void synchronize(llvm::IRBuilderBase &B, llvm::Value *Stream);
  /// Finishes everything queued on the device, then copies (host code that
  /// reads or writes device memory outside any stream's order).
  void copyWhenIdle(llvm::IRBuilderBase &B, llvm::Value *Dst, llvm::Value *Src,
                    llvm::Value *Bytes);
  /// The allocation holding device pointer \p P: {its base, its bytes}.
  std::pair<llvm::Value *, llvm::Value *> allocationOf(llvm::IRBuilderBase &B,
                                                       llvm::Value *P);
  /// Stops the program when \p Status (a runtime call's result) is not
  /// success, printing "gpuad: <What>: <the runtime's error string>".
  void check(llvm::IRBuilderBase &B, llvm::Value *Status,
             const llvm::Twine &What);

  llvm::StringRef api() const { return Api; }

private:
  llvm::Value *call(llvm::IRBuilderBase &B, llvm::StringRef Name,
                    llvm::ArrayRef<llvm::Value *> Args);

  llvm::Module &M;
  std::string Api;
};

} // namespace gpuad

#endif // GPUAD_SUPPORT_GPURUNTIMEAPI_H
