//===- ApiCore.cpp - What the CUDA and HIP runtime APIs share -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "ApiCore.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace gpuad::emu {

namespace {

thread_local Status LastError = Status::Success;

struct Configuration {
  Dim3 Grid, Block;
  size_t Shared;
  void *Stream;
};
thread_local std::vector<Configuration> Configurations;

struct Event {
  std::chrono::steady_clock::time_point When;
};

/// The events not destroyed yet.  Never destroyed itself: an event the
/// program does not destroy lives (and is reachable, for LeakSanitizer)
/// until exit, as on a GPU, where the driver releases it.
struct LiveEvents {
  std::mutex M;
  std::unordered_set<Event *> Set;
};
LiveEvents &liveEvents() {
  static LiveEvents &L = *new LiveEvents;
  return L;
}

} // namespace

const char *statusName(Status S) {
  switch (S) {
  case Status::Success:
    return "Success";
  case Status::InvalidValue:
    return "ErrorInvalidValue";
  case Status::MemoryAllocation:
    return "ErrorMemoryAllocation";
  case Status::InvalidConfiguration:
    return "ErrorInvalidConfiguration";
  case Status::InvalidSymbol:
    return "ErrorInvalidSymbol";
  case Status::InvalidDevicePointer:
    return "ErrorInvalidDevicePointer";
  case Status::InvalidDevice:
    return "ErrorInvalidDevice";
  case Status::InvalidDeviceFunction:
    return "ErrorInvalidDeviceFunction";
  }
  return "ErrorUnknown";
}

const char *statusMessage(Status S) {
  switch (S) {
  case Status::Success:
    return "no error";
  case Status::InvalidValue:
    return "invalid argument";
  case Status::MemoryAllocation:
    return "out of memory";
  case Status::InvalidConfiguration:
    return "invalid configuration argument";
  case Status::InvalidSymbol:
    return "invalid device symbol";
  case Status::InvalidDevicePointer:
    return "invalid device pointer";
  case Status::InvalidDevice:
    return "invalid device ordinal";
  case Status::InvalidDeviceFunction:
    return "invalid device function";
  }
  return "unknown error";
}

Status record(Status S) {
  if (S != Status::Success)
    LastError = S;
  return S;
}

Status takeLastError() {
  Status S = LastError;
  LastError = Status::Success;
  return S;
}

Status peekLastError() { return LastError; }

void pushConfiguration(Dim3 Grid, Dim3 Block, size_t Shared, void *Stream) {
  Configurations.push_back({Grid, Block, Shared, Stream});
}

Status popConfiguration(Dim3 &Grid, Dim3 &Block, size_t &Shared,
                        void *&Stream) {
  if (Configurations.empty())
    return record(Status::InvalidConfiguration);
  Configuration C = Configurations.back();
  Configurations.pop_back();
  Grid = C.Grid;
  Block = C.Block;
  Shared = C.Shared;
  Stream = C.Stream;
  return Status::Success;
}

Status launchStub(const void *Stub, Dim3 Grid, Dim3 Block, void **Args,
                  size_t Shared) {
  const KernelInfo *K = kernelForStub(Stub);
  if (!K) {
    fprintf(stderr, "gpuad-emu: launch of a kernel the device code does not "
                    "define (was the device half compiled with --emulate?)\n");
    return record(Status::InvalidDeviceFunction);
  }
  if (!launch(*K, Grid, Block, Args, Shared))
    return record(Status::InvalidConfiguration);
  return Status::Success;
}

Status allocate(void **P, size_t Bytes, bool Managed) {
  if (!P)
    return record(Status::InvalidValue);
  *P = deviceAlloc(Bytes, Managed);
  return *P ? Status::Success : record(Status::MemoryAllocation);
}

Status release(void *P) {
  return deviceFree(P) ? Status::Success : record(Status::InvalidDevicePointer);
}

Status copy(void *Dst, const void *Src, size_t Count) {
  if (Count)
    memmove(Dst, Src, Count);
  return Status::Success;
}

Status fill(void *P, int Value, size_t Count) {
  if (Count)
    memset(P, Value, Count);
  return Status::Success;
}

Status allocatePitched(void **P, size_t *Pitch, size_t Width, size_t Height) {
  if (!Pitch)
    return record(Status::InvalidValue);
  *Pitch = (Width + 255) / 256 * 256;
  return allocate(P, *Pitch * Height, false);
}

Status copy2D(void *Dst, size_t DstPitch, const void *Src, size_t SrcPitch,
              size_t Width, size_t Height) {
  if (Width > DstPitch || Width > SrcPitch)
    return record(Status::InvalidValue);
  for (size_t Row = 0; Row < Height; ++Row)
    memmove(static_cast<char *>(Dst) + Row * DstPitch,
            static_cast<const char *>(Src) + Row * SrcPitch, Width);
  return Status::Success;
}

Status fill2D(void *P, size_t Pitch, int Value, size_t Width, size_t Height) {
  if (Width > Pitch)
    return record(Status::InvalidValue);
  for (size_t Row = 0; Row < Height; ++Row)
    memset(static_cast<char *>(P) + Row * Pitch, Value, Width);
  return Status::Success;
}

Status registerHostMemory(void *P, size_t Bytes) {
  if (!P || !Bytes)
    return record(Status::InvalidValue);
  registerRegion(P, Bytes);
  return Status::Success;
}

Status memoryInfo(size_t *Free, size_t *Total) {
  if (!Free || !Total)
    return record(Status::InvalidValue);
  *Free = DeviceShape::GlobalMemory / 2;
  *Total = DeviceShape::GlobalMemory;
  return Status::Success;
}

int blocksPerMultiprocessor(int BlockSize) {
  if (BlockSize <= 0 || BlockSize > DeviceShape::MaxThreadsPerBlock)
    return 0;
  return DeviceShape::MaxThreadsPerMultiprocessor / BlockSize;
}

Status symbolAddress(void **P, const void *Symbol) {
  uint64_t Size;
  return deviceVariable(Symbol, *P, Size) ? Status::Success
                                          : record(Status::InvalidSymbol);
}

/// The device bytes [Offset, Offset+Count) of \p Symbol, or null.
static char *symbolBytes(const void *Symbol, size_t Count, size_t Offset,
                         Status &S) {
  void *Address;
  uint64_t Size;
  S = Status::Success;
  if (!deviceVariable(Symbol, Address, Size))
    S = record(Status::InvalidSymbol);
  else if (Offset + Count > Size)
    S = record(Status::InvalidValue);
  return S == Status::Success ? static_cast<char *>(Address) + Offset : nullptr;
}

Status copyToSymbol(const void *Symbol, const void *Src, size_t Count,
                    size_t Offset) {
  Status S;
  if (char *Dst = symbolBytes(Symbol, Count, Offset, S))
    memcpy(Dst, Src, Count);
  return S;
}

Status copyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                      size_t Offset) {
  Status S;
  if (char *Src = symbolBytes(Symbol, Count, Offset, S))
    memcpy(Dst, Src, Count);
  return S;
}

void *createEvent() {
  auto *E = new Event();
  LiveEvents &L = liveEvents();
  std::lock_guard<std::mutex> G(L.M);
  L.Set.insert(E);
  return E;
}
void recordEvent(void *E) {
  static_cast<Event *>(E)->When = std::chrono::steady_clock::now();
}
float elapsedMilliseconds(void *Start, void *End) {
  auto D = static_cast<Event *>(End)->When - static_cast<Event *>(Start)->When;
  return std::chrono::duration<float, std::milli>(D).count();
}
void destroyEvent(void *E) {
  LiveEvents &L = liveEvents();
  {
    std::lock_guard<std::mutex> G(L.M);
    L.Set.erase(static_cast<Event *>(E));
  }
  delete static_cast<Event *>(E);
}

void *theStream() {
  static char Stream;
  return &Stream;
}

} // namespace gpuad::emu
