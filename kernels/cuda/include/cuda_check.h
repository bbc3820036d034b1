//===- cuda_check.h - Checked CUDA runtime calls for the example programs -===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// CHECK(call) stops the program with the file, line, call and CUDA's error
/// string when a runtime call fails; CHECK_LAUNCH() does the same for the
/// last launch.  nextLcg() is the 32-bit LCG (Numerical Recipes) the
/// programs draw deterministic inputs from.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_KERNELS_CUDA_CHECK_H
#define GPUAD_KERNELS_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err_ = (call);                                                 \
    if (Err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(Err_));                           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define CHECK_LAUNCH() CHECK(cudaGetLastError())

/// Advances \p Seed and returns it.
inline unsigned nextLcgBits(unsigned &Seed) {
  Seed = 1664525u * Seed + 1013904223u;
  return Seed;
}

/// Advances \p Seed and returns its top 24 bits as a fraction in [0, 1).
inline double nextLcg(unsigned &Seed) {
  return (nextLcgBits(Seed) >> 8) * (1.0 / 16777216.0);
}

#endif // GPUAD_KERNELS_CUDA_CHECK_H
