//===- LaunchDerivatives.h - Derivative kernels for host launches -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Host code that launches a kernel is differentiated into host code that
/// launches the kernel's derivative kernels (Normalize/KernelLaunches.h), so
/// the device compilation must contain them.  The device side does not see
/// the host code: it makes, for each kernel it may be asked for, a tangent
/// kernel and an adjoint kernel whose bodies are requests --
///
///   __gpuad_fwd_K(args, shadows):  __enzyme_fwddiff(K, dup/dup/const ...)
///   __gpuad_rev_K(args, shadows):  __enzyme_autodiff(K, dup/out/const ...),
///                                  each float's adjoint added to its cell
///
/// -- with every pointer argument dup (the host supplies a zeroed shadow
/// where it has none) and every float argument active.  Which kernels:
/// `-gpuad-launch-derivatives=` (pass parameter `launch-derivatives=`)
/// `auto` (the default: every kernel but those of CUDA's and ROCm's own
/// libraries -- thrust, cub, cuda::, rocprim, hipcub -- and kernels that
/// make requests themselves), `all`, `none`, or a comma-separated list of
/// kernel names (mangled, or demangled without parameters).
///
/// Each derivative is made in a context of its own whose errors are held
/// back: a kernel gpuad cannot differentiate gets no derivative kernel, and
/// a remark (-Rpass-missed=gpuad) names the kernel and the first error.  A
/// host launch of a missing derivative kernel stops the program with a
/// message pointing there.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_LAUNCHDERIVATIVES_H
#define GPUAD_REQUESTS_LAUNCHDERIVATIVES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace gpuad {

class Registrations;
struct GpuadOptions;

/// The kernels of device module \p M that get derivative kernels under
/// \p Options (none in host code).  Chosen before the module's own
/// requests are lowered: a kernel that made requests is then a kernel that
/// calls derivatives.
llvm::SmallVector<llvm::Function *, 8>
launchDerivativeKernels(llvm::Module &M, const GpuadOptions &Options);
bool mayMakeLaunchDerivatives(llvm::Module &M, const GpuadOptions &Options);

/// Makes the derivative kernels of \p Kernels, using the users' registered
/// derivatives \p Regs.  Returns whether generated code waits for the
/// always-inliner.
bool makeLaunchDerivatives(llvm::ArrayRef<llvm::Function *> Kernels,
                           const GpuadOptions &Options,
                           const Registrations &Regs);

} // namespace gpuad

#endif // GPUAD_REQUESTS_LAUNCHDERIVATIVES_H
