//===- DeviceLibrary.h - Functions pulled from vendor bitcode ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// clang links libdevice (CUDA) or ocml (HIP) into a device module before the
/// optimisation pipeline and drops every function the source did not use.
/// A derivative rule may need one of those (`__nv_cos` for `__nv_sin`), so
/// emitters ask for a declaration here, and finalize() links the bodies of
/// all requested functions from the vendor's bitcode in one step, marked
/// internal and given the module's target attributes -- no unresolved call
/// ever reaches the backend.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_DEVICELIBRARY_H
#define GPUAD_TARGET_DEVICELIBRARY_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace gpuad {

class Diagnostics;

class DeviceLibrary {
public:
  /// \p Files are bitcode files searched in order for each function.
  DeviceLibrary(llvm::Module &M, llvm::SmallVector<std::string, 4> Files,
                std::string HowToSet)
      : M(M), Files(std::move(Files)), HowToSet(std::move(HowToSet)) {}

  /// The function \p Name of type \p Ty: the module's own if it has one,
  /// otherwise a declaration whose body finalize() will link.
  llvm::Function *get(llvm::StringRef Name, llvm::FunctionType *Ty);

  /// Links the bodies of all declarations handed out; reports a missing
  /// library or function as an error.
  bool finalize(Diagnostics &Diags);

  /// Links from bitcode \p File every definition the module only declares,
  /// internalised.  Returns false (after reporting) if the file is unreadable.
  bool linkNeeded(llvm::StringRef File, Diagnostics &Diags);

  /// Global variables still undefined, e.g. ROCm's `__oclc_*` constants.
  llvm::SmallVector<std::string, 4> undefinedGlobals() const;

private:
  llvm::Module &M;
  llvm::SmallVector<std::string, 4> Files;
  std::string HowToSet;
  /// Names of the declarations get() added: by name, because linking a
  /// body replaces (and deletes) the declaration.
  llvm::SmallVector<std::string, 8> Pending;
};

/// The first of \p Candidates that exists, or empty.
std::string firstExisting(llvm::ArrayRef<std::string> Candidates);

} // namespace gpuad

#endif // GPUAD_TARGET_DEVICELIBRARY_H
