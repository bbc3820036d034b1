//===- CudaApi.cpp - The CUDA runtime API, on the CPU ---------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The subset of the CUDA runtime real programs use, implemented against
/// the emulator: device memory is tracked host memory, copies are memcpy,
/// streams and events run synchronously (events record the host clock),
/// and a launch -- `<<<>>>` becomes __cudaPushCallConfiguration, the host
/// stub and cudaLaunchKernel -- runs the registered kernel.  Built against
/// the toolkit's own headers so every signature matches what the program
/// was compiled with; nothing of libcudart is linked.  Errors are sticky
/// until cudaGetLastError, as in CUDA.  The behaviour is ApiCore's; this file
/// translates types and error codes.
//===----------------------------------------------------------------------===//

#include "ApiCore.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

using namespace gpuad::emu;

namespace {

cudaError_t code(Status S) {
  switch (S) {
  case Status::Success: return cudaSuccess;
  case Status::InvalidValue: return cudaErrorInvalidValue;
  case Status::MemoryAllocation: return cudaErrorMemoryAllocation;
  case Status::InvalidConfiguration: return cudaErrorInvalidConfiguration;
  case Status::InvalidSymbol: return cudaErrorInvalidSymbol;
  case Status::InvalidDevicePointer: return cudaErrorInvalidDevicePointer;
  case Status::InvalidDevice: return cudaErrorInvalidDevice;
  case Status::InvalidDeviceFunction: return cudaErrorInvalidDeviceFunction;
  }
  return cudaErrorUnknown;
}

/// The Status of a CUDA error code (for the error-string functions).
Status statusOf(cudaError_t E) {
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

void **__cudaRegisterFatBinary(void *) {
  static void *Handle = nullptr;
  return &Handle;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}

void __cudaRegisterFunction(void **, const char *HostFun, char *, const char *DeviceName,
                            int, uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  registerHostFunction(HostFun, DeviceName);
}

void __cudaRegisterVar(void **, char *HostVar, char *, const char *DeviceName, int,
                       size_t, int, int) {
  registerHostVariable(HostVar, DeviceName);
}

void __cudaRegisterManagedVar(void **, void **HostVarPtrAddress, char *,
                              const char *DeviceName, int, size_t, int, int) {
  registerHostVariable(HostVarPtrAddress, DeviceName);
}

// ---- Launches --------------------------------------------------------------

unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block, size_t Shared,
                                     struct CUstream_st *Stream) {
  pushConfiguration(dim(Grid), dim(Block), Shared, Stream);
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                       void *Stream) {
  Dim3 G, B;
  Status S = popConfiguration(G, B, *Shared, *static_cast<void **>(Stream));
  *Grid = dim3(G.x, G.y, G.z);
  *Block = dim3(B.x, B.y, B.z);
  return code(S);
}

cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid, dim3 Block,
                             void **Args, size_t Shared, cudaStream_t) {
  return code(launchStub(Func, dim(Grid), dim(Block), Args, Shared));
}

// ---- Memory ----------------------------------------------------------------

cudaError_t cudaMalloc(void **P, size_t Bytes) {
  return code(allocate(P, Bytes, false));
}
cudaError_t cudaMallocManaged(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
cudaError_t cudaMallocHost(void **P, size_t Bytes) {
  return code(allocate(P, Bytes, true));
}
cudaError_t cudaHostAlloc(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
cudaError_t cudaFree(void *P) { return code(release(P)); }
cudaError_t cudaFreeHost(void *P) { return code(release(P)); }

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       enum cudaMemcpyKind) {
  return code(copy(Dst, Src, Count));
}
cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                            enum cudaMemcpyKind, cudaStream_t) {
  return code(copy(Dst, Src, Count));
}
cudaError_t cudaMemset(void *P, int Value, size_t Count) {
  return code(fill(P, Value, Count));
}
cudaError_t cudaMemsetAsync(void *P, int Value, size_t Count, cudaStream_t) {
  return code(fill(P, Value, Count));
}

cudaError_t cudaMallocPitch(void **P, size_t *Pitch, size_t Width,
                            size_t Height) {
  return code(allocatePitched(P, Pitch, Width, Height));
}
cudaError_t cudaMemcpy2D(void *Dst, size_t DstPitch, const void *Src,
                         size_t SrcPitch, size_t Width, size_t Height,
                         enum cudaMemcpyKind) {
  return code(copy2D(Dst, DstPitch, Src, SrcPitch, Width, Height));
}
cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DstPitch, const void *Src,
                              size_t SrcPitch, size_t Width, size_t Height,
                              enum cudaMemcpyKind, cudaStream_t) {
  return code(copy2D(Dst, DstPitch, Src, SrcPitch, Width, Height));
}
cudaError_t cudaMemset2D(void *P, size_t Pitch, int Value, size_t Width,
                         size_t Height) {
  return code(fill2D(P, Pitch, Value, Width, Height));
}
cudaError_t cudaHostRegister(void *P, size_t Bytes, unsigned) {
  return code(registerHostMemory(P, Bytes));
}
cudaError_t cudaHostUnregister(void *) { return cudaSuccess; }
cudaError_t cudaHostGetDevicePointer(void **Device, void *Host, unsigned) {
  *Device = Host;
  return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **P, const void *Symbol) {
  return code(symbolAddress(P, Symbol));
}
cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Count, size_t Offset,
                               enum cudaMemcpyKind) {
  return code(copyToSymbol(Symbol, Src, Count, Offset));
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                                 size_t Offset, enum cudaMemcpyKind) {
  return code(copyFromSymbol(Dst, Symbol, Count, Offset));
}
cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol, const void *Src,
                                    size_t Count, size_t Offset,
                                    enum cudaMemcpyKind, cudaStream_t) {
  return code(copyToSymbol(Symbol, Src, Count, Offset));
}
cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                      size_t Count, size_t Offset,
                                      enum cudaMemcpyKind, cudaStream_t) {
  return code(copyFromSymbol(Dst, Symbol, Count, Offset));
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Free = DeviceShape::GlobalMemory / 2;
  *Total = DeviceShape::GlobalMemory;
  return cudaSuccess;
}

// ---- Devices, errors, streams, events --------------------------------------

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
cudaError_t cudaGetDeviceCount(int *N) {
  *N = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int D) {
  return D == 0 ? cudaSuccess : code(record(Status::InvalidDevice));
}
cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *P, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  memset(P, 0, sizeof *P);
  snprintf(P->name, sizeof P->name, "%s", DeviceShape::Name);
  P->totalGlobalMem = DeviceShape::GlobalMemory;
  P->sharedMemPerBlock = DeviceShape::SharedPerBlock;
  P->regsPerBlock = 65536;
  P->warpSize = 32;
  P->maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = 1024;
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 0x7fffffff;
  P->maxGridSize[1] = P->maxGridSize[2] = 65535;
  P->totalConstMem = DeviceShape::ConstantMemory;
  P->major = 7;
  P->minor = 5;
  P->multiProcessorCount = 1;
  P->maxThreadsPerMultiProcessor = 1024;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *Value, enum cudaDeviceAttr Attr, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock:
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY: *Value = DeviceShape::MaxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimZ: *Value = 64; break;
  case cudaDevAttrMaxGridDimX: *Value = 0x7fffffff; break;
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ: *Value = 65535; break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *Value = int(DeviceShape::SharedPerBlock);
    break;
  case cudaDevAttrTotalConstantMemory: *Value = int(DeviceShape::ConstantMemory); break;
  case cudaDevAttrWarpSize: *Value = 32; break;
  case cudaDevAttrMaxRegistersPerBlock: *Value = 65536; break;
  case cudaDevAttrMultiProcessorCount: *Value = DeviceShape::Multiprocessors; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *Value = DeviceShape::MaxThreadsPerMultiprocessor;
    break;
  case cudaDevAttrComputeCapabilityMajor: *Value = 7; break;
  case cudaDevAttrComputeCapabilityMinor: *Value = 5; break;
  case cudaDevAttrManagedMemory:
  case cudaDevAttrUnifiedAddressing: *Value = 1; break;
  default: *Value = 0; break; // features the emulator does not have
  }
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *A, const void *Func) {
  const KernelInfo *K = kernelForStub(Func);
  if (!K)
    return code(record(Status::InvalidDeviceFunction));
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = K->Module->static_shared_bytes;
  A->maxThreadsPerBlock = DeviceShape::MaxThreadsPerBlock;
  A->maxDynamicSharedSizeBytes = int(DeviceShape::SharedPerBlock);
  A->ptxVersion = A->binaryVersion = 75;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int) {
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *Blocks, const void *, int BlockSize, size_t, unsigned) {
  *Blocks = blocksPerMultiprocessor(BlockSize);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                          const void *Func,
                                                          int BlockSize,
                                                          size_t Shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      Blocks, Func, BlockSize, Shared, 0);
}

cudaError_t cudaDriverGetVersion(int *V) {
  *V = DeviceShape::RuntimeVersion;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *V) {
  *V = DeviceShape::RuntimeVersion;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t) { return cudaSuccess; }
cudaError_t cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  *Value = Limit == cudaLimitStackSize ? 1024 : size_t(8) << 20;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) { return code(takeLastError()); }
cudaError_t cudaPeekAtLastError(void) { return code(peekLastError()); }

const char *cudaGetErrorName(cudaError_t E) {
  static thread_local char Name[64];
  snprintf(Name, sizeof Name, "cuda%s", statusName(statusOf(E)));
  return Name;
}
const char *cudaGetErrorString(cudaError_t E) {
  return statusMessage(statusOf(E));
}

cudaError_t cudaStreamCreate(cudaStream_t *S) {
  *S = static_cast<cudaStream_t>(theStream());
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned) {
  return cudaStreamCreate(S);
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = static_cast<cudaEvent_t>(createEvent());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) {
  return cudaEventCreate(E);
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t) {
  recordEvent(E);
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start, cudaEvent_t End) {
  *Ms = elapsedMilliseconds(Start, End);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t E) {
  destroyEvent(E);
  return cudaSuccess;
}

} // extern "C"
