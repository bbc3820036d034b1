//===- ApiCore.h - What the CUDA and HIP runtime APIs share -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The runtime API behaviour both vendors' APIs have, once: the launch
/// configuration stack `<<<>>>` pushes, launches through a host stub, device
/// memory, symbols, events and sticky errors, and the device both describe.
/// CudaApi.cpp and HipApi.cpp are thin translations of these to each API's
/// names, types and error codes: the entry points spelled alike are the rows
/// of ApiEntries.def, which both expand.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMU_API_CORE_H
#define GPUAD_EMU_API_CORE_H

#include "Runtime.h"

#include <cstddef>
#include <cstdio>
#include <cstring>

namespace gpuad::emu {

/// The errors the emulated API can report; each API maps them to its codes.
enum class Status {
  Success,
  InvalidValue,
  MemoryAllocation,
  InvalidConfiguration,
  InvalidSymbol,
  InvalidDevicePointer,
  InvalidDevice,
  InvalidDeviceFunction,
};

constexpr Status AllStatuses[] = {
    Status::Success,          Status::InvalidValue,
    Status::MemoryAllocation, Status::InvalidConfiguration,
    Status::InvalidSymbol,    Status::InvalidDevicePointer,
    Status::InvalidDevice,    Status::InvalidDeviceFunction};

/// The Status an API's error code \p E stands for (\p Code maps the other
/// way), or an unknown Status.
template <class Error> Status statusOf(Error E, Error (*Code)(Status)) {
  for (Status S : AllStatuses)
    if (Code(S) == E)
      return S;
  return Status(-1);
}

/// Either API's dim3.
template <class D> Dim3 dim(D V) { return {V.x, V.y, V.z}; }

/// The error name without the vendor prefix ("ErrorInvalidValue") and the
/// message cuda/hipGetErrorString gives.
const char *statusName(Status S);
const char *statusMessage(Status S);

/// The last error, sticky until taken (cuda/hipGetLastError).
Status record(Status S);
Status takeLastError();
Status peekLastError();

/// The configuration stack the `<<<>>>` lowering pushes and the host stub
/// pops.
void pushConfiguration(Dim3 Grid, Dim3 Block, size_t Shared, void *Stream);
Status popConfiguration(Dim3 &Grid, Dim3 &Block, size_t &Shared, void *&Stream);
/// Runs the kernel whose host stub is \p Stub.
Status launchStub(const void *Stub, Dim3 Grid, Dim3 Block, void **Args,
                  size_t Shared);

Status allocate(void **P, size_t Bytes, bool Managed);
Status release(void *P);
Status copy(void *Dst, const void *Src, size_t Count);
Status fill(void *P, int Value, size_t Count);
/// Rows of \p Width bytes, each padded to a 256-byte pitch.
Status allocatePitched(void **P, size_t *Pitch, size_t Width, size_t Height);
Status copy2D(void *Dst, size_t DstPitch, const void *Src, size_t SrcPitch,
              size_t Width, size_t Height);
Status fill2D(void *P, size_t Pitch, int Value, size_t Width, size_t Height);
/// Host memory the program pins for the device: device code may use it.
Status registerHostMemory(void *P, size_t Bytes);
/// cuda/hipMemGetInfo.
Status memoryInfo(size_t *Free, size_t *Total);
/// Occupancy: blocks of \p BlockSize threads resident at once on one
/// (emulated) multiprocessor.
int blocksPerMultiprocessor(int BlockSize);
Status symbolAddress(void **P, const void *Symbol);
Status copyToSymbol(const void *Symbol, const void *Src, size_t Count,
                    size_t Offset);
Status copyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                      size_t Offset);

/// Events record the host clock (streams run synchronously).
void *createEvent();
void recordEvent(void *Event);
float elapsedMilliseconds(void *Start, void *End);
void destroyEvent(void *Event);
/// Any non-null handle: every stream is the one synchronous stream.
void *theStream();

/// The device the emulator presents (cuda/hipGetDeviceProperties).
struct DeviceShape {
  static constexpr const char *Name = "gpuad CPU emulator";
  static constexpr size_t GlobalMemory = size_t(16) << 30;
  static constexpr size_t SharedPerBlock = 48 * 1024;
  static constexpr size_t ConstantMemory = 64 * 1024;
  static constexpr int MaxThreadsPerBlock = 1024;
  static constexpr int MaxThreadsPerMultiprocessor = 2048;
  static constexpr int Multiprocessors = 1;
  static constexpr int RuntimeVersion = 13000;
};

/// The fields of cudaDeviceProp and hipDeviceProp_t that agree, for a device
/// of \p WarpSize lanes and compute capability \p Major.\p Minor.
template <class Props>
void describeDevice(Props &P, int WarpSize, int Major, int Minor) {
  memset(&P, 0, sizeof P);
  snprintf(P.name, sizeof P.name, "%s", DeviceShape::Name);
  P.totalGlobalMem = DeviceShape::GlobalMemory;
  P.sharedMemPerBlock = DeviceShape::SharedPerBlock;
  P.regsPerBlock = 65536;
  P.warpSize = WarpSize;
  P.maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  P.maxThreadsDim[0] = P.maxThreadsDim[1] = 1024;
  P.maxThreadsDim[2] = 64;
  P.maxGridSize[0] = 0x7fffffff;
  P.maxGridSize[1] = P.maxGridSize[2] = 65535;
  P.totalConstMem = DeviceShape::ConstantMemory;
  P.major = Major;
  P.minor = Minor;
  P.multiProcessorCount = DeviceShape::Multiprocessors;
  P.maxThreadsPerMultiProcessor = DeviceShape::MaxThreadsPerMultiprocessor;
}

/// cuda/hipFuncGetAttributes' common fields for the kernel whose host stub
/// is \p Func.
template <class Attributes>
Status describeKernel(Attributes *A, const void *Func) {
  const KernelInfo *K = kernelForStub(Func);
  if (!K)
    return record(Status::InvalidDeviceFunction);
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = K->Module->static_shared_bytes;
  A->maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  A->maxDynamicSharedSizeBytes = int(DeviceShape::SharedPerBlock);
  return Status::Success;
}

} // namespace gpuad::emu

#endif // GPUAD_EMU_API_CORE_H
