// Elementwise forward derivative on the device: y_i = f(x_i), and the tangent
// dy_i = f'(x_i) * dx_i is computed by one __enzyme_fwddiff request per
// thread.  The differentiated function mixes arithmetic, a libdevice call and
// a branch; the kernel guards the index and writes both primal and tangent.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

__device__ double f(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

__global__ void elementwise_tangent(const double *x, const double *dx,
                                    double *y, double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = f(x[i]);
    dy[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], dx[i]);
  }
}

// A unit seed in the kernel: the derivative itself, not a directional one.
__global__ void elementwise_derivative(const double *x, double *dfdx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dfdx[i] = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x[i], 1.0);
}

// CHECK-DAG: .entry {{.*}}elementwise_tangent
// CHECK-DAG: .entry {{.*}}elementwise_derivative

// No request, marker or unresolved libdevice function is left.
// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Both kernels against central differences of a host copy of f (the
// derivative kernel's unit seed and the tangent kernel's dx direction), the
// tangent kernel's primal output against the host copy itself.

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(err_));                                  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

const char *const kFile = "elementwise.cu";

// A tolerance class: a value passes when |got - want| <= rtol * max(|want|,
// 1); the largest such error is reported.
struct Tol {
  const char *name;
  double rtol;
  double maxErr = 0;
};

int failures = 0;

// True for a finite v, by its bits: -ffast-math may assume NaN away in
// comparisons, not in integer tests.
bool isFinite(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits >> 52 & 0x7ff) != 0x7ff;
}

void expectNear(Tol &t, const char *what, int i, double got, double want) {
  double err = std::fabs(got - want) / std::fmax(std::fabs(want), 1.0);
  if (!isFinite(got) || !isFinite(want) || !(err <= t.rtol)) {
    if (++failures <= 10)
      std::printf("%s: FAIL %s[%d]: got %.17g expected %.17g (rel err %.3g > "
                  "%s tolerance %.3g)\n",
                  kFile, what, i, got, want, err, t.name, t.rtol);
    return;
  }
  t.maxErr = std::fmax(t.maxErr, err);
}

std::vector<void *> allocations;

template <class T> T *deviceCopy(const std::vector<T> &host) {
  T *p;
  CHECK(cudaMalloc(&p, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T),
                   cudaMemcpyHostToDevice));
  allocations.push_back(p);
  return p;
}

template <class T> std::vector<T> hostCopy(const T *p, size_t n) {
  std::vector<T> host(n);
  CHECK(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// Frees the buffers, prints the one-line verdict and returns the exit code.
int finish(const char *checked, std::initializer_list<const Tol *> tols) {
  for (void *p : allocations)
    CHECK(cudaFree(p));
  if (failures) {
    std::printf("%s: FAIL (%d mismatches)\n", kFile, failures);
    return 1;
  }
  std::printf("%s: PASS (%s; max rel err", kFile, checked);
  const char *sep = " ";
  for (const Tol *t : tols) {
    std::printf("%s%.2g %s (tol %.0e)", sep, t->maxErr, t->name, t->rtol);
    sep = ", ";
  }
  std::printf(")\n");
  return 0;
}

} // namespace

static double hostF(double x) {
  double y = x * x + 3.0 * x;
  if (x > 0.0)
    y += std::exp(x);
  else
    y -= x * x * x;
  return y / (1.0 + x * x);
}

int main() {
  // Central differences in double with h = 1e-6: truncation ~h^2 |f'''| and
  // rounding ~1e-16 |f| / h, both far below 1e-6 relative for |x| <= 3.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal is the same expression on the device: a few ulps apart at
  // most (libdevice's exp is within 1 ulp; contraction into FMAs).
  Tol primal{"primal", 1e-13};

  const int n = 1000; // not a multiple of the block: the guard matters
  std::vector<double> x(n), dx(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -3.0 + 6.0 * (i + 0.5) / n; // both branches, never within h of 0
    dx[i] = 0.5 + 0.25 * std::sin(0.1 * i);
  }
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx);
  std::vector<double> zero(n, 0.0);
  double *dY = deviceCopy(zero), *dDy = deviceCopy(zero),
         *dDfdx = deviceCopy(zero);

  const int block = 128, grid = (n + block - 1) / block;
  elementwise_tangent<<<grid, block>>>(dX, dDx, dY, dDy, n);
  CHECK(cudaGetLastError());
  elementwise_derivative<<<grid, block>>>(dX, dDfdx, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<double> y = hostCopy(dY, n), dy = hostCopy(dDy, n),
                      dfdx = hostCopy(dDfdx, n);
  for (int i = 0; i < n; ++i) {
    double slope = (hostF(x[i] + H) - hostF(x[i] - H)) / (2 * H);
    expectNear(primal, "y", i, y[i], hostF(x[i]));
    expectNear(fd, "dy", i, dy[i], slope * dx[i]);
    expectNear(fd, "dfdx", i, dfdx[i], slope);
  }
  return finish("y vs host f; dy along dx and df/dx vs central FD h=1e-6; "
                "n=1000",
                {&fd, &primal});
}
