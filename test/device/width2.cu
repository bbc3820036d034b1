// Vector forward mode on the device: enzyme_width 2 computes two directional
// derivatives per request.  The result is declared with the C++ template form
// as a struct of two doubles (or floats); every dup argument carries two
// shadows.  enzyme_dupv gives the shadows of a pointer as one base plus a byte
// stride (lane v's shadow at base + v*stride), here a [2][n] shadow array.
// Width-2 shadows become <2 x double> values that NVPTX must legalize, at
// -O0 too.
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

struct Vec2 {
  double d[2];
};
struct Vec2f {
  float f[2];
};

__device__ double g(double x, double y) { return sin(x) * y + exp(x * y); }

__device__ float h(const float *a, int i) { return a[i] * logf(a[i] + 2.0f); }

__device__ void store_sq(const double *x, double *y, int i) {
  y[i] = x[i] * x[i] * cos(x[i]);
}

__global__ void width2(const double *x, const double *y, Vec2 *grad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // The gradient of g in one request: directions e_x and e_y.
  grad[i] = __enzyme_fwddiff<Vec2>((void *)g, enzyme_width, 2, enzyme_dup,
                                   x[i], 1.0, 0.0, enzyme_dup, y[i], 0.0, 1.0);
}

__global__ void width2_pointers(const float *a, const float *da0,
                                const float *da1, Vec2f *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __enzyme_fwddiff<Vec2f>((void *)h, enzyme_width, 2, enzyme_dup, a,
                                     da0, da1, enzyme_const, i);
}

// dx and dy are [2][n]: lane v's shadow starts at dx + v*n.
__global__ void width2_dupv(const double *x, const double *dx, double *y,
                            double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_fwddiff<void>((void *)store_sq, enzyme_width, 2, enzyme_dupv,
                           (long)(n * sizeof(double)), x, dx, enzyme_dupv,
                           (long)(n * sizeof(double)), y, dy, enzyme_const, i);
}

// CHECK-DAG: .entry {{.*}}width2P
// CHECK-DAG: .entry {{.*}}width2_pointers
// CHECK-DAG: .entry {{.*}}width2_dupv

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Each lane of each width-2 kernel against the single-width request along
// the same direction (the kernels below), and against central differences
// of a host copy.

// Single-width references: one request per lane.
__global__ void single_g(const double *x, const double *y, double sx,
                         double sy, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)g, enzyme_dup, x[i], sx,
                                    enzyme_dup, y[i], sy);
}

__global__ void single_h(const float *a, const float *da, float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<float>((void *)h, enzyme_dup, a, da, enzyme_const,
                                   i);
}

__global__ void single_store_sq(const double *x, const double *dx, double *y,
                                double *dy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_fwddiff<void>((void *)store_sq, enzyme_dup, x, dx, enzyme_dup, y,
                           dy, enzyme_const, i);
}

#include "include/devcheck.h"

static double hostG(double x, double y) {
  return std::sin(x) * y + std::exp(x * y);
}
static double hostH(double a) { return a * std::log(a + 2.0); }
static double hostStoreSq(double x) { return x * x * std::cos(x); }

int main() {
  // Double central differences with h = 1e-6: error ~1e-9 here.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // h is float: ~1e-7 per operation (logf within 1 ulp) vs the double
  // slope at the same float point.
  Tol flt{"float fd", 1e-5};
  // A lane and the single-width request run the same operations; only how
  // they are contracted into FMAs may differ: a few ulps.
  Tol lane{"lane", 1e-14};
  Tol lanef{"float lane", 1e-6};
  // y of store_sq, written by both kernels: the same expression.
  Tol primal{"primal", 1e-13};

  const int n = 300, block = 128, grid = (n + block - 1) / block;
  std::vector<double> x(n), y(n), dx(2 * n);
  std::vector<float> a(n), da0(n), da1(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -1.0 + 2.0 * (i + 0.5) / n;
    y[i] = 0.5 + std::sin(0.1 * i);
    dx[i] = 1.0 + 0.5 * std::cos(0.2 * i); // lane 0
    dx[n + i] = -0.3 + 0.01 * (i % 50);    // lane 1
    a[i] = -1.5f + 4.0f * (float)((i * 7) % n) / n; // log(a + 2): a > -2
    da0[i] = 1.0f;
    da1[i] = 0.5f - 0.003f * (float)i;
  }
  double *dX = deviceCopy(x), *dYin = deviceCopy(y), *dDx = deviceCopy(dx);
  float *dA = deviceCopy(a), *dDa0 = deviceCopy(da0), *dDa1 = deviceCopy(da1);
  Vec2 *dGrad = deviceCopy(std::vector<Vec2>(n));
  Vec2f *dOutf = deviceCopy(std::vector<Vec2f>(n));
  double *dY = deviceCopy(std::vector<double>(n, 777.0)),
         *dDy = deviceCopy(std::vector<double>(2 * n, 777.0));
  width2<<<grid, block>>>(dX, dYin, dGrad, n);
  CHECK(cudaGetLastError());
  width2_pointers<<<grid, block>>>(dA, dDa0, dDa1, dOutf, n);
  CHECK(cudaGetLastError());
  width2_dupv<<<grid, block>>>(dX, dDx, dY, dDy, n);
  CHECK(cudaGetLastError());

  // The single-width runs, lane by lane.
  double *dSg[2], *dSy[2], *dSdy[2];
  float *dSh[2];
  for (int v = 0; v < 2; ++v) {
    dSg[v] = deviceCopy(std::vector<double>(n, 0.0));
    single_g<<<grid, block>>>(dX, dYin, v == 0 ? 1.0 : 0.0, v == 1 ? 1.0 : 0.0,
                              dSg[v], n);
    CHECK(cudaGetLastError());
    dSh[v] = deviceCopy(std::vector<float>(n, 0.0f));
    single_h<<<grid, block>>>(dA, v == 0 ? dDa0 : dDa1, dSh[v], n);
    CHECK(cudaGetLastError());
    dSy[v] = deviceCopy(std::vector<double>(n, 777.0));
    dSdy[v] = deviceCopy(std::vector<double>(n, 777.0));
    single_store_sq<<<grid, block>>>(dX, dDx + v * n, dSy[v], dSdy[v], n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<Vec2> grad = hostCopy(dGrad, n);
  std::vector<Vec2f> outf = hostCopy(dOutf, n);
  std::vector<double> ySq = hostCopy(dY, n), dySq = hostCopy(dDy, 2 * n);

  for (int v = 0; v < 2; ++v) {
    std::vector<double> sg = hostCopy(dSg[v], n), sy = hostCopy(dSy[v], n),
                        sdy = hostCopy(dSdy[v], n);
    std::vector<float> sh = hostCopy(dSh[v], n);
    const float *dav = v == 0 ? da0.data() : da1.data();
    for (int i = 0; i < n; ++i) {
      // g: lane 0 is d/dx, lane 1 d/dy.
      double ex = v == 0 ? H : 0.0, ey = v == 1 ? H : 0.0;
      expectNear(lane, "width2 lane vs single", 2 * i + v, grad[i].d[v],
                 sg[i]);
      expectNear(fd, "width2", 2 * i + v, grad[i].d[v],
                 (hostG(x[i] + ex, y[i] + ey) - hostG(x[i] - ex, y[i] - ey)) /
                     (2 * H));
      // h: lane v along da_v.
      expectNear(lanef, "width2_pointers lane vs single", 2 * i + v,
                 outf[i].f[v], sh[i]);
      double ai = a[i];
      expectNear(flt, "width2_pointers", 2 * i + v, outf[i].f[v],
                 (hostH(ai + H * dav[i]) - hostH(ai - H * dav[i])) / (2 * H));
      // store_sq: lane v's shadow at dy + v n.
      double xi = x[i], d = dx[v * n + i];
      expectNear(lane, "width2_dupv lane vs single", v * n + i, dySq[v * n + i],
                 sdy[i]);
      expectNear(fd, "width2_dupv", v * n + i, dySq[v * n + i],
                 (hostStoreSq(xi + H * d) - hostStoreSq(xi - H * d)) /
                     (2 * H));
      expectNear(primal, "single_store_sq y", i, sy[i], hostStoreSq(xi));
    }
  }
  for (int i = 0; i < n; ++i)
    expectNear(primal, "width2_dupv y", i, ySq[i], hostStoreSq(x[i]));
  return finish("each lane of width2 (gradient of g), width2_pointers (float, "
                "two shadow arrays), width2_dupv (strided shadows) vs the "
                "single-width request and central FD h=1e-6; n=300",
                {&fd, &flt, &lane, &lanef, &primal});
}
