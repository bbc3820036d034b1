//===- HipApi.cpp - The HIP runtime API, on the CPU -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The hip* subset real programs use, over ApiCore (as CudaApi.cpp is for
/// CUDA): clang's HIP lowering registers kernels and variables with
/// __hipRegisterFunction/Var and launches through
/// __hipPush/PopCallConfiguration and hipLaunchKernel.  Built against the
/// ROCm headers so the signatures are the program's; nothing of libamdhip64
/// is linked.  The emulated device is a 64-lane gfx90a.
//===----------------------------------------------------------------------===//

#include "ApiCore.h"

#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>

using namespace gpuad::emu;

namespace {

hipError_t code(Status S) {
  switch (S) {
  case Status::Success: return hipSuccess;
  case Status::InvalidValue: return hipErrorInvalidValue;
  case Status::MemoryAllocation: return hipErrorOutOfMemory;
  case Status::InvalidConfiguration: return hipErrorInvalidConfiguration;
  case Status::InvalidSymbol: return hipErrorInvalidSymbol;
  case Status::InvalidDevicePointer: return hipErrorInvalidDevicePointer;
  case Status::InvalidDevice: return hipErrorInvalidDevice;
  case Status::InvalidDeviceFunction: return hipErrorInvalidDeviceFunction;
  }
  return hipErrorUnknown;
}

Status statusOf(hipError_t E) {
  for (Status S : {Status::Success, Status::InvalidValue,
                   Status::MemoryAllocation, Status::InvalidConfiguration,
                   Status::InvalidSymbol, Status::InvalidDevicePointer,
                   Status::InvalidDevice, Status::InvalidDeviceFunction})
    if (code(S) == E)
      return S;
  return Status(-1);
}

Dim3 dim(dim3 D) { return {D.x, D.y, D.z}; }

} // namespace

extern "C" {

// ---- Registration (clang's module constructor) -----------------------------

void **__hipRegisterFatBinary(const void *) {
  static void *Handle = nullptr;
  return &Handle;
}
void __hipUnregisterFatBinary(void **) {}

void __hipRegisterFunction(void **, const void *HostFunction, char *,
                           const char *DeviceName, unsigned, void *, void *,
                           dim3 *, dim3 *, int *) {
  registerHostFunction(HostFunction, DeviceName);
}

void __hipRegisterVar(void **, void *HostVar, char *, char *DeviceName, int,
                      size_t, int, int) {
  registerHostVariable(HostVar, DeviceName);
}

void __hipRegisterManagedVar(void *, void **Pointer, void *, const char *Name,
                             size_t, unsigned) {
  registerHostVariable(Pointer, Name);
}

// ---- Launches --------------------------------------------------------------

hipError_t __hipPushCallConfiguration(dim3 Grid, dim3 Block, size_t Shared,
                                      hipStream_t Stream) {
  pushConfiguration(dim(Grid), dim(Block), Shared, Stream);
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                     hipStream_t *Stream) {
  Dim3 G, B;
  void *S = nullptr;
  Status St = popConfiguration(G, B, *Shared, S);
  *Grid = dim3(G.x, G.y, G.z);
  *Block = dim3(B.x, B.y, B.z);
  *Stream = static_cast<hipStream_t>(S);
  return code(St);
}

hipError_t hipLaunchKernel(const void *Func, dim3 Grid, dim3 Block, void **Args,
                           size_t Shared, hipStream_t) {
  return code(launchStub(Func, dim(Grid), dim(Block), Args, Shared));
}

// ---- Memory ----------------------------------------------------------------

hipError_t hipMalloc(void **P, size_t Bytes) {
  return code(allocate(P, Bytes, false));
}
hipError_t hipMallocManaged(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
hipError_t hipHostMalloc(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
hipError_t hipFree(void *P) { return code(release(P)); }
hipError_t hipHostFree(void *P) { return code(release(P)); }

hipError_t hipMemcpy(void *Dst, const void *Src, size_t Count, hipMemcpyKind) {
  return code(copy(Dst, Src, Count));
}
hipError_t hipMemcpyAsync(void *Dst, const void *Src, size_t Count,
                          hipMemcpyKind, hipStream_t) {
  return code(copy(Dst, Src, Count));
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t Dst, void *Src, size_t Count) {
  return code(copy(Dst, Src, Count));
}
hipError_t hipMemcpyDtoH(void *Dst, hipDeviceptr_t Src, size_t Count) {
  return code(copy(Dst, Src, Count));
}
hipError_t hipMemset(void *P, int Value, size_t Count) {
  return code(fill(P, Value, Count));
}
hipError_t hipMemsetAsync(void *P, int Value, size_t Count, hipStream_t) {
  return code(fill(P, Value, Count));
}

hipError_t hipMallocPitch(void **P, size_t *Pitch, size_t Width, size_t Height) {
  return code(allocatePitched(P, Pitch, Width, Height));
}
hipError_t hipMemcpy2D(void *Dst, size_t DstPitch, const void *Src,
                       size_t SrcPitch, size_t Width, size_t Height,
                       hipMemcpyKind) {
  return code(copy2D(Dst, DstPitch, Src, SrcPitch, Width, Height));
}
hipError_t hipMemcpy2DAsync(void *Dst, size_t DstPitch, const void *Src,
                            size_t SrcPitch, size_t Width, size_t Height,
                            hipMemcpyKind, hipStream_t) {
  return code(copy2D(Dst, DstPitch, Src, SrcPitch, Width, Height));
}
hipError_t hipMemset2D(void *P, size_t Pitch, int Value, size_t Width,
                       size_t Height) {
  return code(fill2D(P, Pitch, Value, Width, Height));
}
hipError_t hipHostRegister(void *P, size_t Bytes, unsigned) {
  return code(registerHostMemory(P, Bytes));
}
hipError_t hipHostUnregister(void *) { return hipSuccess; }
hipError_t hipHostGetDevicePointer(void **Device, void *Host, unsigned) {
  *Device = Host;
  return hipSuccess;
}

hipError_t hipGetSymbolAddress(void **P, const void *Symbol) {
  return code(symbolAddress(P, Symbol));
}
hipError_t hipMemcpyToSymbol(const void *Symbol, const void *Src, size_t Count,
                             size_t Offset, hipMemcpyKind) {
  return code(copyToSymbol(Symbol, Src, Count, Offset));
}
hipError_t hipMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                               size_t Offset, hipMemcpyKind) {
  return code(copyFromSymbol(Dst, Symbol, Count, Offset));
}
hipError_t hipMemcpyToSymbolAsync(const void *Symbol, const void *Src,
                                  size_t Count, size_t Offset, hipMemcpyKind,
                                  hipStream_t) {
  return code(copyToSymbol(Symbol, Src, Count, Offset));
}
hipError_t hipMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                    size_t Count, size_t Offset, hipMemcpyKind,
                                    hipStream_t) {
  return code(copyFromSymbol(Dst, Symbol, Count, Offset));
}

hipError_t hipMemGetInfo(size_t *Free, size_t *Total) {
  *Free = DeviceShape::GlobalMemory / 2;
  *Total = DeviceShape::GlobalMemory;
  return hipSuccess;
}

// ---- Devices, errors, streams, events --------------------------------------

hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
hipError_t hipDeviceReset(void) { return hipSuccess; }
hipError_t hipGetDeviceCount(int *N) {
  *N = 1;
  return hipSuccess;
}
hipError_t hipSetDevice(int D) {
  return D == 0 ? hipSuccess : code(record(Status::InvalidDevice));
}
hipError_t hipGetDevice(int *D) {
  *D = 0;
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *P, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  memset(P, 0, sizeof *P);
  snprintf(P->name, sizeof P->name, "%s", DeviceShape::Name);
  snprintf(P->gcnArchName, sizeof P->gcnArchName, "gfx90a");
  P->gcnArch = 910;
  P->totalGlobalMem = DeviceShape::GlobalMemory;
  P->sharedMemPerBlock = DeviceShape::SharedPerBlock;
  P->regsPerBlock = 65536;
  P->warpSize = 64;
  P->maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = P->maxThreadsDim[2] = 1024;
  P->maxGridSize[0] = P->maxGridSize[1] = P->maxGridSize[2] = 0x7fffffff;
  P->totalConstMem = DeviceShape::ConstantMemory;
  P->major = 9;
  P->minor = 0;
  P->multiProcessorCount = 1;
  P->maxThreadsPerMultiProcessor = 2048;
  return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *Value, hipDeviceAttribute_t Attr, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  switch (Attr) {
  case hipDeviceAttributeMaxThreadsPerBlock:
  case hipDeviceAttributeMaxBlockDimX:
  case hipDeviceAttributeMaxBlockDimY:
  case hipDeviceAttributeMaxBlockDimZ:
    *Value = DeviceShape::MaxThreadsPerBlock;
    break;
  case hipDeviceAttributeMaxGridDimX:
  case hipDeviceAttributeMaxGridDimY:
  case hipDeviceAttributeMaxGridDimZ: *Value = 0x7fffffff; break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    *Value = int(DeviceShape::SharedPerBlock);
    break;
  case hipDeviceAttributeTotalConstantMemory:
    *Value = int(DeviceShape::ConstantMemory);
    break;
  case hipDeviceAttributeWarpSize: *Value = 64; break;
  case hipDeviceAttributeMultiprocessorCount:
    *Value = DeviceShape::Multiprocessors;
    break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor:
    *Value = DeviceShape::MaxThreadsPerMultiprocessor;
    break;
  case hipDeviceAttributeComputeCapabilityMajor: *Value = 9; break;
  case hipDeviceAttributeComputeCapabilityMinor: *Value = 0; break;
  case hipDeviceAttributeManagedMemory: *Value = 1; break;
  default: *Value = 0; break; // features the emulator does not have
  }
  return hipSuccess;
}

hipError_t hipFuncGetAttributes(hipFuncAttributes *A, const void *Func) {
  const KernelInfo *K = kernelForStub(Func);
  if (!K)
    return code(record(Status::InvalidDeviceFunction));
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = K->Module->static_shared_bytes;
  A->maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  A->maxDynamicSharedSizeBytes = int(DeviceShape::SharedPerBlock);
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void *, hipFuncAttribute, int) {
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *Blocks, const void *, int BlockSize, size_t, unsigned) {
  *Blocks = blocksPerMultiprocessor(BlockSize);
  return hipSuccess;
}
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                        const void *Func,
                                                        int BlockSize,
                                                        size_t Shared) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      Blocks, Func, BlockSize, Shared, 0);
}

hipError_t hipDriverGetVersion(int *V) {
  *V = DeviceShape::RuntimeVersion;
  return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int *V) {
  *V = DeviceShape::RuntimeVersion;
  return hipSuccess;
}

hipError_t hipGetLastError(void) { return code(takeLastError()); }
hipError_t hipPeekAtLastError(void) { return code(peekLastError()); }

const char *hipGetErrorName(hipError_t E) {
  static thread_local char Name[64];
  snprintf(Name, sizeof Name, "hip%s", statusName(statusOf(E)));
  return Name;
}
const char *hipGetErrorString(hipError_t E) {
  return statusMessage(statusOf(E));
}

hipError_t hipStreamCreate(hipStream_t *S) {
  *S = static_cast<hipStream_t>(theStream());
  return hipSuccess;
}
hipError_t hipStreamCreateWithFlags(hipStream_t *S, unsigned) {
  return hipStreamCreate(S);
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned) {
  return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t) { return hipSuccess; }

hipError_t hipEventCreate(hipEvent_t *E) {
  *E = static_cast<hipEvent_t>(createEvent());
  return hipSuccess;
}
hipError_t hipEventCreateWithFlags(hipEvent_t *E, unsigned) {
  return hipEventCreate(E);
}
hipError_t hipEventRecord(hipEvent_t E, hipStream_t) {
  recordEvent(E);
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
hipError_t hipEventQuery(hipEvent_t) { return hipSuccess; }
hipError_t hipEventElapsedTime(float *Ms, hipEvent_t Start, hipEvent_t End) {
  *Ms = elapsedMilliseconds(Start, End);
  return hipSuccess;
}
hipError_t hipEventDestroy(hipEvent_t E) {
  destroyEvent(E);
  return hipSuccess;
}

} // extern "C"
