//===- Emulate.cpp - gpuad-cc --emulate: CUDA and HIP programs on the CPU -===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// `gpuad-cc --emulate app.cu -o app` builds a CPU executable from an
/// unmodified CUDA or HIP program.  Each CUDA/HIP input takes four steps:
///
///   1. the device half, compiled by clang for nvptx64 (amdgcn for HIP) to
///      bitcode with the gpuad plugin in the pipeline and
///      `-gpuad-emulation` (which keeps libdevice/ocml calls as calls);
///   2. `opt -passes=gpuad-emulate` retargets that same module to the host
///      (gpu-runtime/emu/retarget);
///   3. it is compiled to a host object at the user's -O level;
///   4. the host half, compiled with `--cuda-host-only` (`--offload-host-only`)
///      against a placeholder GPU binary so clang still emits the kernel
///      registration, is combined with it by a relocatable link.
///
/// Other sources are compiled as gpuad-cc always does; objects and libraries
/// pass through.  The link adds libgpuad_emu.a (the runtime API, scheduler
/// and device library) instead of libcudart or libamdhip64, and, when gpuad
/// was built with GPUAD_SANITIZE, the sanitizer runtime that library needs.
/// Only the first GPU architecture given is used: the emulator runs one device
/// image. GPUAD_CC_KEEP_TEMPS=1 keeps (and names) the intermediate files.
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <unistd.h>

namespace gpuadcc {
namespace {

struct Input {
  std::string Path;
  std::string Language; ///< As for `-x`: cuda, hip, c, c++, other.
};

/// The user's command line, sorted into what each step needs.
struct EmulationCommand {
  std::vector<Input> Inputs;
  ArgList CompileFlags; ///< For every compile, device and host.
  ArgList LinkFlags;    ///< -l, -L, -Wl and the like.
  std::string GpuArch;  ///< The first --cuda-gpu-arch/--offload-arch given.
  std::string Output;
  std::string OptLevel = "-O0";
  bool CompileOnly = false;
};

bool isLinkFlag(const std::string &A) {
  return startsWith(A, "-l") || startsWith(A, "-L") || startsWith(A, "-Wl,") ||
         startsWith(A, "-fuse-ld=") || A == "-pthread" || A == "-static" ||
         A == "-rdynamic";
}

/// Libraries the emulator replaces.
bool isGpuRuntimeLibrary(const std::string &A) {
  return A == "-lcudart" || A == "-lcudart_static" || A == "-lcuda" ||
         A == "-lamdhip64" || A == "-lcublasLt" || A == "-lcublasLt_static";
}

/// cuBLAS: the emulator's own (its runtime library) over OpenBLAS.
bool isCublasLibrary(const std::string &A) {
  return A == "-lcublas" || A == "-lcublas_static";
}

bool isGpuArchFlag(const std::string &A) {
  return startsWith(A, "--cuda-gpu-arch=") || startsWith(A, "--offload-arch=");
}

/// Sorts \p User into an EmulationCommand; returns an error message or "".
std::string parse(const ArgList &User, EmulationCommand &Cmd) {
  std::string XLang = "none";
  bool OnlyInputs = false;
  for (size_t I = 0; I < User.size(); ++I) {
    const std::string &A = User[I];
    if (OnlyInputs || A == "-" || !startsWith(A, "-")) {
      Cmd.Inputs.push_back({A, XLang != "none" ? XLang : languageOfFile(A)});
      continue;
    }
    std::string Next = I + 1 < User.size() ? User[I + 1] : "";
    if (A == "--emulate") {
      continue;
    } else if (A == "--") {
      OnlyInputs = true;
    } else if (A == "-o") {
      Cmd.Output = Next;
      ++I;
    } else if (startsWith(A, "-o")) {
      Cmd.Output = A.substr(2);
    } else if (A == "-c") {
      Cmd.CompileOnly = true;
    } else if (A == "-S" || A == "-E" || A == "-emit-llvm" ||
               A == "--cuda-device-only" || A == "--cuda-host-only" ||
               A == "--offload-device-only" || A == "--offload-host-only") {
      return A + " is not supported with --emulate (it builds objects and "
                 "executables)";
    } else if (A == "-x") {
      XLang = Next;
      ++I;
    } else if (startsWith(A, "-x")) {
      XLang = A.substr(2);
    } else if (isGpuArchFlag(A)) {
      if (Cmd.GpuArch.empty())
        Cmd.GpuArch = A;
    } else if (isGpuRuntimeLibrary(A)) {
      continue;
    } else if (isCublasLibrary(A)) {
      Cmd.LinkFlags.push_back("-lopenblas");
    } else if (A == "-L" || A == "-Xlinker" || A == "-u") {
      Cmd.LinkFlags.insert(Cmd.LinkFlags.end(), {A, Next});
      ++I;
    } else if (isLinkFlag(A)) {
      Cmd.LinkFlags.push_back(A);
    } else {
      if (startsWith(A, "-O"))
        Cmd.OptLevel = A;
      Cmd.CompileFlags.push_back(A);
      if (takesSeparateValue(A) && I + 1 < User.size())
        Cmd.CompileFlags.push_back(User[++I]);
    }
  }
  if (Cmd.Inputs.empty())
    return "no input files";
  if (Cmd.CompileOnly && !Cmd.Output.empty() && Cmd.Inputs.size() > 1)
    return "cannot specify -o with -c and several inputs";
  return "";
}

/// A scratch directory, removed when the build ends unless
/// GPUAD_CC_KEEP_TEMPS=1.
class TempDir {
public:
  TempDir() {
    const char *Base = std::getenv("TMPDIR");
    std::string Pattern =
        std::string(Base && *Base ? Base : "/tmp") + "/gpuad-emulate-XXXXXX";
    std::vector<char> Buffer(Pattern.begin(), Pattern.end());
    Buffer.push_back('\0');
    if (mkdtemp(Buffer.data()))
      Path = Buffer.data();
    const char *Keep = std::getenv("GPUAD_CC_KEEP_TEMPS");
    KeepFiles = Keep && std::string(Keep) == "1";
  }
  ~TempDir() {
    std::error_code EC;
    if (Path.empty())
      return;
    if (KeepFiles)
      std::cerr << "gpuad-cc: intermediate files kept in " << Path << "\n";
    else
      fs::remove_all(Path, EC);
  }
  std::string file(const std::string &Name) const { return Path + "/" + Name; }
  bool valid() const { return !Path.empty(); }

private:
  std::string Path;
  bool KeepFiles = false;
};

std::string optPath() {
  const char *Env = std::getenv("GPUAD_OPT");
  return Env && *Env ? Env : GPUAD_CC_OPT;
}

std::string emulatorLibrary() {
  std::string Installed = besideDriver("lib/gpuad/libgpuad_emu.a");
  return Installed.empty() ? GPUAD_CC_EMU_LIB : Installed;
}

/// What linking the emulator runtime needs besides the library: its
/// sanitizer runtime when gpuad was built with GPUAD_SANITIZE.
ArgList emulatorLinkFlags() {
  ArgList Flags;
  std::string Word;
  for (const char *C = GPUAD_CC_EMU_LINK_FLAGS;; ++C) {
    if (*C && *C != ' ') {
      Word += *C;
      continue;
    }
    if (!Word.empty())
      Flags.push_back(Word);
    Word.clear();
    if (!*C)
      return Flags;
  }
}

/// The flags gpuad-cc adds to a CUDA or HIP compile, with the chosen GPU
/// architecture (the emulator runs one device image).
ArgList gpuFlags(const EmulationCommand &Cmd, bool HIP) {
  ArgList User = Cmd.CompileFlags;
  if (!Cmd.GpuArch.empty())
    User.push_back(Cmd.GpuArch);
  ArgList Front, Back;
  if (HIP)
    addHipFlags(User, Front);
  else
    addCudaFlags(User, /*Links=*/false, Front, Back);
  if (!Cmd.GpuArch.empty())
    Front.push_back(Cmd.GpuArch);
  Front.insert(Front.end(), Back.begin(), Back.end());
  return Front;
}

/// `<thread>` / `<address>` when the user builds with that sanitizer, so
/// the retargeted device code is instrumented like host code.
std::string sanitizerParameters(const EmulationCommand &Cmd) {
  std::string Params;
  for (const std::string &A : Cmd.CompileFlags) {
    if (!startsWith(A, "-fsanitize="))
      continue;
    if (A.find("thread") != std::string::npos)
      Params += Params.empty() ? "thread" : ";thread";
    if (A.find("address") != std::string::npos)
      Params += Params.empty() ? "address" : ";address";
  }
  return Params.empty() ? "" : "<" + Params + ">";
}

/// Builds one CUDA/HIP input into the host object \p Object (steps 1-4).
int buildGpuSource(const EmulationCommand &Cmd, const Input &In,
                   const std::string &Plugin, const TempDir &Tmp,
                   const std::string &Stem, const std::string &Object) {
  bool HIP = In.Language == "hip";
  ArgList Common = chooseClang(true);
  ArgList Plugins = pluginFlags(Plugin);
  Common.insert(Common.end(), Plugins.begin(), Plugins.end());
  ArgList Gpu = gpuFlags(Cmd, HIP);
  Common.insert(Common.end(), Gpu.begin(), Gpu.end());
  Common.insert(Common.end(), Cmd.CompileFlags.begin(), Cmd.CompileFlags.end());
  Common.insert(Common.end(), {"-I" + includeDir(), "-DGPUAD_EMULATION=1", "-x",
                               In.Language});

  std::string DeviceBC = Tmp.file(Stem + ".device.bc");
  ArgList Device = Common;
  Device.insert(Device.end(),
                {HIP ? "--offload-device-only" : "--cuda-device-only", "-mllvm",
                 "-gpuad-emulation", "-emit-llvm", "-c", In.Path, "-o",
                 DeviceBC});
  if (int RC = run(Device))
    return RC;

  std::string HostBC = Tmp.file(Stem + ".device.host.bc");
  if (int RC = run({optPath(), "-load-pass-plugin=" + Plugin,
                    "-passes=gpuad-emulate" + sanitizerParameters(Cmd),
                    DeviceBC, "-o", HostBC}))
    return RC;
  std::string DeviceObject = Tmp.file(Stem + ".device.o");
  ArgList Lower = chooseClang(true);
  // The emulator tells where an AMDGPU lane is in the program (its wave
  // operations have no masks) by the return addresses on its stack: keep
  // frame pointers, and one call instruction per call in the IR (no tail
  // merging or duplication of the blocks around a wave operation).
  Lower.insert(Lower.end(),
               {Cmd.OptLevel, "-fno-omit-frame-pointer",
                "-mno-omit-leaf-frame-pointer", "-mllvm",
                "-enable-tail-merge=false", "-mllvm", "-disable-tail-duplicate",
                "-mllvm", "-tail-dup-placement=false", "-c", HostBC, "-o",
                DeviceObject});
  for (const std::string &A : Cmd.CompileFlags)
    if (A == "-g" || startsWith(A, "-fsanitize=") || A == "-fPIC")
      Lower.push_back(A);
  if (int RC = run(Lower))
    return RC;

  // With a GPU binary to embed, clang emits the registration constructor
  // and the launch stubs; the emulator needs those, not the binary.
  std::string Placeholder = Tmp.file("placeholder.gpubin");
  if (!fs::exists(Placeholder))
    if (FILE *F = std::fopen(Placeholder.c_str(), "w"))
      std::fclose(F);
  std::string HostObject = Tmp.file(Stem + ".host.o");
  ArgList Host = Common;
  Host.insert(Host.end(), {HIP ? "--offload-host-only" : "--cuda-host-only",
                           "-Xclang", "-fcuda-include-gpubinary", "-Xclang",
                           Placeholder, "-c", In.Path, "-o", HostObject});
  if (int RC = run(Host))
    return RC;

  ArgList Combine = chooseClang(true);
  Combine.insert(Combine.end(),
                 {"-r", "-nostdlib", HostObject, DeviceObject, "-o", Object});
  return run(Combine);
}

/// Compiles a host source the way plain gpuad-cc would.
int buildHostSource(const EmulationCommand &Cmd, const Input &In,
                    const std::string &Plugin, const std::string &Object) {
  ArgList User = Cmd.CompileFlags;
  if (In.Language != "other")
    User.insert(User.end(), {"-x", In.Language});
  User.insert(User.end(), {"-c", In.Path, "-o", Object});
  return run(buildCommand(User, Plugin));
}

bool isSource(const Input &In) { return In.Language != "other"; }
bool isGpuSource(const Input &In) {
  return In.Language == "cuda" || In.Language == "hip";
}

} // namespace

int emulate(const ArgList &User) {
  EmulationCommand Cmd;
  if (std::string Error = parse(User, Cmd); !Error.empty())
    return fail("--emulate: " + Error);
  std::string Plugin = pluginPath();
  std::error_code EC;
  if (!fs::exists(Plugin, EC))
    return fail("cannot find the gpuad plugin at " + Plugin);
  TempDir Tmp;
  if (!Tmp.valid())
    return fail("--emulate: cannot create a temporary directory");

  ArgList LinkInputs;
  for (size_t I = 0; I < Cmd.Inputs.size(); ++I) {
    const Input &In = Cmd.Inputs[I];
    if (!isSource(In)) {
      LinkInputs.push_back(In.Path);
      continue;
    }
    std::string Stem =
        std::to_string(I) + "-" + fs::path(In.Path).stem().string();
    std::string Object;
    if (!Cmd.CompileOnly)
      Object = Tmp.file(Stem + ".o");
    else if (!Cmd.Output.empty())
      Object = Cmd.Output;
    else
      Object = fs::path(In.Path).stem().string() + ".o";
    int RC = isGpuSource(In)
                 ? buildGpuSource(Cmd, In, Plugin, Tmp, Stem, Object)
                 : buildHostSource(Cmd, In, Plugin, Object);
    if (RC)
      return RC;
    LinkInputs.push_back(Object);
  }
  if (Cmd.CompileOnly)
    return 0;

  std::string Library = emulatorLibrary();
  if (!fs::exists(Library, EC))
    return fail("cannot find the emulator runtime at " + Library);
  ArgList Link = chooseClang(true);
  Link.insert(Link.end(), LinkInputs.begin(), LinkInputs.end());
  Link.insert(Link.end(), Cmd.LinkFlags.begin(), Cmd.LinkFlags.end());
  for (const std::string &A : Cmd.CompileFlags)
    if (startsWith(A, "-fsanitize=") || A == "-g")
      Link.push_back(A);
  ArgList RuntimeFlags = emulatorLinkFlags();
  Link.insert(Link.end(), RuntimeFlags.begin(), RuntimeFlags.end());
  Link.insert(Link.end(), {Library, "-lpthread", "-lm", "-ldl", "-o",
                           Cmd.Output.empty() ? "a.out" : Cmd.Output});
  return run(Link);
}

} // namespace gpuadcc
