//===- cuda_to_hip.h - CUDA runtime names for HIP programs -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The portability macros a hipified program carries: the CUDA runtime
/// names of test/device's "unmodified program" tests map to HIP's, so one
/// source serves both targets without any gpuad header.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TEST_DEVICE_CUDA_TO_HIP_H
#define GPUAD_TEST_DEVICE_CUDA_TO_HIP_H

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemset hipMemset
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaGetLastError hipGetLastError
#define cudaGetErrorString hipGetErrorString
#endif

#endif // GPUAD_TEST_DEVICE_CUDA_TO_HIP_H
