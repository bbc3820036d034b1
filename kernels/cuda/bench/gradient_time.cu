// GPU time of the device suite's gradient kernels against their primals
// (test/device/gradient-suite.cu's kernels, float and double), measured in
// one run with CUDA events: for each kernel the median of 11 launches over
// 2^22 threads, and the gradient/primal ratio.  Run by tools/gpu-suite.sh
// when a GPU is lent; the numbers are a benchmark, never a test.  On the
// emulator (gpuad-cc --emulate) it runs with a small n and the times mean
// nothing.
#define GRADIENT_SUITE_KERNELS_ONLY
#include "../../../test/device/gradient-suite.cu"

// CHECK and medianMs (the median of 11 runs), as the benchmark programs
// use them, and the tape pool's header.
#include "include/bench.h"

#include <gpuad/tape_pool.h>

template <class T> T *filled(size_t N, double V) {
  std::vector<T> H(N, T(V));
  T *D;
  CHECK(cudaMalloc(&D, N * sizeof(T)));
  CHECK(cudaMemcpy(D, H.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  return D;
}

template <class T> void timeSuite(const char *Ty, int N) {
  int Blocks = (N + Block - 1) / Block;
  T *X = filled<T>(N, 0.7), *Xb = filled<T>(N, 0), *Y = filled<T>(4 * N, 0),
    *Yb = filled<T>(4 * N, 1), *W = filled<T>(1, 1.3), *Wb = filled<T>(1, 0);
  int *Idx;
  CHECK(cudaMalloc(&Idx, N * sizeof(int)));
  CHECK(cudaMemset(Idx, 0, N * sizeof(int)));
  auto Row = [&](const char *Name, float P, float G) {
    std::printf("%-12s %-6s primal %8.3f ms  gradient %8.3f ms  ratio %5.2f\n",
                Name, Ty, P, G, G / P);
  };
#define TIME2(name)                                                            \
  Row(#name, medianMs([&] { name##Primal<T><<<Blocks, Block>>>(X, Y, N); }),   \
      medianMs([&] { name##Grad<T><<<Blocks, Block>>>(X, Xb, Y, Yb, N); }))
  TIME2(elementwise);
  TIME2(horner);
  TIME2(blocksum);
  Row("normalize",
      medianMs([&] { normalizePrimal<T><<<Blocks / 3, Block>>>(X, Y, N / 3); }),
      medianMs([&] {
        normalizeGrad<T><<<Blocks / 3, Block>>>(X, Xb, Y, Yb, N / 3);
      }));
  Row("recurrence",
      medianMs([&] { recurrencePrimal<T><<<Blocks, Block>>>(X, W, Y, N); }),
      medianMs([&] {
        recurrenceGrad<T><<<Blocks, Block>>>(X, Xb, W, Wb, Y, Yb, N);
      }));
  Row("scatter",
      medianMs([&] { scatterPrimal<T><<<Blocks, Block>>>(X, Idx, W, Y, N); }),
      medianMs([&] {
        scatterGrad<T><<<Blocks, Block>>>(X, Xb, Idx, W, Wb, Y, Yb, N);
      }));
  for (void *P : {(void *)X, (void *)Xb, (void *)Y, (void *)Yb, (void *)W,
                  (void *)Wb, (void *)Idx})
    CHECK(cudaFree(P));
}

int main(int argc, char **argv) {
  int N = argc > 1 ? std::atoi(argv[1]) : 1 << 22;
  // The pool, in case the build put tapes there.
  size_t PerThread = 0;
  CHECK(gpuad::tapePoolBytesPerThread(&PerThread));
  if (PerThread) {
    void *Pool;
    CHECK(cudaMalloc(&Pool, PerThread * size_t(N)));
    CHECK(gpuad::setTapePool(Pool, PerThread));
  }
  timeSuite<float>("float", N);
  timeSuite<double>("double", N);
  return 0;
}
