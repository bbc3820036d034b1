//===- gpuad-cc.cpp - The gpuad compiler driver ---------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// gpuad-cc is clang with gpuad switched on: it passes every argument through
/// unchanged and adds only what a user would otherwise have to remember.
///
///   - `-fpass-plugin=<GPUAD.so>`, `-fplugin=<GPUADFrontend.so>` (Enzyme's
///     attributes, such as `enzyme_inactive`) and `-I<gpuad include dir>`, so
///     `#include <gpuad/gpuad.h>` and `__enzyme_*` calls work out of the box.
///     All are found next to the driver (`../lib/gpuad`, `../include`)
///     first, so an installed tree works, then at their build-time locations.
///   - clang++ instead of clang when an input is C++, CUDA or HIP.
///   - For CUDA: the toolkit path, an architecture CUDA 13's ptxas still
///     accepts (sm_75; clang's default sm_52 was dropped), silence about a
///     CUDA newer than clang knows, CUDA 13's include/cccl (Thrust, CUB,
///     libcu++), and libcudart when the command links.
///   - For HIP: the ROCm root and device libraries (Debian's ROCm 5.2), code
///     object v5 and the wavefront-size macro those headers need but clang 22
///     no longer defines, and gfx90a when no architecture is given.
/// Anything the user states explicitly wins: an added flag is skipped when
/// the user already gave that option.  The user's `-I`s come before gpuad's.
///
/// GPUAD_CLANG overrides the clang binary; GPUAD_CC_VERBOSE=1 prints the
/// final command line.  The driver then execs clang, so clang's exit status
/// (and diagnostics) are the driver's.
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <iostream>

using namespace gpuadcc;

int main(int Argc, char **Argv) {
  ArgList User(Argv + 1, Argv + Argc);
  if (hasFlag(User, "--emulate"))
    return emulate(User);
  if (hasFlag(User, "--version")) {
    std::cout << "gpuad-cc " GPUAD_CC_VERSION << std::endl;
    return execute({chooseClang(false)[0], "--version"});
  }

  std::string Plugin = pluginPath();
  std::error_code EC;
  if (!fs::exists(Plugin, EC))
    return fail("cannot find the gpuad plugin (looked next to the driver "
                "and at " +
                Plugin + ")");
  if (hasFlag(User, "-print-plugin-path") ||
      hasFlag(User, "--print-plugin-path")) {
    std::cout << Plugin << "\n";
    return 0;
  }
  if (hasFlag(User, "-print-frontend-plugin-path") ||
      hasFlag(User, "--print-frontend-plugin-path")) {
    std::cout << frontendPluginPath() << "\n";
    return 0;
  }
  return execute(buildCommand(User, Plugin));
}
