//===- mc_lookup.h - What the cross-section lookup programs share -*- C++ -*-//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The parts of a Monte Carlo transport code's lookup that xs_lookup.cu and
/// rs_lookup.cu share, after XSBench and RSBench:
///  - each lookup's random stream: x_{k+1} = (A x_k + C) mod 2^63, skipped
///    ahead to draw 2i for lookup i with Brown's arbitrary-stride method
///    (A^N and C (A^N - 1) / (A - 1) by repeated squaring), so that every
///    thread draws its own energy and material with no shared state;
///  - the material of a draw, with the frequencies of a reactor core's
///    twelve materials (fuel, cladding, coolant, ...);
///  - on the host, the materials' compositions: the benchmarks' nuclide
///    counts per material scaled to the problem's nuclide count (fuel first,
///    with the most; the others random distinct nuclides), and densities.
///
//===----------------------------------------------------------------------===//

#ifndef GPUAD_KERNELS_BENCH_MC_LOOKUP_H
#define GPUAD_KERNELS_BENCH_MC_LOOKUP_H

#include <algorithm>
#include <cstdint>
#include <vector>

constexpr int NumMats = 12;

constexpr uint64_t LcgA = 2806196910506780709ull;
constexpr uint64_t LcgC = 1;
constexpr uint64_t Lcg63 = (1ull << 63) - 1;
constexpr uint64_t StartSeed = 1070;

/// The seed \p N draws after \p Seed (mod 2^64, then mod 2^63).
__host__ __device__ inline uint64_t lcgSkip(uint64_t Seed, uint64_t N) {
  uint64_t A = LcgA, C = LcgC, MulN = 1, AddN = 0;
  while (N) {
    if (N & 1) {
      MulN *= A;
      AddN = AddN * A + C;
    }
    C *= A + 1;
    A *= A;
    N >>= 1;
  }
  return (MulN * Seed + AddN) & Lcg63;
}

/// The next draw in [0, 1).
__host__ __device__ inline double lcgDraw(uint64_t &Seed) {
  Seed = (LcgA * Seed + LcgC) & Lcg63;
  return double(Seed) * 0x1p-63;
}

/// The first material whose cumulative share exceeds \p Roll.
__host__ __device__ inline int pickMaterial(double Roll) {
  const double Share[NumMats] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                 0.066, 0.055, 0.008, 0.015, 0.025, 0.013};
  double Sum = 0;
  for (int M = 0; M < NumMats - 1; ++M) {
    Sum += Share[M];
    if (Roll < Sum)
      return M;
  }
  return NumMats - 1;
}

/// The materials of a problem with \p Nuclides nuclides: material M has
/// NumNucs[M] nuclides Mats[M * MaxNucs + j] with densities
/// Concs[M * MaxNucs + j] in [0.05, 1.05) (padding entries 0).
struct Materials {
  int MaxNucs = 0;
  std::vector<int> NumNucs, Mats;
  std::vector<double> Concs;

  /// \p Draw gives numbers in [0, 1).
  template <class F> Materials(int Nuclides, F Draw) {
    // The benchmarks' counts for 68 nuclides.
    const int Nucs68[NumMats] = {34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
    for (int M = 0; M < NumMats; ++M) {
      NumNucs.push_back(std::max(1, (Nucs68[M] * Nuclides + 34) / 68));
      MaxNucs = std::max(MaxNucs, NumNucs.back());
    }
    Mats.assign(NumMats * MaxNucs, 0);
    Concs.assign(NumMats * MaxNucs, 0.0);
    for (int M = 0; M < NumMats; ++M) {
      std::vector<int> Pick(Nuclides);
      for (int N = 0; N < Nuclides; ++N)
        Pick[N] = N;
      for (int N = 0; M > 0 && N < NumNucs[M]; ++N)
        std::swap(Pick[N], Pick[N + int(Draw() * (Nuclides - N))]);
      for (int J = 0; J < NumNucs[M]; ++J) {
        Mats[M * MaxNucs + J] = Pick[J];
        Concs[M * MaxNucs + J] = 0.05 + Draw();
      }
    }
  }
};

#endif // GPUAD_KERNELS_BENCH_MC_LOOKUP_H
