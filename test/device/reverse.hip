// Reverse mode in device code: kernels that call __enzyme_autodiff on device
// functions without barriers or shared memory.  Shadow updates to memory
// another thread may touch are atomic; a slot of the thread's own index
// (x[blockIdx.x * blockDim.x + threadIdx.x]) is a plain read-add-write --
// when optimised: at -O0 the index comes from a call to gid(), which the
// analysis does not look into, so the adds stay atomic (correct, slower).
// Thread ids are inactive; loops keep their tape per thread; a call to a
// noinline device function goes through its split halves.  The amdgcn code must
// assemble at every optimisation level.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefixes=CHECK,OPT --input-file=%t.O2.ll
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }

// y[i] = x[i]^2 sin(x[i]): every access is the thread's own slot, and the
// arrays are restrict (without it, x and y could be one array shifted, and
// another thread's x[j] could be this thread's y[i]).
__device__ void square(const double *__restrict__ x, double *__restrict__ y,
                       int n) {
  int i = gid();
  if (i < n)
    y[i] = x[i] * x[i] * sin(x[i]);
}

// The same without restrict: the adds must stay atomic.
__device__ void square_may_alias(const double *x, double *y, int n) {
  int i = gid();
  if (i < n)
    y[i] = x[i] * x[i] * sin(x[i]);
}

// y[i] = x[i] x[i+1]: x[i+1] is the next thread's slot.
__device__ void stencil(const double *x, double *y, int n) {
  int i = gid();
  if (i + 1 < n)
    y[i] = x[i] * x[i + 1];
}

// y[i] = sum_j a[i n + j] tanh(x[j]): every thread reads all of x.
__device__ void rowdot(const float *a, const float *x, float *y, int n) {
  int i = gid();
  if (i >= n)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    s += a[i * n + j] * tanhf(x[j]);
  y[i] = s;
}

__device__ __noinline__ double spring(double a, double b) {
  double d = b - a - 1.0;
  return 0.5 * d * d + 0.1 * exp(-a * b);
}

// A call to a noinline device function with active scalar arguments.
__device__ void springs(const double *__restrict__ x, double *__restrict__ e,
                        int n) {
  int i = gid();
  if (i < n)
    e[i] = spring(x[i], 2.0 * x[i] + 0.5);
}

__global__ void grad_square(const double *x, double *dx, double *y, double *dy,
                            int n) {
  __enzyme_autodiff((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_square
// OPT-NOT: atomicrmw
// CHECK: ret void

__global__ void grad_square_may_alias(const double *x, double *dx, double *y,
                                      double *dy, int n) {
  __enzyme_autodiff((void *)square_may_alias, enzyme_dup, x, dx, enzyme_dup, y,
                    dy, n);
}
// CHECK-LABEL: define {{.*}}grad_square_may_alias
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("agent")
// CHECK: ret void

__global__ void grad_stencil(const double *x, double *dx, double *y,
                             double *dy, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_stencil
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("agent")
// CHECK: ret void

__global__ void grad_rowdot(const float *a, float *da, const float *x,
                            float *dx, float *y, float *dy, int n) {
  __enzyme_autodiff((void *)rowdot, enzyme_dup, a, da, enzyme_dup, x, dx,
                    enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_rowdot
// CHECK: atomicrmw fadd ptr {{.*}}, float
// CHECK: ret void

__global__ void grad_springs(const double *x, double *dx, double *e,
                             double *de, int n) {
  __enzyme_autodiff((void *)springs, enzyme_dup, x, dx, enzyme_dup, e, de, n);
}
// CHECK-LABEL: define {{.*}}grad_springs
// OPT-NOT: atomicrmw
// CHECK: ret void

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Each gradient kernel with a seed ybar in the output's shadow and a
// non-zero starting gradient g0 in the input's shadow, against g0 plus the
// central differences of L(x) = <ybar, F(x)> (a double host copy of F) in
// every input element; also the primal outputs, and the seeds: consumed
// (zero) where F writes, untouched where it does not (stencil's y[n-1]).
// At -O0 every shadow update is atomic (see the top), at -O2 most are not.

#include "include/devcheck.h"

// F for each kernel's function, as a map from the inputs to all outputs.
static std::vector<double> hostSquare(const std::vector<double> &x) {
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = x[i] * x[i] * std::sin(x[i]);
  return y;
}
static std::vector<double> hostStencil(const std::vector<double> &x) {
  std::vector<double> y(x.size() - 1); // y[n-1] is not written
  for (size_t i = 0; i + 1 < x.size(); ++i)
    y[i] = x[i] * x[i + 1];
  return y;
}
static double hostSpring(double a, double b) {
  double d = b - a - 1.0;
  return 0.5 * d * d + 0.1 * std::exp(-a * b);
}
static std::vector<double> hostSprings(const std::vector<double> &x) {
  std::vector<double> e(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    e[i] = hostSpring(x[i], 2.0 * x[i] + 0.5);
  return e;
}
// rowdot's inputs as one vector: a (n x n, row-major), then x (n).
static std::vector<double> hostRowdot(const std::vector<double> &ax, int n) {
  std::vector<double> t(n), y(n, 0.0);
  for (int j = 0; j < n; ++j)
    t[j] = std::tanh(ax[n * n + j]);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      y[i] += ax[i * n + j] * t[j];
  return y;
}

// g0 + the central differences of <ybar, F> in each element of u.
template <class F>
static std::vector<double> fdGradient(F f, std::vector<double> u,
                                      const std::vector<double> &ybar,
                                      const std::vector<double> &g0, double h) {
  auto dot = [&](const std::vector<double> &y) {
    double s = 0;
    for (size_t i = 0; i < y.size(); ++i)
      s += ybar[i] * y[i];
    return s;
  };
  std::vector<double> g(u.size());
  for (size_t j = 0; j < u.size(); ++j) {
    double uj = u[j];
    u[j] = uj + h;
    double lp = dot(f(u));
    u[j] = uj - h;
    double lm = dot(f(u));
    u[j] = uj;
    g[j] = g0[j] + (lp - lm) / (2 * h);
  }
  return g;
}

// The shadow after a reverse call: seeds consumed where the primal wrote.
static void expectSeeds(Tol &t, const char *what, const std::vector<double> &dy,
                        const std::vector<double> &seed, size_t written) {
  for (size_t i = 0; i < dy.size(); ++i)
    expectNear(t, what, (int)i, dy[i], i < written ? 0.0 : seed[i]);
}

int main() {
  providePool(1024); // the data-dependent loop's tape grows in the arena
  // Double central differences with h = 1e-6 of L = <ybar, F>, a sum of
  // n = 300 terms of size ~1: rounding ~300 * 1e-16 / 1e-6 = 3e-8 and
  // truncation ~h^2, both well below 1e-6 relative to max(|g|, 1).
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // Primal outputs and consumed seeds: the same arithmetic, FMA contraction.
  Tol exact{"primal", 1e-13};
  // rowdot is float: each gradient element is a float sum of up to n = 64
  // products (atomic adds in any order), rounding ~64 * 6e-8; 1e-4 relative
  // to max(|g|, 1) covers it and is far below a wrong rule's error.
  Tol flt{"float", 1e-4};

  const int n = 300, block = 128, grid = (n + block - 1) / block;
  std::vector<double> x(n), ybar(n), g0(n), zero(n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = 2.0 * std::sin(0.37 * i + 0.1);
    ybar[i] = 0.5 + 0.5 * std::cos(0.23 * i);
    g0[i] = 0.1 * std::sin(0.5 * i); // the gradients are added to it
  }

  // grad_square, grad_square_may_alias, grad_stencil, grad_springs: the
  // same inputs and seeds.
  struct DoubleCase {
    const char *name;
    void (*kernel)(const double *, double *, double *, double *, int);
    std::vector<double> (*f)(const std::vector<double> &);
  };
  const DoubleCase cases[] = {
      {"square", grad_square, hostSquare},
      {"square_may_alias", grad_square_may_alias, hostSquare},
      {"stencil", grad_stencil, hostStencil},
      {"springs", grad_springs, hostSprings}};
  std::vector<double *> dxs, ys, dys;
  for (const DoubleCase &c : cases) {
    double *dX = deviceCopy(x), *dDx = deviceCopy(g0);
    double *dY = deviceCopy(zero), *dDy = deviceCopy(ybar);
    hipLaunchKernelGGL(c.kernel, dim3(grid), dim3(block), 0, 0, dX, dDx, dY,
                       dDy, n);
    CHECK(hipGetLastError());
    dxs.push_back(dDx), ys.push_back(dY), dys.push_back(dDy);
  }

  // grad_rowdot on n = 64 (a is n x n), float.
  const int nr = 64;
  std::vector<float> a(nr * nr), xr(nr), ybarr(nr), g0a(nr * nr), g0x(nr);
  for (int i = 0; i < nr * nr; ++i) {
    a[i] = 0.5f * std::sin(0.1f * i);
    g0a[i] = 0.01f * (i % 7);
  }
  for (int j = 0; j < nr; ++j) {
    xr[j] = 1.5f * std::cos(0.3f * j);
    ybarr[j] = 1.0f - 0.01f * j;
    g0x[j] = -0.05f * (j % 5);
  }
  float *dA = deviceCopy(a), *dDa = deviceCopy(g0a);
  float *dXr = deviceCopy(xr), *dDxr = deviceCopy(g0x);
  float *dYr = deviceCopy(std::vector<float>(nr, 0.0f)),
        *dDyr = deviceCopy(ybarr);
  grad_rowdot<<<1, nr>>>(dA, dDa, dXr, dDxr, dYr, dDyr, nr);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    std::vector<double> g = hostCopy(dxs[c], n), y = hostCopy(ys[c], n),
                        dy = hostCopy(dys[c], n);
    std::vector<double> want = fdGradient(cases[c].f, x, ybar, g0, H);
    std::vector<double> wantY = cases[c].f(x);
    char what[64];
    std::snprintf(what, sizeof what, "%s dx", cases[c].name);
    for (int j = 0; j < n; ++j)
      expectNear(fd, what, j, g[j], want[j]);
    std::snprintf(what, sizeof what, "%s y", cases[c].name);
    for (size_t i = 0; i < wantY.size(); ++i)
      expectNear(exact, what, (int)i, y[i], wantY[i]);
    std::snprintf(what, sizeof what, "%s dy (seed)", cases[c].name);
    expectSeeds(exact, what, dy, ybar, wantY.size());
  }

  std::vector<double> ax(nr * nr + nr), ybarD(ybarr.begin(), ybarr.end()),
      g0ax(nr * nr + nr);
  for (int i = 0; i < nr * nr; ++i)
    ax[i] = a[i], g0ax[i] = g0a[i];
  for (int j = 0; j < nr; ++j)
    ax[nr * nr + j] = xr[j], g0ax[nr * nr + j] = g0x[j];
  std::vector<double> want = fdGradient(
      [&](const std::vector<double> &u) { return hostRowdot(u, nr); }, ax,
      ybarD, g0ax, H);
  std::vector<float> da = hostCopy(dDa, nr * nr), dxr = hostCopy(dDxr, nr),
                     yr = hostCopy(dYr, nr), dyr = hostCopy(dDyr, nr);
  for (int i = 0; i < nr * nr; ++i)
    expectNear(flt, "rowdot da", i, da[i], want[i]);
  for (int j = 0; j < nr; ++j)
    expectNear(flt, "rowdot dx", j, dxr[j], want[nr * nr + j]);
  std::vector<double> wantYr = hostRowdot(ax, nr);
  for (int i = 0; i < nr; ++i) {
    expectNear(flt, "rowdot y", i, yr[i], wantYr[i]);
    expectNear(flt, "rowdot dy (seed)", i, dyr[i], 0.0);
  }

  return finish("square, square_may_alias, stencil, springs (n=300) and "
                "float rowdot (64x64): g0 + J^T ybar vs central FD h=1e-6 of "
                "<ybar, F>, primal outputs, consumed seeds",
                {&fd, &exact, &flt});
}
