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
  case Status::Success:
    return hipSuccess;
  case Status::InvalidValue:
    return hipErrorInvalidValue;
  case Status::MemoryAllocation:
    return hipErrorOutOfMemory;
  case Status::InvalidConfiguration:
    return hipErrorInvalidConfiguration;
  case Status::InvalidSymbol:
    return hipErrorInvalidSymbol;
  case Status::InvalidDevicePointer:
    return hipErrorInvalidDevicePointer;
  case Status::InvalidDevice:
    return hipErrorInvalidDevice;
  case Status::InvalidDeviceFunction:
    return hipErrorInvalidDeviceFunction;
  }
  return hipErrorUnknown;
}

using Stream = hipStream_t;
using Event = hipEvent_t;
using MemcpyKind = hipMemcpyKind;
using FuncAttribute = hipFuncAttribute;

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

// ---- What CUDA and HIP spell alike (ApiEntries.def) ----------------------

#define GPUAD_API(Name, Params, Call)                                          \
  hipError_t hip##Name Params { return code(Call); }
#include "ApiEntries.def"

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

// ---- Host memory
// -------------------------------------------------------------

hipError_t hipHostMalloc(void **P, size_t Bytes, unsigned) {
  return code(allocate(P, Bytes, true));
}
hipError_t hipHostFree(void *P) { return code(release(P)); }
hipError_t hipMemcpyHtoD(hipDeviceptr_t Dst, void *Src, size_t Count) {
  return code(copy(Dst, Src, Count));
}
hipError_t hipMemcpyDtoH(void *Dst, hipDeviceptr_t Src, size_t Count) {
  return code(copy(Dst, Src, Count));
}

// ---- The device and its kernels
// ----------------------------------------------

hipError_t hipGetDeviceProperties(hipDeviceProp_t *P, int D) {
  if (D != 0)
    return code(record(Status::InvalidDevice));
  describeDevice(*P, 64, 9, 0);
  snprintf(P->gcnArchName, sizeof P->gcnArchName, "gfx90a");
  P->gcnArch = 910;
  P->maxThreadsDim[2] = 1024;
  P->maxGridSize[1] = P->maxGridSize[2] = 0x7fffffff;
  return hipSuccess;
}

// The device heap's size (ROCm 5.2's headers declare only the getter; a
// program built against a newer HIP may set it).
hipError_t hipDeviceGetLimit(size_t *Value, hipLimit_t Limit) {
  if (Limit != hipLimitMallocHeapSize)
    return hipErrorUnsupportedLimit;
  *Value = deviceHeapLimit();
  return hipSuccess;
}
hipError_t hipDeviceSetLimit(hipLimit_t Limit, size_t Value) {
  if (Limit != hipLimitMallocHeapSize)
    return hipErrorUnsupportedLimit;
  setDeviceHeapLimit(Value);
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
  case hipDeviceAttributeMaxGridDimZ:
    *Value = 0x7fffffff;
    break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    *Value = int(DeviceShape::SharedPerBlock);
    break;
  case hipDeviceAttributeTotalConstantMemory:
    *Value = int(DeviceShape::ConstantMemory);
    break;
  case hipDeviceAttributeWarpSize:
    *Value = 64;
    break;
  case hipDeviceAttributeMultiprocessorCount:
    *Value = DeviceShape::Multiprocessors;
    break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor:
    *Value = DeviceShape::MaxThreadsPerMultiprocessor;
    break;
  case hipDeviceAttributeComputeCapabilityMajor:
    *Value = 9;
    break;
  case hipDeviceAttributeComputeCapabilityMinor:
    *Value = 0;
    break;
  case hipDeviceAttributeManagedMemory:
    *Value = 1;
    break;
  default:
    *Value = 0;
    break; // features the emulator does not have
  }
  return hipSuccess;
}

hipError_t hipFuncGetAttributes(hipFuncAttributes *A, const void *Func) {
  return code(describeKernel(A, Func));
}

// ---- Errors
// ------------------------------------------------------------------

const char *hipGetErrorName(hipError_t E) {
  static thread_local char Name[64];
  snprintf(Name, sizeof Name, "hip%s", statusName(statusOf(E, code)));
  return Name;
}
const char *hipGetErrorString(hipError_t E) {
  return statusMessage(statusOf(E, code));
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t *Base, size_t *Bytes,
                                 hipDeviceptr_t P) {
  void *B = nullptr;
  uint64_t N = 0;
  if (!deviceRegionOf(P, B, N))
    return hipErrorInvalidValue;
  if (Base)
    *Base = B;
  if (Bytes)
    *Bytes = N;
  return hipSuccess;
}

} // extern "C"
