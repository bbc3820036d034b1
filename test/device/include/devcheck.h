//===- devcheck.h - Host side of the self-checking device tests -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The host code every program of test/device (*.cu and *.hip) shares: each
/// copies its inputs to the device, runs its kernels, copies the results back
/// and checks them against a host reference, then prints one verdict line and
/// exits non-zero on a mismatch (test/device/kernel-tests*.cmake run them on
/// the emulator and natively).  The same source serves CUDA and HIP: the
/// runtime calls go through the dev* wrappers below.
///
///   CHECK(call)                a runtime API call that must succeed; on an
///                              error: `file:line: call: message` on stderr,
///                              exit(1).
///   Tol fd{"fd", 1e-6};        a tolerance class; it records the worst
///                              relative error seen.
///   expectNear(fd, "dy", i, got, want)
///                              passes when |got - want| <= rtol * max(|want|,
///                              1) and both are finite; else counts a failure
///                              and prints (the first ten)
///                              `<file>: FAIL dy[i]: got ... expected ...`.
///   deviceCopy(hostVector)     a device copy, freed by finish().
///   hostCopy(devicePtr, n)     a host vector of the first n elements.
///   dotProduct(a, b)           sum of a[i] * b[i] in double.
///   centralDifference(f, v, i) (f() with v[i] + h - f() with v[i] - h) / 2h,
///                              h = 1e-6 max(|v[i]|, 1); v[i] restored.
///   providePool(threads)       the tape pool (<gpuad/tape_pool.h>) for up
///                              to `threads` threads: the fixed tapes'
///                              bytes plus 64 KiB of arena each, freed by
///                              finish().
///   return finish("what was checked", {&fd, &primal});
///                              frees the device copies, prints
///                              `<file>: PASS (what; max rel err ...)` or
///                              `<file>: FAIL (N mismatches)`, returns the
///                              exit code.
///
/// <file> is the name of the program's source file (__BASE_FILE__ without its
/// directory).  Include this after the kernels: it is host code only, so the
/// device assembly that the files' CHECK lines read does not depend on it.
///
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TEST_DEVICE_DEVCHECK_H
#define GPUAD_TEST_DEVICE_DEVCHECK_H

#ifdef __HIP__
#include <hip/hip_runtime.h>
#endif

#include <gpuad/tape_pool.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

// The runtime API, the same spelling for CUDA and HIP: DEVCHECK_API(Malloc)
// is hipMalloc or cudaMalloc.
#ifdef __HIP__
#define DEVCHECK_API(name) hip##name
#else
#define DEVCHECK_API(name) cuda##name
#endif

using devError_t = DEVCHECK_API(Error_t);
constexpr devError_t devSuccess = DEVCHECK_API(Success);
inline const char *devGetErrorString(devError_t err) {
  return DEVCHECK_API(GetErrorString)(err);
}
inline devError_t devMalloc(void **p, size_t bytes) {
  return DEVCHECK_API(Malloc)(p, bytes);
}
inline devError_t devFree(void *p) { return DEVCHECK_API(Free)(p); }
inline devError_t devCopyToDevice(void *dst, const void *src, size_t bytes) {
  return DEVCHECK_API(Memcpy)(dst, src, bytes,
                              DEVCHECK_API(MemcpyHostToDevice));
}
inline devError_t devCopyToHost(void *dst, const void *src, size_t bytes) {
  return DEVCHECK_API(Memcpy)(dst, src, bytes,
                              DEVCHECK_API(MemcpyDeviceToHost));
}

#define CHECK(call)                                                            \
  do {                                                                         \
    devError_t err_ = (call);                                                  \
    if (err_ != devSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   devGetErrorString(err_));                                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace devcheck {

// The program's source file without its directory, for the verdict lines.
inline const char *fileName() {
  const char *path = __BASE_FILE__;
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

inline int failures = 0;
inline std::vector<void *> allocations;

} // namespace devcheck

// A tolerance class: a value passes when |got - want| <= rtol * max(|want|,
// 1); the largest such error is reported.
struct Tol {
  const char *name;
  double rtol;
  double maxErr = 0;
};

// True for a finite v, by its bits: -ffast-math may assume NaN away in
// comparisons, not in integer tests.
inline bool isFinite(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits >> 52 & 0x7ff) != 0x7ff;
}

inline void expectNear(Tol &t, const char *what, int i, double got,
                       double want) {
  double err = std::fabs(got - want) / std::fmax(std::fabs(want), 1.0);
  if (!isFinite(got) || !isFinite(want) || !(err <= t.rtol)) {
    if (++devcheck::failures <= 10)
      std::printf("%s: FAIL %s[%d]: got %.17g expected %.17g (rel err %.3g > "
                  "%s tolerance %.3g)\n",
                  devcheck::fileName(), what, i, got, want, err, t.name,
                  t.rtol);
    return;
  }
  t.maxErr = std::fmax(t.maxErr, err);
}

template <class T> T *deviceCopy(const std::vector<T> &host) {
  void *p;
  CHECK(devMalloc(&p, host.size() * sizeof(T)));
  CHECK(devCopyToDevice(p, host.data(), host.size() * sizeof(T)));
  devcheck::allocations.push_back(p);
  return static_cast<T *>(p);
}

template <class T> std::vector<T> hostCopy(const T *p, size_t n) {
  std::vector<T> host(n);
  CHECK(devCopyToHost(host.data(), p, n * sizeof(T)));
  return host;
}

// sum_i a[i] * b[i], in double (the dot-product test of reverse against
// forward mode).
template <class A, class B>
double dotProduct(const std::vector<A> &a, const std::vector<B> &b) {
  double sum = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    sum += double(a[i]) * double(b[i]);
  return sum;
}

// The central difference of f() along v[i] (f reads v).
template <class F>
double centralDifference(F f, std::vector<double> &v, size_t i) {
  double x = v[i], h = 1e-6 * std::fmax(std::fabs(x), 1.0);
  v[i] = x + h;
  double up = f();
  v[i] = x - h;
  double down = f();
  v[i] = x;
  return (up - down) / (2 * h);
}

// The tape pool for up to \p threads threads (kernels whose loops have no
// compile-time bound keep their tapes in its arena).
inline void providePool(size_t threads) {
  size_t fixed = 0;
  CHECK(gpuad::tapePoolBytesPerThread(&fixed));
  size_t perThread = fixed + (64 << 10);
  void *pool;
  CHECK(devMalloc(&pool, perThread * threads));
  devcheck::allocations.push_back(pool);
  CHECK(gpuad::setTapePool(pool, perThread));
}

// Frees the buffers, prints the one-line verdict and returns the exit code.
inline int finish(const char *checked,
                  std::initializer_list<const Tol *> tols) {
  for (void *p : devcheck::allocations)
    CHECK(devFree(p));
  const char *file = devcheck::fileName();
  if (devcheck::failures) {
    std::printf("%s: FAIL (%d mismatches)\n", file, devcheck::failures);
    return 1;
  }
  std::printf("%s: PASS (%s; max rel err", file, checked);
  const char *sep = " ";
  for (const Tol *t : tols) {
    std::printf("%s%.2g %s (tol %.0e)", sep, t->maxErr, t->name, t->rtol);
    sep = ", ";
  }
  std::printf(")\n");
  return 0;
}

#endif // GPUAD_TEST_DEVICE_DEVCHECK_H
