//===- Driver.h - gpuad-cc's shared helpers ---------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The pieces both gpuad-cc modes use: reading the user's arguments, finding
/// the plugin, headers and tools, the toolchain flags for CUDA and HIP, and
/// running commands.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TOOLS_GPUAD_CC_DRIVER_H
#define GPUAD_TOOLS_GPUAD_CC_DRIVER_H

#include <filesystem>
#include <string>
#include <vector>

namespace gpuadcc {

namespace fs = std::filesystem;
using ArgList = std::vector<std::string>;

/// What the command line asks clang to do, as far as gpuad-cc cares.
struct CommandInfo {
  bool CXX = false;  ///< Some input is C++, CUDA or HIP.
  bool CUDA = false; ///< Some input is CUDA.
  bool HIP = false;  ///< Some input is HIP.
  bool Links = true; ///< No option stops clang before the link step.
};

int fail(const std::string &Message);
bool startsWith(const std::string &S, const char *Prefix);
bool hasArg(const ArgList &Args, const char *Prefix);
bool hasFlag(const ArgList &Args, const char *Flag);
/// The value of the last `<Prefix><value>` argument, or \p Default.
std::string argValue(const ArgList &Args, const char *Prefix,
                     const std::string &Default);
/// Options whose value is the next argument (which is then not an input).
bool takesSeparateValue(const std::string &A);
/// Options after which clang stops before linking.
bool stopsBeforeLink(const std::string &A);
/// The `-x` language clang infers for an input file from its suffix.
std::string languageOfFile(const std::string &File);
CommandInfo analyze(const ArgList &Args);

/// The canonical path of \p Relative under the driver's install prefix, or
/// "" when there is no such file.
std::string besideDriver(const char *Relative);
std::string pluginPath();
/// The Clang frontend plugin (Enzyme's attributes), GPUADFrontend.so.
std::string frontendPluginPath();
/// `-fpass-plugin=<Plugin>` and `-fplugin=<frontend plugin>`.
ArgList pluginFlags(const std::string &Plugin);
std::string includeDir();
ArgList chooseClang(bool CXX);
void addCudaFlags(const ArgList &User, bool Links, ArgList &Front,
                  ArgList &Back);
void addHipFlags(const ArgList &User, ArgList &Front);
ArgList buildCommand(const ArgList &User, const std::string &Plugin);

std::string shellQuote(const std::string &A);
/// Replaces this process with \p Command; returns only on failure.
int execute(const ArgList &Command);
/// Runs \p Command to completion; returns its exit status.
int run(const ArgList &Command);

/// `gpuad-cc --emulate ...`: builds a CPU executable from a CUDA or HIP
/// program (Emulate.cpp).
int emulate(const ArgList &User);

} // namespace gpuadcc

#endif // GPUAD_TOOLS_GPUAD_CC_DRIVER_H
