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
/// treat them as any call's operands.  An argument passed by value as an
/// aggregate (a struct, an array, CUDA's float4) is its scalar leaves, one
/// operand each; the call's `gpuad.launch.args` metadata says which
/// operands make up which argument, at which byte offsets.  The kernel is known
/// by its host handle: CUDA's host stub, or HIP's handle variable whose value
/// is the stub; the stub's parameters are the kernel's (and its mangled name
/// says what its pointers point to).
///
/// Derivative kernels (the device side, Requests/LaunchDerivatives) are
/// named after the kernel's device name (`__gpuad_fwd_<name>`,
/// `__gpuad_rev_<name>`) and take the kernel's parameters followed, per
/// parameter in order, by its derivative: a pointer's shadow; a float's
/// tangent (forward) or the device address its adjoint is added to
/// (reverse); nothing for an integer; for an aggregate, its shadow (the
/// aggregate with pointers' shadows, floats' tangents or zeros, integers as
/// they are) and, in reverse, the device address of a block of its size
/// whose float leaves the adjoints are added to.  The host registers a handle
/// for each beside the kernel's own registration.
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
class DataLayout;
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

/// The kind of a scalar kernel parameter (or an aggregate's leaf) of type
/// \p Ty.
LaunchParam launchParamKind(llvm::Type *Ty);
/// `__gpuad_fwd_<Kernel>` or `__gpuad_rev_<Kernel>`.
std::string launchDerivativeName(llvm::StringRef Kernel, LaunchDerivative D);

/// An aggregate passed by value, as \p DL lays out its IR type: its bytes
/// and its scalar leaves at their offsets.
struct AggregateShape {
  uint64_t Size = 0, Align = 1;
  llvm::SmallVector<std::pair<uint64_t, llvm::Type *>, 8> Leaves;

  bool hasFloats() const;
};
/// The shape of \p Ty, or why gpuad cannot tell what its bytes hold (a
/// union, a type without a leaf kind, too many leaves).
std::optional<AggregateShape>
aggregateShape(llvm::Type *Ty, const llvm::DataLayout &DL, std::string &Why);

/// One kernel argument of a launch form: its operands (a scalar's one, or
/// an aggregate's leaves) and, for an aggregate, its layout.
struct LaunchArgument {
  unsigned First = 0, Count = 1;
  bool Aggregate = false;
  uint64_t Size = 0, Align = 1;
  llvm::SmallVector<uint64_t, 8> Offsets; ///< per leaf
};

/// Operands and their grouping into kernel arguments, built in order.
class LaunchOperands {
public:
  void scalar(llvm::Value *V);
  /// An aggregate laid out as \p Like, with \p Leaves.
  void aggregate(const LaunchArgument &Like,
                 llvm::ArrayRef<llvm::Value *> Leaves);
  /// An argument shaped as \p Like, its operands \p Operand of each of
  /// \p Like's operand numbers.
  void add(const LaunchArgument &Like,
           llvm::function_ref<llvm::Value *(unsigned)> Operand);
  llvm::ArrayRef<llvm::Value *> values() const { return Values; }
  llvm::ArrayRef<LaunchArgument> arguments() const { return Args; }

private:
  llvm::SmallVector<llvm::Value *, 16> Values;
  llvm::SmallVector<LaunchArgument, 8> Args;
};

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
  /// The kernel arguments' operands (an aggregate's leaves, each).
  unsigned numArgs() const;
  llvm::Value *arg(unsigned I) const;
  void setArg(unsigned I, llvm::Value *V);
  LaunchParam paramKind(unsigned I) const;
  /// The kernel arguments, in terms of operands.
  llvm::SmallVector<LaunchArgument, 8> arguments() const;
  /// Whether operand \p I is a pointer parameter to const data (as the
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
           const LaunchOperands &Args, llvm::Value *SharedBytes,
           llvm::function_ref<llvm::Value *(llvm::Value *)> Map) const;

  /// Records on \p Form how its operands make up kernel arguments.
  static void setArguments(llvm::CallInst &Form,
                           llvm::ArrayRef<LaunchArgument> Args);

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

/// Registers \p Handle as the host handle of device kernel \p Name, with
/// a registration call like \p Like (a `__cudaRegisterFunction` or
/// `__hipRegisterFunction` call of the module's), beside it.
void registerKernelHandle(llvm::CallBase &Like, llvm::Value *Handle,
                          llvm::StringRef Name);

/// The host stub \p Handle (a launch's first argument) stands for, or null.
llvm::Function *launchedStub(const llvm::Value *Handle);
/// Whether \p F or a function it calls launches a kernel (a runtime launch
/// or its normalised form).
bool mayLaunchKernels(const llvm::Function &F, const CallTable &Calls);
/// Whether \p F is a kernel's host stub: it launches itself.
bool isLaunchStub(const llvm::Function &F, const CallTable &Calls);
/// The demangled name of the kernel \p Stub launches.
std::string launchedKernelName(const llvm::Function &Stub);

} // namespace gpuad

#endif // GPUAD_RULES_KERNELLAUNCH_H
