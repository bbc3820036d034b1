// Reverse mode in device code: kernels that call __enzyme_autodiff on device
// functions without barriers or shared memory.  Shadow updates to memory
// another thread may touch are atomic; a slot of the thread's own index
// (x[blockIdx.x * blockDim.x + threadIdx.x]) is a plain read-add-write --
// when optimised: at -O0 the index comes from a call to gid(), which the
// analysis does not look into, so the adds stay atomic (correct, slower).
// Thread ids are inactive; loops keep their tape per thread; a call to a
// noinline device function goes through its split halves.  The PTX must pass
// ptxas at every optimisation level.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --input-file=%t.O0.ll
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefixes=CHECK,OPT --input-file=%t.O2.ll
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

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

// y[i] = x[i] max_{|j-i|<=4} sin(3 x[j]) (indices clamped): a running
// maximum, whose reverse sweep keeps only the last iteration that raised it.
__device__ void window_max(const double *x, double *y, int n) {
  int i = gid();
  if (i >= n)
    return;
  double m = -2.0;
  for (int j = i - 4; j <= i + 4; ++j)
    m = fmax(m, sin(3.0 * x[min(max(j, 0), n - 1)]));
  y[i] = m * x[i];
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
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("device")
// CHECK: ret void

__global__ void grad_stencil(const double *x, double *dx, double *y,
                             double *dy, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, n);
}
// CHECK-LABEL: define {{.*}}grad_stencil
// CHECK: atomicrmw fadd ptr {{.*}} syncscope("device")
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

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Every gradient against central differences of the seeded loss
// L = <ybar, y(x)> of a host copy, one input element at a time; the
// gradient is *added* to the shadow, so the shadows start nonzero and the
// check is on the increase; the seeds of the outputs the function wrote are
// consumed (zero afterwards), the others kept.  Forward kernels of the same
// functions (below) give the dot-product test <ydot, ybar> = <xdot, xbar>.

__global__ void grad_window_max(const double *x, double *dx, double *y,
                                double *dy, int n) {
  __enzyme_autodiff((void *)window_max, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    n);
}

__global__ void tangent_window_max(const double *x, const double *xd,
                                   double *y, double *yd, int n) {
  __enzyme_fwddiff<void>((void *)window_max, enzyme_dup, x, xd, enzyme_dup, y,
                         yd, enzyme_const, n);
}

__global__ void tangent_square(const double *x, const double *xd, double *y,
                               double *yd, int n) {
  __enzyme_fwddiff<void>((void *)square, enzyme_dup, x, xd, enzyme_dup, y, yd,
                         enzyme_const, n);
}

__global__ void tangent_stencil(const double *x, const double *xd, double *y,
                                double *yd, int n) {
  __enzyme_fwddiff<void>((void *)stencil, enzyme_dup, x, xd, enzyme_dup, y, yd,
                         enzyme_const, n);
}

__global__ void tangent_rowdot(const float *a, const float *ad, const float *x,
                               const float *xd, float *y, float *yd, int n) {
  __enzyme_fwddiff<void>((void *)rowdot, enzyme_dup, a, ad, enzyme_dup, x, xd,
                         enzyme_dup, y, yd, enzyme_const, n);
}

__global__ void tangent_springs(const double *x, const double *xd, double *e,
                                double *ed, int n) {
  __enzyme_fwddiff<void>((void *)springs, enzyme_dup, x, xd, enzyme_dup, e, ed,
                         enzyme_const, n);
}

#include "include/devcheck.h"

const double H = 1e-6;

// dL/dx_j by central differences, for every j.
template <class Loss>
std::vector<double> fdGradient(Loss loss, std::vector<double> x) {
  std::vector<double> g(x.size());
  for (size_t j = 0; j < x.size(); ++j) {
    double xj = x[j];
    x[j] = xj + H;
    double lp = loss(x);
    x[j] = xj - H;
    double lm = loss(x);
    x[j] = xj;
    g[j] = (lp - lm) / (2 * H);
  }
  return g;
}

static double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

template <class T> std::vector<double> toDouble(const std::vector<T> &v) {
  return std::vector<double>(v.begin(), v.end());
}

// Host copies of the outputs (y[i] for the i the function writes).
static double hostSquare(double x) { return x * x * std::sin(x); }
static double hostSpring(double a, double b) {
  double d = b - a - 1.0;
  return 0.5 * d * d + 0.1 * std::exp(-a * b);
}
static double hostSprings(double x) { return hostSpring(x, 2.0 * x + 0.5); }
static double hostWindowMax(const std::vector<double> &x, int i) {
  int n = x.size();
  double m = -2.0;
  for (int j = i - 4; j <= i + 4; ++j)
    m = std::fmax(m, std::sin(3.0 * x[std::min(std::max(j, 0), n - 1)]));
  return m * x[i];
}

const int kBlock = 128;
static int grid(int n) { return (n + kBlock - 1) / kBlock; }

// Double central differences with h = 1e-6: error ~1e-9 here.
static Tol fd{"fd", 1e-6};
// The primal outputs: the same double expressions (FMA contraction).
static Tol primal{"primal", 1e-13};
// <ydot, ybar> = <xdot, xbar>: the same products summed in another order,
// ~1e-15 relative for double.
static Tol dotTol{"dot", 1e-10};
// rowdot is float: each gradient sums 64 float products (atomically, in any
// order), each y_i 64 terms; with |a| <= 0.25, |ybar| <= 1 the rounding is
// below ~1e-5 of max(|g|, 1).
static Tol flt{"float", 1e-4};

// An elementwise-indexed double function f: y[i] = out(x, i) for the i
// where written(i).  Runs the gradient kernel and the tangent kernel and
// checks both.
template <class Grad, class Tangent, class Out, class Written>
void checkDouble(const char *name, Grad grad, Tangent tangent, Out out,
                 Written written, int n) {
  std::vector<double> x(n), xbar0(n), ybar(n), xdot(n), sentinel(n, 777.0);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.5 + 3.0 * (i + 0.5) / n;
    xbar0[i] = 0.125 * (i % 4); // the gradient adds to this
    ybar[i] = 1.0 - 0.5 * std::cos(0.2 * i);
    xdot[i] = 0.5 + 0.25 * std::sin(0.3 * i);
  }
  double *dX = deviceCopy(x), *dXbar = deviceCopy(xbar0),
         *dY = deviceCopy(sentinel), *dYbar = deviceCopy(ybar);
  grad<<<grid(n), kBlock>>>(dX, dXbar, dY, dYbar, n);
  CHECK(cudaGetLastError());
  double *dXdot = deviceCopy(xdot), *dY2 = deviceCopy(sentinel),
         *dYdot = deviceCopy(std::vector<double>(n, 0.0));
  tangent<<<grid(n), kBlock>>>(dX, dXdot, dY2, dYdot, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> y = hostCopy(dY, n), xbar = hostCopy(dXbar, n),
                      ybarAfter = hostCopy(dYbar, n),
                      ydot = hostCopy(dYdot, n);

  auto loss = [&](const std::vector<double> &v) {
    double s = 0;
    for (int i = 0; i < n; ++i)
      if (written(i))
        s += ybar[i] * out(v, i);
    return s;
  };
  std::vector<double> g = fdGradient(loss, x);
  char what[64];
  for (int i = 0; i < n; ++i) {
    std::snprintf(what, sizeof what, "%s y", name);
    expectNear(primal, what, i, y[i], written(i) ? out(x, i) : 777.0);
    std::snprintf(what, sizeof what, "%s xbar", name);
    expectNear(fd, what, i, xbar[i] - xbar0[i], g[i]);
    std::snprintf(what, sizeof what, "%s ybar after", name);
    expectNear(primal, what, i, ybarAfter[i], written(i) ? 0.0 : ybar[i]);
  }
  for (int i = 0; i < n; ++i)
    xbar[i] -= xbar0[i];
  std::snprintf(what, sizeof what, "%s <ydot,ybar>", name);
  expectNear(dotTol, what, 0, dot(ydot, ybar), dot(xdot, xbar));
}

static void checkRowdot(int n) {
  std::vector<float> a(n * n), x(n), ybar(n), abar0(n * n), xbar0(n),
      adot(n * n), xdot(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -2.0f + 4.0f * (float)(i + 0.5) / n;
    ybar[i] = 1.0f - 0.5f * (float)(i % 5) / 2;
    xbar0[i] = 0.5f;
    xdot[i] = 0.5f + 0.25f * std::sin(0.3f * (float)i);
    for (int j = 0; j < n; ++j) {
      a[i * n + j] = 0.25f * std::cos(0.7f * (float)(i * n + j));
      abar0[i * n + j] = -0.25f;
      adot[i * n + j] = 0.1f * std::sin(1.3f * (float)(i + 2 * j));
    }
  }
  float *dA = deviceCopy(a), *dAbar = deviceCopy(abar0), *dX = deviceCopy(x),
        *dXbar = deviceCopy(xbar0),
        *dY = deviceCopy(std::vector<float>(n, 777.0f)),
        *dYbar = deviceCopy(ybar);
  grad_rowdot<<<grid(n), kBlock>>>(dA, dAbar, dX, dXbar, dY, dYbar, n);
  CHECK(cudaGetLastError());
  float *dAdot = deviceCopy(adot), *dXdot = deviceCopy(xdot),
        *dY2 = deviceCopy(std::vector<float>(n, 777.0f)),
        *dYdot = deviceCopy(std::vector<float>(n, 0.0f));
  tangent_rowdot<<<grid(n), kBlock>>>(dA, dAdot, dX, dXdot, dY2, dYdot, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> y = toDouble(hostCopy(dY, n)),
                      abar = toDouble(hostCopy(dAbar, n * n)),
                      xbar = toDouble(hostCopy(dXbar, n)),
                      ybarAfter = toDouble(hostCopy(dYbar, n)),
                      ydot = toDouble(hostCopy(dYdot, n));

  // In double, at the float inputs.
  std::vector<double> ad = toDouble(a), xd = toDouble(x), yb = toDouble(ybar);
  auto row = [&](const std::vector<double> &am, const std::vector<double> &xv,
                 int i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += am[i * n + j] * std::tanh(xv[j]);
    return s;
  };
  auto lossX = [&](const std::vector<double> &xv) {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += yb[i] * row(ad, xv, i);
    return s;
  };
  std::vector<double> gx = fdGradient(lossX, xd);
  for (int i = 0; i < n; ++i) {
    expectNear(flt, "rowdot y", i, y[i], row(ad, xd, i));
    expectNear(flt, "rowdot xbar", i, xbar[i] - xbar0[i], gx[i]);
    expectNear(primal, "rowdot ybar after", i, ybarAfter[i], 0.0);
    for (int j = 0; j < n; ++j) {
      // Only row i depends on a[i][j].
      double aij = ad[i * n + j];
      ad[i * n + j] = aij + H;
      double rp = row(ad, xd, i);
      ad[i * n + j] = aij - H;
      double rm = row(ad, xd, i);
      ad[i * n + j] = aij;
      expectNear(flt, "rowdot abar", i * n + j,
                 abar[i * n + j] - abar0[i * n + j],
                 yb[i] * (rp - rm) / (2 * H));
    }
  }
  for (int k = 0; k < n * n; ++k)
    abar[k] -= abar0[k];
  for (int i = 0; i < n; ++i)
    xbar[i] -= xbar0[i];
  expectNear(flt, "rowdot <ydot,ybar>", 0, dot(ydot, yb),
             dot(toDouble(adot), abar) + dot(toDouble(xdot), xbar));
}

int main() {
  const int n = 300;
  providePool(1024); // the data-dependent loop's tape grows in the arena
  auto all = [&](int i) { return i < n; };
  checkDouble(
      "square", grad_square, tangent_square,
      [](const std::vector<double> &v, int i) { return hostSquare(v[i]); },
      all, n);
  checkDouble(
      "square_may_alias", grad_square_may_alias, tangent_square,
      [](const std::vector<double> &v, int i) { return hostSquare(v[i]); },
      all, n);
  checkDouble(
      "stencil", grad_stencil, tangent_stencil,
      [](const std::vector<double> &v, int i) { return v[i] * v[i + 1]; },
      [&](int i) { return i + 1 < n; }, n);
  checkDouble(
      "springs", grad_springs, tangent_springs,
      [](const std::vector<double> &v, int i) { return hostSprings(v[i]); },
      all, n);
  checkDouble("window_max", grad_window_max, tangent_window_max,
              hostWindowMax, all, n);
  checkRowdot(64);
  return finish("reverse gradients of square, square_may_alias, stencil, "
                "springs, window_max (n=300) and float rowdot (64x64) vs central FD h=1e-6 "
                "of <ybar, y>, seeds consumed, dot-product test against "
                "forward kernels",
                {&fd, &primal, &dotTol, &flt});
}
