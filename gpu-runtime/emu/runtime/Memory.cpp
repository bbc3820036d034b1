//===- Memory.cpp - Device memory the emulator tracks ---------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Device memory is host memory: cudaMalloc'd blocks, device variables
/// (their regions registered by the retargeted module), device malloc.
/// Every access of retargeted device code is checked against them, the
/// thread's own stack and its block's shared memory, so an out-of-bounds
/// access stops the program naming the kernel instead of corrupting
/// memory.  GPUAD_EMU_CHECK=0 turns the checks off.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace gpuad::emu {
namespace {

struct Regions {
  std::mutex M;
  std::map<uintptr_t, uint64_t> ByStart; // start -> bytes
};
/// Never destroyed: device memory the program did not free stays live (and
/// reachable, for LeakSanitizer) until the process ends, as on a GPU, where
/// the driver releases it; static destructors would drop it first.
Regions &regions() {
  static Regions &R = *new Regions;
  return R;
}

bool checksEnabled() {
  static int On = [] {
    const char *S = getenv("GPUAD_EMU_CHECK");
    return !(S && !strcmp(S, "0"));
  }();
  return On;
}

} // namespace

void registerRegion(const void *P, uint64_t Bytes) {
  Regions &R = regions();
  std::lock_guard<std::mutex> G(R.M);
  R.ByStart[reinterpret_cast<uintptr_t>(P)] = Bytes ? Bytes : 1;
}

void *deviceAlloc(size_t Bytes, bool) {
  // Aligned like cudaMalloc (256 bytes), and poisoned: device memory starts
  // with unspecified contents.
  void *P = nullptr;
  if (posix_memalign(&P, 256, Bytes ? Bytes : 1))
    return nullptr;
  memset(P, 0xcd, Bytes);
  registerRegion(P, Bytes);
  return P;
}

bool deviceFree(void *P) {
  if (!P)
    return true;
  Regions &R = regions();
  {
    std::lock_guard<std::mutex> G(R.M);
    auto It = R.ByStart.find(reinterpret_cast<uintptr_t>(P));
    if (It == R.ByStart.end())
      return false;
    R.ByStart.erase(It);
  }
  free(P);
  return true;
}

/// The region that starts at or before \p A: the one that may hold it.
static bool regionFrom(uintptr_t A, uintptr_t &Start, uint64_t &Bytes) {
  Regions &R = regions();
  std::lock_guard<std::mutex> G(R.M);
  auto It = R.ByStart.upper_bound(A);
  if (It == R.ByStart.begin())
    return false;
  --It;
  Start = It->first;
  Bytes = It->second;
  return true;
}

bool deviceRegionOf(const void *P, void *&Base, uint64_t &Bytes) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P), Start = 0;
  if (!regionFrom(A, Start, Bytes) || A >= Start + Bytes)
    return false;
  Base = reinterpret_cast<void *>(Start);
  return true;
}

int memGetAddressRange(unsigned long long *Base, size_t *Bytes,
                       unsigned long long P) {
  void *B = nullptr;
  uint64_t N = 0;
  if (!deviceRegionOf(reinterpret_cast<void *>(P), B, N))
    return 1; // CUDA_ERROR_INVALID_VALUE
  if (Base)
    *Base = reinterpret_cast<uintptr_t>(B);
  if (Bytes)
    *Bytes = N;
  return 0;
}

bool isDeviceMemory(const void *P, uint64_t Bytes) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P), Start = 0;
  uint64_t Size = 0;
  return regionFrom(A, Start, Size) && A + Bytes <= Start + Size;
}

// Device malloc: its heap holds cudaLimitMallocHeapSize bytes of live
// blocks (8 MiB unless the program raises it, as on the GPU); past that,
// malloc returns null.
namespace {

struct DeviceHeap {
  std::mutex M;
  size_t Limit = size_t(8) << 20, Live = 0;
  std::map<const void *, size_t> Blocks;
};
DeviceHeap &deviceHeap() {
  static DeviceHeap &H = *new DeviceHeap; // never destroyed, as regions()
  return H;
}
} // namespace

void setDeviceHeapLimit(size_t Bytes) {
  std::lock_guard<std::mutex> G(deviceHeap().M);
  deviceHeap().Limit = Bytes;
}
size_t deviceHeapLimit() {
  std::lock_guard<std::mutex> G(deviceHeap().M);
  return deviceHeap().Limit;
}

} // namespace gpuad::emu

using namespace gpuad::emu;

extern "C" {

void __gpuad_emu_check(const void *P, uint64_t Size, int32_t Write) {
  // A memcpy of 0 bytes touches nothing, whatever its pointer.
  if (Size == 0 || !checksEnabled() || onThreadStack(P, Size) ||
      inBlockShared(P, Size) || inLaunchArguments(P, Size) ||
      isDeviceMemory(P, Size))
    return;
  char Buf[160];
  snprintf(Buf, sizeof Buf,
           "out-of-bounds %s of %llu byte(s) at %p (not in any device "
           "allocation, the thread's stack or its block's shared memory)",
           Write ? "write" : "read", (unsigned long long)Size, P);
  fatal(Buf);
}

void *__gpuad_emu_malloc(uint64_t Size) {
  DeviceHeap &H = deviceHeap();
  std::lock_guard<std::mutex> G(H.M);
  if (Size > H.Limit - H.Live)
    return nullptr;
  void *P = deviceAlloc(Size, false);
  if (P) {
    H.Blocks[P] = Size;
    H.Live += Size;
  }
  return P;
}

void __gpuad_emu_free(void *P) {
  if (!P)
    return;
  DeviceHeap &H = deviceHeap();
  {
    std::lock_guard<std::mutex> G(H.M);
    auto It = H.Blocks.find(P);
    if (It == H.Blocks.end())
      fatal("device free of memory device malloc did not return");
    H.Live -= It->second;
    H.Blocks.erase(It);
  }
  deviceFree(P);
}

int32_t __gpuad_emu_isspacep(int32_t Space, const void *P) {
  bool Shared = inBlockShared(P, 1), Local = onThreadStack(P, 1);
  switch (Space) {
  case 0:
    return !Shared && !Local;
  case 1:
    return Shared;
  case 2:
    return Local;
  default:
    return 0; // const and param data are global memory here
  }
}

// 16-byte accesses with a memory order: under one of a few locks, chosen by
// address, so a load never sees half of a store.
static std::mutex &lockFor(const void *P) {
  static std::mutex Locks[16];
  return Locks[(reinterpret_cast<uintptr_t>(P) >> 4) % 16];
}

unsigned __int128 __gpuad_emu_load16(const void *P) {
  std::lock_guard<std::mutex> G(lockFor(P));
  unsigned __int128 V;
  memcpy(&V, P, sizeof V);
  return V;
}

void __gpuad_emu_store16(void *P, unsigned __int128 V) {
  std::lock_guard<std::mutex> G(lockFor(P));
  memcpy(P, &V, sizeof V);
}

} // extern "C"
