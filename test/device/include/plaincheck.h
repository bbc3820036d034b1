//===- plaincheck.h - Host side of tests that play unmodified programs -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The device tests that play programs written for Enzyme include no gpuad
/// header (devcheck.h declares the tape pool); this is all they share: the
/// portability macros a hipified program carries (the CUDA runtime names
/// mapped to HIP's), a CHECK_CUDA that returns 1 from main on an error, and
/// expectNear(what, i, got, want, rtol), which counts the mismatches in
/// `failures` and prints the first ten.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TEST_DEVICE_PLAINCHECK_H
#define GPUAD_TEST_DEVICE_PLAINCHECK_H

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

#include <cmath>
#include <cstdio>

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

inline int failures = 0;

/// Passes when |got - want| <= rtol * max(|want|, 1), both finite.
inline void expectNear(const char *what, size_t i, double got, double want,
                       double rtol) {
  double err = std::fabs(got - want) / std::fmax(std::fabs(want), 1.0);
  if (!(err <= rtol) && ++failures <= 10)
    std::printf("FAIL %s[%zu]: got %.17g expected %.17g\n", what, i, got,
                want);
}

#endif // GPUAD_TEST_DEVICE_PLAINCHECK_H
