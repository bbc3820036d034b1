//===- Runtime.h - The emulator's internals ---------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The CPU execution of GPU kernels.  A launch runs its blocks one after the
/// other; the threads of a block run as fibers on one OS thread (switching
/// where they wait for each other: barriers, warp shuffles and votes), in
/// thread order or in an order shuffled per launch, or as OS threads running
/// truly at the same time (to expose missing atomics).  Device memory is
/// host memory the emulator tracks, so every device access can be checked.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMU_RUNTIME_H
#define GPUAD_EMU_RUNTIME_H

#include "../EmuAbi.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuad::emu {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

/// Registered kernels and variables (Registry.cpp).
struct KernelInfo {
  std::string Name;
  void (*Launch)(void **Args) = nullptr;
  const gpuad_emu_module_t *Module = nullptr;
};
const KernelInfo *kernelByName(const std::string &Name);
/// Host-side symbols: a kernel's host stub, a variable's host shadow.
void registerHostFunction(const void *Stub, const char *DeviceName);
void registerHostVariable(const void *Shadow, const char *DeviceName);
const KernelInfo *kernelForStub(const void *Stub);
/// The compute capability the device code targets (sm_NN: NN; 75 when no
/// module says).
unsigned computeCapability();
/// The device address and size of the variable whose host shadow is
/// \p Shadow (or whose device address it is).
bool deviceVariable(const void *Shadow, void *&Address, uint64_t &Size);

/// Runs a kernel (Launch.cpp).  Returns false after reporting an error.
bool launch(const KernelInfo &K, Dim3 Grid, Dim3 Block, void **Args,
            size_t DynamicShared);

/// Device memory (Memory.cpp).
void *deviceAlloc(size_t Bytes, bool Managed);
bool deviceFree(void *P);
/// The bytes device malloc may hold at once (cudaLimitMallocHeapSize).
void setDeviceHeapLimit(size_t Bytes);
size_t deviceHeapLimit();
/// Whether [P, P+Bytes) lies in one device allocation, variable or a
/// registered region.
bool isDeviceMemory(const void *P, uint64_t Bytes);
void registerRegion(const void *P, uint64_t Bytes);
/// The device allocation (or variable, or region) holding \p P: its start
/// and size; false if there is none.
bool deviceRegionOf(const void *P, void *&Base, uint64_t &Bytes);
/// The driver's cuMemGetAddressRange (CUresult: 0, or 1 for a pointer
/// outside device memory), which cudaGetDriverEntryPoint hands out.
int memGetAddressRange(unsigned long long *Base, size_t *Bytes,
                       unsigned long long P);

/// Whether [P, P+Bytes) is the current GPU thread's stack or its block's
/// shared memory (Launch.cpp).
bool onThreadStack(const void *P, uint64_t Bytes);
bool inBlockShared(const void *P, uint64_t Bytes);
/// Whether [P, P+Bytes) is the running launch's AMDGPU hidden kernel
/// arguments or dispatch packet.
bool inLaunchArguments(const void *P, uint64_t Bytes);

/// Reports a fatal error in device code (the kernel's name, the thread) and
/// exits.
[[noreturn]] void fatal(const std::string &Msg);
/// The kernel running now, for messages (empty outside kernels).
const std::string &currentKernel();

} // namespace gpuad::emu

#endif // GPUAD_EMU_RUNTIME_H
