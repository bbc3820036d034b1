//===- Registry.cpp - Kernels, variables and their host-side names --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The retargeted device module registers its kernels (a launcher each) and
/// variables by mangled name; the host half registers, through the CUDA or
/// HIP registration calls clang emits, which host stub launches which
/// kernel and which host shadow stands for which variable.  Launches and
/// symbol copies meet in the names.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <map>
#include <mutex>

namespace gpuad::emu {
namespace {

struct Tables {
  std::mutex M;
  std::map<std::string, KernelInfo> Kernels;
  std::map<std::string, std::pair<void *, uint64_t>> Variables;
  std::map<const void *, std::string> Stubs, Shadows;
  unsigned Arch = 0;
};
Tables &tables() {
  static Tables T;
  return T;
}

} // namespace

const KernelInfo *kernelByName(const std::string &Name) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  auto It = T.Kernels.find(Name);
  return It == T.Kernels.end() ? nullptr : &It->second;
}

void registerHostFunction(const void *Stub, const char *DeviceName) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  T.Stubs[Stub] = DeviceName;
}

void registerHostVariable(const void *Shadow, const char *DeviceName) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  T.Shadows[Shadow] = DeviceName;
}

const KernelInfo *kernelForStub(const void *Stub) {
  std::string Name;
  {
    Tables &T = tables();
    std::lock_guard<std::mutex> G(T.M);
    auto It = T.Stubs.find(Stub);
    if (It == T.Stubs.end())
      return nullptr;
    Name = It->second;
  }
  return kernelByName(Name);
}

bool deviceVariable(const void *Shadow, void *&Address, uint64_t &Size) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  auto It = T.Shadows.find(Shadow);
  std::string Name = It == T.Shadows.end() ? std::string() : It->second;
  for (auto &[N, V] : T.Variables)
    if (N == Name || V.first == Shadow) {
      Address = V.first;
      Size = V.second;
      return true;
    }
  return false;
}

unsigned computeCapability() {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  return T.Arch ? T.Arch : 75;
}

} // namespace gpuad::emu

using namespace gpuad::emu;

extern "C" void __gpuad_emu_register_module(const gpuad_emu_module_t *M) {
  Tables &T = tables();
  std::lock_guard<std::mutex> G(T.M);
  if (!T.Arch)
    T.Arch = M->arch;
  for (uint32_t I = 0; I < M->num_kernels; ++I)
    T.Kernels[M->kernels[I].name] = {M->kernels[I].name, M->kernels[I].launch,
                                     M};
  for (uint32_t I = 0; I < M->num_variables; ++I) {
    const gpuad_emu_variable_t &V = M->variables[I];
    // Private data (".str", unnamed) has no host name to look it up by.
    if (V.name[0] && V.name[0] != '.')
      T.Variables[V.name] = {V.address, V.size};
    registerRegion(V.address, V.size);
  }
}
