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
/// until cudaGetLastError, as in CUDA.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace gpuad::emu;

namespace {

thread_local cudaError_t LastError = cudaSuccess;

cudaError_t record(cudaError_t E) {
  if (E != cudaSuccess)
    LastError = E;
  return E;
}

struct CallConfiguration {
  dim3 Grid, Block;
  size_t Shared;
  void *Stream;
};
thread_local std::vector<CallConfiguration> Configurations;

struct Event {
  std::chrono::steady_clock::time_point When;
};

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
  Configurations.push_back({Grid, Block, Shared, Stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                       void *Stream) {
  if (Configurations.empty())
    return cudaErrorInvalidConfiguration;
  CallConfiguration C = Configurations.back();
  Configurations.pop_back();
  *Grid = C.Grid;
  *Block = C.Block;
  *Shared = C.Shared;
  *static_cast<void **>(Stream) = C.Stream;
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid, dim3 Block,
                             void **Args, size_t Shared, cudaStream_t) {
  const KernelInfo *K = kernelForStub(Func);
  if (!K) {
    fprintf(stderr, "gpuad-emu: launch of a kernel the device code does not "
                    "define (was the device half compiled with --emulate?)\n");
    return record(cudaErrorInvalidDeviceFunction);
  }
  if (!launch(*K, {Grid.x, Grid.y, Grid.z}, {Block.x, Block.y, Block.z}, Args,
              Shared))
    return record(cudaErrorInvalidConfiguration);
  return cudaSuccess;
}

// ---- Memory ----------------------------------------------------------------

cudaError_t cudaMalloc(void **P, size_t Bytes) {
  *P = deviceAlloc(Bytes, false);
  return *P ? cudaSuccess : record(cudaErrorMemoryAllocation);
}

cudaError_t cudaMallocManaged(void **P, size_t Bytes, unsigned) {
  *P = deviceAlloc(Bytes, true);
  return *P ? cudaSuccess : record(cudaErrorMemoryAllocation);
}

cudaError_t cudaMallocHost(void **P, size_t Bytes) {
  return cudaMallocManaged(P, Bytes, 0);
}

cudaError_t cudaHostAlloc(void **P, size_t Bytes, unsigned) {
  return cudaMallocManaged(P, Bytes, 0);
}

cudaError_t cudaFree(void *P) {
  return deviceFree(P) ? cudaSuccess : record(cudaErrorInvalidDevicePointer);
}

cudaError_t cudaFreeHost(void *P) { return cudaFree(P); }

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                       enum cudaMemcpyKind) {
  if (Count)
    memmove(Dst, Src, Count);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                            enum cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpy(Dst, Src, Count, Kind);
}

cudaError_t cudaMemset(void *P, int Value, size_t Count) {
  memset(P, Value, Count);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *P, int Value, size_t Count, cudaStream_t) {
  return cudaMemset(P, Value, Count);
}

cudaError_t cudaGetSymbolAddress(void **P, const void *Symbol) {
  uint64_t Size;
  if (!deviceVariable(Symbol, *P, Size))
    return record(cudaErrorInvalidSymbol);
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Count, size_t Offset,
                               enum cudaMemcpyKind) {
  void *Address;
  uint64_t Size;
  if (!deviceVariable(Symbol, Address, Size))
    return record(cudaErrorInvalidSymbol);
  if (Offset + Count > Size)
    return record(cudaErrorInvalidValue);
  memcpy(static_cast<char *>(Address) + Offset, Src, Count);
  return cudaSuccess;
}

cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Count,
                                 size_t Offset, enum cudaMemcpyKind) {
  void *Address;
  uint64_t Size;
  if (!deviceVariable(Symbol, Address, Size))
    return record(cudaErrorInvalidSymbol);
  if (Offset + Count > Size)
    return record(cudaErrorInvalidValue);
  memcpy(Dst, static_cast<char *>(Address) + Offset, Count);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Free = size_t(8) << 30;
  *Total = size_t(16) << 30;
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
  return D == 0 ? cudaSuccess : record(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *P, int D) {
  if (D != 0)
    return record(cudaErrorInvalidDevice);
  memset(P, 0, sizeof *P);
  snprintf(P->name, sizeof P->name, "gpuad CPU emulator");
  P->totalGlobalMem = size_t(16) << 30;
  P->sharedMemPerBlock = 48 * 1024;
  P->regsPerBlock = 65536;
  P->warpSize = 32;
  P->maxThreadsPerBlock = 1024;
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = 1024;
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 0x7fffffff;
  P->maxGridSize[1] = P->maxGridSize[2] = 65535;
  P->totalConstMem = 64 * 1024;
  P->major = 7;
  P->minor = 5;
  P->multiProcessorCount = 1;
  P->maxThreadsPerMultiProcessor = 1024;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int) {
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}

cudaError_t cudaPeekAtLastError(void) { return LastError; }

const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
  case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
  case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
  default: return "cudaErrorUnknown";
  }
}

const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidSymbol: return "invalid device symbol";
  case cudaErrorInvalidDevicePointer: return "invalid device pointer";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorInvalidDeviceFunction: return "invalid device function";
  default: return "unknown error";
  }
}

cudaError_t cudaStreamCreate(cudaStream_t *S) {
  static char Streams;
  *S = reinterpret_cast<cudaStream_t>(&Streams);
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned) {
  return cudaStreamCreate(S);
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(new Event());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) {
  return cudaEventCreate(E);
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t) {
  reinterpret_cast<Event *>(E)->When = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start, cudaEvent_t End) {
  auto D = reinterpret_cast<Event *>(End)->When -
           reinterpret_cast<Event *>(Start)->When;
  *Ms = std::chrono::duration<float, std::milli>(D).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t E) {
  delete reinterpret_cast<Event *>(E);
  return cudaSuccess;
}

} // extern "C"
