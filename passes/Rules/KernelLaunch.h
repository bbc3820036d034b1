//===- KernelLaunch.h - A kernel launch from host code, as data -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A kernel launch in host code is `cudaLaunchKernel(handle, grid, block,
/// args, shared bytes, stream)` (HIP: hipLaunchKernel): the kernel's
/// arguments sit in memory, behind an array of pointers.  The normalised
/// clone (Normalize/KernelLaunches.h) carries each launch as
///
///   i32 @gpuad.launch(ptr @cudaLaunchKernel, ptr handle, <grid and block
///                     as the runtime takes them>, i64 shared, ptr stream,
///                     arg0, arg1, ...)
///
/// with the arguments as values, so that activity, shadows and the tape
/// treat them as any call's operands.  The kernel is known by its host
/// handle: CUDA's host stub, or HIP's handle variable whose value is the
/// stub; the stub's parameters are the kernel's (and its mangled name says
/// what its pointers point to).
///
/// Derivative kernels (the device side, Requests/LaunchDerivatives) are
/// named after the kernel's device name (`__gpuad_fwd_<name>`,
/// `__gpuad_rev_<name>`) and take the kernel's parameters followed, per
/// parameter in order, by its derivative: a pointer's shadow; a float's
/// tangent (forward) or the device address its adjoint is added to
/// (reverse); nothing for an integer.  The host registers a handle for each
/// beside the kernel's own registration.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_KERNELLAUNCH_H
#define GPUAD_RULES_KERNELLAUNCH_H

#include "Rules/CallRule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class CallInst;
class Constant;
class Function;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class CallTable;

/// The derivative of a kernel a launch runs.
enum class LaunchDerivative { Tangent, Adjoint };

/// How a kernel parameter travels to its derivative kernels.
enum class LaunchParam { Const, Pointer, Float, Unsupported };

/// The kind of a kernel parameter of type \p Ty (passed `byval`: an
/// aggregate, unsupported).
LaunchParam launchParamKind(llvm::Type *Ty, bool ByValue);
/// `__gpuad_fwd_<Kernel>` or `__gpuad_rev_<Kernel>`.
std::string launchDerivativeName(llvm::StringRef Kernel, LaunchDerivative D);
/// The derivative kernel's parameter types for a kernel taking \p Params;
/// an adjoint's address has type \p CellTy.  Empty if a parameter is
/// unsupported.
llvm::SmallVector<llvm::Type *, 8>
launchDerivativeParams(llvm::ArrayRef<llvm::Type *> Params, LaunchDerivative D,
                       llvm::Type *CellTy);

/// A normalised launch (`gpuad.launch`).
class KernelLaunch {
public:
  static constexpr const char *FormName = NormalizedLaunchName;

  static std::optional<KernelLaunch> match(llvm::CallBase &Call);

  llvm::CallBase &call() const { return *Call; }
  /// "cuda" or "hip".
  llvm::StringRef api() const;
  llvm::Value *handle() const;
  /// The host stub whose parameters are the kernel's.
  llvm::Function &stub() const;
  llvm::Value *sharedBytes() const;
  llvm::Value *stream() const;
  unsigned numArgs() const;
  llvm::Value *arg(unsigned I) const;
  LaunchParam paramKind(unsigned I) const;
  /// Whether the kernel's parameter \p I points to const data (as its
  /// host stub's name declares it): the kernel does not write through it.
  bool readsOnly(unsigned I) const;
  /// The kernel's name in the device code, as the module registers it; ""
  /// where this module does not register kernels (a host-only compile).
  std::string deviceName() const;
  /// The kernel's name for messages: its demangled device name (or stub).
  std::string kernelName() const;

  /// The same configuration (its operands mapped by \p Map), another
  /// kernel: `gpuad.launch` of \p Handle with \p Args and \p SharedBytes
  /// of dynamic shared memory, at \p B.
  llvm::CallInst *
  relaunch(llvm::IRBuilderBase &B, llvm::Value *Handle,
           llvm::ArrayRef<llvm::Value *> Args, llvm::Value *SharedBytes,
           llvm::function_ref<llvm::Value *(llvm::Value *)> Map) const;

private:
  explicit KernelLaunch(llvm::CallBase &Call) : Call(&Call) {}
  /// The runtime's launch function the form stands for.
  llvm::Function &runtime() const;
  /// Operand index of the first kernel argument.
  unsigned firstArg() const;

  llvm::CallBase *Call;
};

/// The handle of derivative \p D of \p L's kernel, made on first use and
/// registered where the module registers the kernel (not in a host-only
/// compile: a launch of it then fails at run time, as the primal's would).
llvm::Constant *launchDerivativeHandle(const KernelLaunch &L,
                                       LaunchDerivative D);

/// The host stub \p Handle (a launch's first argument) stands for, or null.
llvm::Function *launchedStub(const llvm::Value *Handle);
/// Whether \p F or a function it calls launches a kernel (a runtime launch
/// or its normalised form).
bool mayLaunchKernels(const llvm::Function &F, const CallTable &Calls);
/// The demangled name of the kernel \p Stub launches.
std::string launchedKernelName(const llvm::Function &Stub);

} // namespace gpuad

#endif // GPUAD_RULES_KERNELLAUNCH_H
