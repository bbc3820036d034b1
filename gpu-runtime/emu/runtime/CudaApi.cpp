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
  case Status::Success:
    return cudaSuccess;
  case Status::InvalidValue:
    return cudaErrorInvalidValue;
  case Status::MemoryAllocation:
    return cudaErrorMemoryAllocation;
  case Status::InvalidConfiguration:
    return cudaErrorInvalidConfiguration;
  case Status::InvalidSymbol:
    return cudaErrorInvalidSymbol;
  case Status::InvalidDevicePointer:
    return cudaErrorInvalidDevicePointer;
  case Status::InvalidDevice:
    return cudaErrorInvalidDevice;
  case Status::InvalidDeviceFunction:
    return cudaErrorInvalidDeviceFunction;
  }
  return cudaErrorUnknown;
}

using Stream = cudaStream_t;
using Event = cudaEvent_t;
using MemcpyKind = cudaMemcpyKind;
using FuncAttribute = cudaFuncAttribute;

} // namespace

extern "C" {

// ---- Registration (clang's module constructor) -----------------------------

void **__cudaRegisterFatBinary(void *) {
  static void *Handle = nullptr;
  return &Handle;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}

void __cudaRegisterFunction(void **, const char *HostFun, char *,
                            const char *DeviceName, int, uint3 *, uint3 *,
                            dim3 *, dim3 *, int *) {
  registerHostFunction(HostFun, DeviceName);
}

void __cudaRegisterVar(void **, char *HostVar, char *, const char *DeviceName,
                       int, size_t, int, int) {
  registerHostVariable(HostVar, DeviceName);
}

void __cudaRegisterManagedVar(void **, void **HostVarPtrAddress, char *,
                              const char *DeviceName, int, size_t, int, int) {
  registerHostVariable(HostVarPtrAddress, DeviceName);
}

// ---- What CUDA and HIP spell alike (ApiEntries.def) ----------------------

#define GPUAD_API(Name, Params, Call)                                          \
  cudaError_t cuda##Name Params { return code(Call); }
#include "ApiEntries.def"

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

/// cudaLaunchKernelEx: the configuration's attributes change nothing here
/// (streams are synchronous), except clusters of more than one block,
/// which the emulator does not have.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                const void *Func, void **Args) {
  if (!Config)
    return code(record(Status::InvalidValue));
  for (unsigned I = 0; I < Config->numAttrs; ++I) {
    const cudaLaunchAttribute &A = Config->attrs[I];
    if (A.id == cudaLaunchAttributeClusterDimension &&
        A.val.clusterDim.x * A.val.clusterDim.y * A.val.clusterDim.z > 1) {
      fprintf(stderr, "gpuad-emu: thread block clusters of more than one "
                      "block are not supported\n");
      return code(record(Status::InvalidConfiguration));
    }
  }
  return code(launchStub(Func, dim(Config->gridDim), dim(Config->blockDim),
                         Args, Config->dynamicSmemBytes));
}

// ---- The driver's entry points -------------------------------------------

/// The driver functions gpuad's generated code asks for (the address range
/// of a device pointer); any other is not found.
static cudaError_t driverEntryPoint(const char *Symbol, void **Fn,
                                    cudaDriverEntryPointQueryResult *Found) {
  bool Known = Symbol && !strcmp(Symbol, "cuMemGetAddressRange");
  if (Fn)
    *Fn = Known ? reinterpret_cast<void *>(&memGetAddressRange) : nullptr;
  if (Found)
    *Found = Known ? cudaDriverEntryPointSuccess
                   : cudaDriverEntryPointSymbolNotFound;
  return Known ? cudaSuccess : cudaErrorSymbolNotFound;
}

cudaError_t cudaGetDriverEntryPoint(const char *Symbol, void **Fn,
                                    unsigned long long,
                                    cudaDriverEntryPointQueryResult *Found) {
  return driverEntryPoint(Symbol, Fn, Found);
}

cudaError_t
cudaGetDriverEntryPointByVersion(const char *Symbol, void **Fn, unsigned int,
                                 unsigned long long,
                                 cudaDriverEntryPointQueryResult *Found) {
  return driverEntryPoint(Symbol, Fn, Found);
}

// ---- Host memory
// -------------------------------------------------------------

cudaError_t cudaMallocHost(void **P, size_t Bytes) {
  return code(allocate(P, Bytes, true));
}
cudaError_t cudaHostAlloc(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
cudaError_t cudaFreeHost(void *P) { return code(release(P)); }

// ---- The device and its kernels
// ----------------------------------------------

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *P, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  unsigned CC = computeCapability();
  describeDevice(*P, 32, int(CC / 10), int(CC % 10));
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *Value, enum cudaDeviceAttr Attr,
                                   int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock:
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
    *Value = DeviceShape::MaxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimZ:
    *Value = 64;
    break;
  case cudaDevAttrMaxGridDimX:
    *Value = 0x7fffffff;
    break;
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    *Value = 65535;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *Value = int(DeviceShape::SharedPerBlock);
    break;
  case cudaDevAttrTotalConstantMemory:
    *Value = int(DeviceShape::ConstantMemory);
    break;
  case cudaDevAttrWarpSize:
    *Value = 32;
    break;
  case cudaDevAttrMaxRegistersPerBlock:
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *Value = 65536;
    break;
  case cudaDevAttrMultiProcessorCount:
    *Value = DeviceShape::Multiprocessors;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *Value = DeviceShape::MaxThreadsPerMultiprocessor;
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *Value = 32;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *Value = int(computeCapability() / 10);
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *Value = int(computeCapability() % 10);
    break;
  case cudaDevAttrManagedMemory:
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrMemoryPoolsSupported:
    *Value = 1;
    break;
  default:
    *Value = 0;
    break; // features the emulator does not have
  }
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *A,
                                  const void *Func) {
  Status S = describeKernel(A, Func);
  // What the device code was compiled for: CUB picks its tuning by it.
  if (S == Status::Success)
    A->ptxVersion = A->binaryVersion = int(computeCapability());
  return code(S);
}

cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaDeviceSetLimit(enum cudaLimit Limit, size_t Value) {
  if (Limit == cudaLimitMallocHeapSize)
    setDeviceHeapLimit(Value);
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  *Value = Limit == cudaLimitStackSize        ? 1024
           : Limit == cudaLimitMallocHeapSize ? deviceHeapLimit()
                                              : size_t(8) << 20;
  return cudaSuccess;
}

// ---- Errors
// ------------------------------------------------------------------

const char *cudaGetErrorName(cudaError_t E) {
  static thread_local char Name[64];
  snprintf(Name, sizeof Name, "cuda%s", statusName(statusOf(E, code)));
  return Name;
}
const char *cudaGetErrorString(cudaError_t E) {
  return statusMessage(statusOf(E, code));
}

} // extern "C"
