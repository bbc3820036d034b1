//===- Driver.cpp - What gpuad-cc adds to a clang command -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Reading the user's command line, finding gpuad's files, and the flags
/// gpuad-cc adds for CUDA and HIP; see gpuad-cc.cpp for the rules.
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <sys/wait.h>
#include <unistd.h>

namespace gpuadcc {

int fail(const std::string &Message) {
  std::cerr << "gpuad-cc: " << Message << "\n";
  return 1;
}

bool startsWith(const std::string &S, const char *Prefix) {
  return S.compare(0, std::strlen(Prefix), Prefix) == 0;
}

bool hasArg(const ArgList &Args, const char *Prefix) {
  for (const std::string &A : Args)
    if (startsWith(A, Prefix))
      return true;
  return false;
}

/// The value of the last `<Prefix><value>` argument, or \p Default.
std::string argValue(const ArgList &Args, const char *Prefix,
                     const std::string &Default) {
  std::string Value = Default;
  for (const std::string &A : Args)
    if (startsWith(A, Prefix))
      Value = A.substr(std::strlen(Prefix));
  return Value;
}

/// Whether the user defines \p Macro, as `-DMacro...` or `-D Macro...`.
bool definesMacro(const ArgList &Args, const std::string &Macro) {
  for (size_t I = 0; I < Args.size(); ++I) {
    if (startsWith(Args[I], ("-D" + Macro).c_str()))
      return true;
    if (Args[I] == "-D" && I + 1 < Args.size() &&
        startsWith(Args[I + 1], Macro.c_str()))
      return true;
  }
  return false;
}

/// Options whose value is the next argument (which is then not an input).
bool takesSeparateValue(const std::string &A) {
  // clang-format off
  static const char *const Options[] = {
      "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
      "-idirafter", "-isysroot", "-MF", "-MT", "-MQ", "-Xclang", "-Xlinker",
      "-Xpreprocessor", "-Xassembler", "-Xcuda-ptxas", "-Xcuda-fatbinary",
      "-Xarch_host", "-Xarch_device", "-mllvm", "-target", "-L", "-T", "-u",
      "-z", "--param"};
  // clang-format on
  for (const char *O : Options)
    if (A == O)
      return true;
  return false;
}

/// Options after which clang stops before linking.
bool stopsBeforeLink(const std::string &A) {
  // clang-format off
  static const char *const Options[] = {
      "-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "--precompile",
      "--cuda-device-only", "--offload-device-only"};
  // clang-format on
  for (const char *O : Options)
    if (A == O)
      return true;
  return false;
}

void noteLanguage(CommandInfo &Info, const std::string &Lang) {
  Info.CUDA |= Lang == "cuda";
  Info.HIP |= Lang == "hip";
  Info.CXX |= Lang == "cuda" || Lang == "hip" || startsWith(Lang, "c++") ||
              startsWith(Lang, "objective-c++");
}

/// The `-x` language clang infers for an input file from its suffix.
std::string languageOfFile(const std::string &File) {
  std::string Ext = fs::path(File).extension().string();
  if (Ext == ".cu")
    return "cuda";
  if (Ext == ".hip")
    return "hip";
  for (const char *CXX : {".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP"})
    if (Ext == CXX)
      return "c++";
  if (Ext == ".mm")
    return "objective-c++";
  return "other";
}

/// Finds the inputs and their languages (honouring `-x`, which applies to the
/// inputs after it) and whether the command links.
CommandInfo analyze(const ArgList &Args) {
  CommandInfo Info;
  std::string XLang = "none";
  bool OnlyInputs = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    bool IsInput = OnlyInputs || A == "-" || !startsWith(A, "-");
    if (IsInput) {
      noteLanguage(Info, XLang != "none" ? XLang : languageOfFile(A));
      continue;
    }
    if (A == "--")
      OnlyInputs = true;
    else if (A == "-x" && I + 1 < Args.size())
      XLang = Args[++I];
    else if (startsWith(A, "-x"))
      XLang = A.substr(2);
    else if (takesSeparateValue(A))
      ++I;
    else if (stopsBeforeLink(A))
      Info.Links = false;
  }
  return Info;
}

fs::path executableDir() {
  std::error_code EC;
  fs::path Exe = fs::read_symlink("/proc/self/exe", EC);
  return EC ? fs::path() : Exe.parent_path();
}

/// The canonical path of \p Relative under the driver's parent directory
/// (the install prefix), or "" when there is no such file.
std::string besideDriver(const char *Relative) {
  fs::path Dir = executableDir();
  std::error_code EC;
  if (Dir.empty() || !fs::exists(Dir / ".." / Relative, EC))
    return "";
  return fs::weakly_canonical(Dir / ".." / Relative, EC).string();
}

std::string pluginPath() {
  std::string Installed = besideDriver("lib/gpuad/GPUAD.so");
  return Installed.empty() ? GPUAD_CC_PLUGIN : Installed;
}

std::string frontendPluginPath() {
  std::string Installed = besideDriver("lib/gpuad/GPUADFrontend.so");
  return Installed.empty() ? GPUAD_CC_FRONTEND_PLUGIN : Installed;
}

ArgList pluginFlags(const std::string &Plugin) {
  return {"-fpass-plugin=" + Plugin, "-fplugin=" + frontendPluginPath()};
}

std::string includeDir() {
  if (besideDriver("include/gpuad/gpuad.h").empty())
    return GPUAD_CC_INCLUDE_DIR;
  return besideDriver("include");
}

/// The clang to run, with `--driver-mode=g++` when GPUAD_CLANG names a C
/// driver that has no clang++ next to it.
ArgList chooseClang(bool CXX) {
  const char *Env = std::getenv("GPUAD_CLANG");
  if (!Env || !*Env)
    return {CXX ? GPUAD_CC_CLANGXX : GPUAD_CC_CLANG};
  if (!CXX)
    return {Env};
  fs::path Sibling = fs::path(Env).parent_path() / "clang++";
  if (fs::path(Env).has_parent_path() && access(Sibling.c_str(), X_OK) == 0)
    return {Sibling.string()};
  return {Env, "--driver-mode=g++"};
}

void addCudaFlags(const ArgList &User, bool Links, ArgList &Front,
                  ArgList &Back) {
  std::string Cuda = argValue(User, "--cuda-path=", GPUAD_CC_CUDA_PATH);
  if (!hasArg(User, "--cuda-path="))
    Front.push_back("--cuda-path=" + Cuda);
  Front.push_back("-Wno-unknown-cuda-version");
  // CUDA 13 moved Thrust, CUB and libcu++ to include/cccl, which nvcc adds
  // and clang 22 does not know about.
  std::error_code EC;
  if (fs::exists(Cuda + "/include/cccl/cuda/std", EC) &&
      !hasArg(User, ("-I" + Cuda + "/include/cccl").c_str()))
    Front.insert(Front.end(), {"-isystem", Cuda + "/include/cccl"});
  if (!hasArg(User, "--cuda-gpu-arch=") && !hasArg(User, "--offload-arch="))
    Front.push_back("--cuda-gpu-arch=sm_75");
  if (Links && !hasArg(User, "-lcudart"))
    Back.insert(Back.end(), {"-L" + Cuda + "/lib64", "-lcudart", "-ldl", "-lrt",
                             "-lpthread"});
}

void addHipFlags(const ArgList &User, ArgList &Front) {
  if (!hasArg(User, "--rocm-path="))
    Front.push_back(std::string("--rocm-path=") + GPUAD_CC_ROCM_PATH);
  if (!hasArg(User, "--rocm-device-lib-path="))
    Front.push_back(std::string("--rocm-device-lib-path=") +
                    GPUAD_CC_ROCM_DEVICE_LIBS);
  if (!hasArg(User, "-mcode-object-version="))
    Front.push_back("-mcode-object-version=5");
  if (!definesMacro(User, "__AMDGCN_WAVEFRONT_SIZE"))
    Front.push_back("-D__AMDGCN_WAVEFRONT_SIZE=64");
  if (!hasArg(User, "--offload-arch=") && !hasArg(User, "--cuda-gpu-arch="))
    Front.push_back("--offload-arch=gfx90a");
}

/// The full clang command: clang, gpuad's leading flags, the user's
/// arguments, then gpuad's trailing flags (before any `--`, after which clang
/// reads only inputs).
ArgList buildCommand(const ArgList &User, const std::string &Plugin) {
  CommandInfo Info = analyze(User);
  ArgList Command = chooseClang(Info.CXX);
  ArgList Front = pluginFlags(Plugin);
  ArgList Back = {"-I" + includeDir()};
  if (Info.CUDA)
    addCudaFlags(User, Info.Links, Front, Back);
  if (Info.HIP)
    addHipFlags(User, Front);

  Command.insert(Command.end(), Front.begin(), Front.end());
  auto DashDash = User.begin();
  while (DashDash != User.end() && *DashDash != "--")
    ++DashDash;
  Command.insert(Command.end(), User.begin(), DashDash);
  Command.insert(Command.end(), Back.begin(), Back.end());
  Command.insert(Command.end(), DashDash, User.end());
  return Command;
}

std::string shellQuote(const std::string &A) {
  if (!A.empty() &&
      A.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-+=/.,:@%") == std::string::npos)
    return A;
  std::string Quoted = "'";
  for (char C : A)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

namespace {

/// Prints \p Command when GPUAD_CC_VERBOSE=1.
void echoIfVerbose(const ArgList &Command) {
  const char *Verbose = std::getenv("GPUAD_CC_VERBOSE");
  if (!Verbose || std::string(Verbose) != "1")
    return;
  for (size_t I = 0; I < Command.size(); ++I)
    std::cerr << (I ? " " : "") << shellQuote(Command[I]);
  std::cerr << std::endl;
}

/// execvp's argument vector for \p Command (which must outlive it).
std::vector<char *> argvOf(const ArgList &Command) {
  std::vector<char *> Argv;
  for (const std::string &A : Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  return Argv;
}

} // namespace

int execute(const ArgList &Command) {
  echoIfVerbose(Command);
  std::vector<char *> Argv = argvOf(Command);
  execvp(Argv[0], Argv.data());
  return fail("cannot run " + Command[0] + ": " + std::strerror(errno));
}

bool hasFlag(const ArgList &Args, const char *Flag) {
  for (const std::string &A : Args)
    if (A == Flag)
      return true;
  return false;
}

int run(const ArgList &Command) {
  echoIfVerbose(Command);
  std::vector<char *> Argv = argvOf(Command);
  pid_t Child = fork();
  if (Child < 0)
    return fail(std::string("cannot fork: ") + std::strerror(errno));
  if (Child == 0) {
    execvp(Argv[0], Argv.data());
    std::cerr << "gpuad-cc: cannot run " << Command[0] << ": "
              << std::strerror(errno) << "\n";
    _exit(127);
  }
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0)
    if (errno != EINTR)
      return fail(std::string("waitpid: ") + std::strerror(errno));
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  return 128 + (WIFSIGNALED(Status) ? WTERMSIG(Status) : 0);
}

} // namespace gpuadcc
