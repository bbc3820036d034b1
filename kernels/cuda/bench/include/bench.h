//===- bench.h - Host side of the benchmark suite's programs ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the benchmark programs of kernels/cuda/bench (xs_lookup, rs_lookup,
/// lbm_d3q19, hex_element) share.  They are ordinary CUDA programs written
/// as an Enzyme user writes them: nothing here is gpuad's, and they build
/// with any plugin that implements Enzyme's call ABI.
///
///  - HIP: included from a .hip file (kernels/hip/bench), the runtime calls
///    the programs make under their CUDA names are mapped to HIP's.
///  - Enzyme's ABI, declared by hand: the activity markers and the entry
///    points, C-style variadic (doubles, ints and pointers only, so no
///    argument is promoted).  Programs that need another result type
///    declare their own under a name containing the entry point.
///  - CHECK(call), nextLcg (the 32-bit LCG the inputs are drawn from), from
///    kernels/cuda/include/cuda_check.h.
///  - Check: a tolerance class recording the worst error; `near` counts and
///    prints mismatches; verdict() prints `<name>: PASS (...)` or FAIL and
///    gives the exit code.
///  - medianMs(launch): the median of 11 timed runs with events, for the
///    programs' --time mode (ratios, measured in one run);
///    reserveDeviceHeap for the tapes that come from the device heap.
///
//===----------------------------------------------------------------------===//

#ifndef GPUAD_KERNELS_BENCH_H
#define GPUAD_KERNELS_BENCH_H

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemset hipMemset
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaEvent_t hipEvent_t
#define cudaEventCreate hipEventCreate
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaDeviceSetLimit hipDeviceSetLimit
#define cudaLimitMallocHeapSize hipLimitMallocHeapSize
// HIP has it since ROCm 5.3; ROCm 5.2's header only declares the getter.
extern "C" hipError_t hipDeviceSetLimit(hipLimit_t, size_t);
#endif

// CHECK(call), CHECK_LAUNCH() and nextLcg, as the other example programs
// have them (under their CUDA names, which HIP maps above).
#include "../../include/cuda_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Enzyme's markers and entry points.  The markers are never defined: the
// plugin replaces every use.
extern __device__ int enzyme_dup;
extern __device__ int enzyme_const;
extern __device__ int enzyme_out;
extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);

/// A device copy of \p Host.
template <class T> T *toDevice(const std::vector<T> &Host) {
  T *D;
  CHECK(cudaMalloc(&D, Host.size() * sizeof(T)));
  CHECK(cudaMemcpy(D, Host.data(), Host.size() * sizeof(T),
                   cudaMemcpyHostToDevice));
  return D;
}

/// A zeroed device array of \p N elements.
template <class T> T *zeroed(size_t N) {
  T *D;
  CHECK(cudaMalloc(&D, N * sizeof(T)));
  CHECK(cudaMemset(D, 0, N * sizeof(T)));
  return D;
}

/// The first \p N elements of \p D.
template <class T> std::vector<T> toHost(const T *D, size_t N) {
  std::vector<T> Host(N);
  CHECK(cudaMemcpy(Host.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost));
  return Host;
}

/// \p N numbers in [-1, 1) from \p Seed.
inline std::vector<double> randomVector(size_t N, unsigned &Seed) {
  std::vector<double> V(N);
  for (double &X : V)
    X = 2 * nextLcg(Seed) - 1;
  return V;
}

/// max_i |V[i]|.
inline double largest(const std::vector<double> &V) {
  double M = 0;
  for (double X : V)
    M = std::fmax(M, std::fabs(X));
  return M;
}

/// sum_i A[i] * B[i].
inline double dot(const std::vector<double> &A, const std::vector<double> &B) {
  double S = 0;
  for (size_t I = 0; I < A.size() && I < B.size(); ++I)
    S += A[I] * B[I];
  return S;
}

/// A tolerance class: a value passes when |got - want| <= Rtol * max(|want|,
/// Scale) and both are finite.  Scale is the magnitude below which errors
/// are absolute (e.g. the largest gradient entry, so that entries that
/// cancel to nearly zero are not held to a relative tolerance).
struct Check {
  const char *Name;
  double Rtol;
  double Scale = 1;
  double Worst = 0;
  int Compared = 0;
};

inline int &failures() {
  static int N = 0;
  return N;
}

inline bool near(Check &C, const char *What, long I, double Got, double Want) {
  double Err = std::fabs(Got - Want) / std::fmax(std::fabs(Want), C.Scale);
  ++C.Compared;
  if (std::isfinite(Got) && std::isfinite(Want) && Err <= C.Rtol) {
    C.Worst = std::fmax(C.Worst, Err);
    return true;
  }
  if (++failures() <= 10)
    std::printf("FAIL %s[%ld]: got %.17g expected %.17g (err %.3g > %s "
                "tolerance %.1e, scale %.3g)\n",
                What, I, Got, Want, Err, C.Name, C.Rtol, C.Scale);
  return false;
}

/// Prints the one-line verdict of program \p Name and returns its exit code.
inline int verdict(const char *Name, const char *What,
                   std::vector<const Check *> Checks) {
  if (failures()) {
    std::printf("%s: FAIL (%d mismatches; %s)\n", Name, failures(), What);
    return 1;
  }
  std::printf("%s: PASS (%s; max err", Name, What);
  const char *Sep = " ";
  for (const Check *C : Checks) {
    std::printf("%s%.2g %s (tol %.0e, %d values)", Sep, C->Worst, C->Name,
                C->Rtol, C->Compared);
    Sep = ", ";
  }
  std::printf(")\n");
  return 0;
}

/// The median time in ms of 11 runs of \p Launch (after one warm-up run).
template <class F> float medianMs(F Launch) {
  cudaEvent_t A, B;
  CHECK(cudaEventCreate(&A));
  CHECK(cudaEventCreate(&B));
  Launch();
  CHECK(cudaGetLastError());
  std::vector<float> Ms;
  for (int R = 0; R < 11; ++R) {
    CHECK(cudaEventRecord(A));
    Launch();
    CHECK(cudaEventRecord(B));
    CHECK(cudaEventSynchronize(B));
    float T;
    CHECK(cudaEventElapsedTime(&T, A, B));
    Ms.push_back(T);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(A));
  CHECK(cudaEventDestroy(B));
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}

/// Room on the device heap for gradients whose tapes come from it (the
/// programs give no tape pool; the heap is 8 MiB unless set), as a user of
/// Enzyme's GPU support sets it for its tapes.
inline void reserveDeviceHeap(size_t Bytes) {
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, Bytes));
}

/// One line of a --time run: the kernels' median times and the ratio.
inline void timeRow(const char *Program, const char *Kernel, float PrimalMs,
                    float GradMs) {
  std::printf("%s: time %-22s primal %9.3f ms  gradient %9.3f ms  "
              "ratio %5.2f\n",
              Program, Kernel, PrimalMs, GradMs, GradMs / PrimalMs);
}

/// True when the program was run as `prog --time [...]`.
inline bool timeMode(int Argc, char **Argv) {
  return Argc > 1 && std::strcmp(Argv[1], "--time") == 0;
}

#endif // GPUAD_KERNELS_BENCH_H
