// A differentiated __device__ function that takes pointers and writes its
// result through them: x and y are enzyme_dup with shadow arrays, the result
// has no return value (__enzyme_fwddiff<void>).  Forward mode writes the
// tangent of every store into the shadow of the destination.  Variants: a
// small per-thread stencil reading neighbours, an in-place update (the output
// aliases the input), a scalar result returned as well as stored, and an
// inactive (enzyme_const) pointer argument.
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

// y[i] = x[i-1] - 2 x[i] + x[i+1] + c[i] * x[i]^2 for interior i.
__device__ void stencil(const double *x, const double *c, double *y, int i,
                        int n) {
  if (i > 0 && i + 1 < n)
    y[i] = x[i - 1] - 2.0 * x[i] + x[i + 1] + c[i] * x[i] * x[i];
  else
    y[i] = 0.0;
}

// In place: x[i] = exp(x[i]) * x[i].
__device__ void scale_in_place(double *x, int i) { x[i] = exp(x[i]) * x[i]; }

// Stores a value and returns another: the request returns the shadow of the
// return value and writes the shadow of the store.
__device__ float store_and_return(const float *a, float *out, int i) {
  float v = a[i] * a[i];
  out[i] = sqrtf(v + 1.0f);
  return v * 3.0f;
}

__global__ void pointers(const double *x, const double *dx, const double *c,
                         double *y, double *dy, double *z, double *dz, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __enzyme_fwddiff<void>((void *)stencil, enzyme_dup, x, dx, enzyme_const, c,
                         enzyme_dup, y, dy, enzyme_const, i, enzyme_const, n);
  __enzyme_fwddiff<void>((void *)scale_in_place, enzyme_dup, z, dz,
                         enzyme_const, i);
}

__global__ void pointers_float(const float *a, const float *da, float *out,
                               float *dout, float *dret, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dret[i] = __enzyme_fwddiff<float>((void *)store_and_return, enzyme_dup, a,
                                      da, enzyme_dup, out, dout, enzyme_const,
                                      i);
}

// CHECK-DAG: .entry {{.*}}pointersPKd
// CHECK-DAG: .entry {{.*}}pointers_float

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// The stores' tangents (dy, the in-place dz, dout) and the returned tangent
// against central differences of host copies, each along the kernel's
// shadow direction; the primal stores against the host copies themselves.
// The outputs start as 777 so an element left unwritten shows.

#include "include/devcheck.h"

static double hostStencil(const std::vector<double> &x,
                          const std::vector<double> &c, int i) {
  int n = (int)x.size();
  if (i > 0 && i + 1 < n)
    return x[i - 1] - 2.0 * x[i] + x[i + 1] + c[i] * x[i] * x[i];
  return 0.0;
}

static double hostScale(double x) { return std::exp(x) * x; }

int main() {
  // Double central differences with h = 1e-6: error ~1e-9 here.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // The primal stores: the same double expressions (FMA contraction).
  Tol primal{"primal", 1e-13};
  // pointers_float: float tangents (~1e-7 per operation, sqrtf exact) vs
  // the double slope at the same float point.
  Tol flt{"float fd", 1e-5};

  const int n = 513, block = 128, grid = (n + block - 1) / block;
  std::vector<double> x(n), dx(n), c(n), z(n), dz(n);
  std::vector<float> a(n), da(n);
  for (int i = 0; i < n; ++i) {
    x[i] = std::sin(0.05 * i);
    dx[i] = 0.5 + 0.3 * std::cos(0.11 * i);
    c[i] = 0.1 * (i % 5);
    z[i] = -1.0 + 2.0 * (double)((i * 7) % n) / n;
    dz[i] = 1.0 - 0.002 * i;
    a[i] = -2.0f + 4.0f * (float)((i * 11) % n) / n;
    da[i] = 0.25f + 0.001f * (float)i;
  }
  std::vector<double> sentinel(n, 777.0);
  double *dX = deviceCopy(x), *dDx = deviceCopy(dx), *dC = deviceCopy(c);
  double *dY = deviceCopy(sentinel), *dDy = deviceCopy(sentinel);
  double *dZ = deviceCopy(z), *dDz = deviceCopy(dz);
  float *dA = deviceCopy(a), *dDa = deviceCopy(da);
  std::vector<float> sentinelf(n, 777.0f);
  float *dOut = deviceCopy(sentinelf), *dDout = deviceCopy(sentinelf),
        *dDret = deviceCopy(sentinelf);
  pointers<<<grid, block>>>(dX, dDx, dC, dY, dDy, dZ, dDz, n);
  CHECK(cudaGetLastError());
  pointers_float<<<grid, block>>>(dA, dDa, dOut, dDout, dDret, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> y = hostCopy(dY, n), dy = hostCopy(dDy, n),
                      zOut = hostCopy(dZ, n), dzOut = hostCopy(dDz, n);
  std::vector<float> out = hostCopy(dOut, n), dout = hostCopy(dDout, n),
                     dret = hostCopy(dDret, n);

  std::vector<double> xp(n), xm(n);
  for (int i = 0; i < n; ++i)
    xp[i] = x[i] + H * dx[i], xm[i] = x[i] - H * dx[i];
  for (int i = 0; i < n; ++i) {
    expectNear(primal, "y", i, y[i], hostStencil(x, c, i));
    expectNear(fd, "dy", i, dy[i],
               (hostStencil(xp, c, i) - hostStencil(xm, c, i)) / (2 * H));
    // In place: z and dz now hold the outputs.
    expectNear(primal, "z", i, zOut[i], hostScale(z[i]));
    expectNear(fd, "dz", i, dzOut[i],
               (hostScale(z[i] + H * dz[i]) - hostScale(z[i] - H * dz[i])) /
                   (2 * H));
    double ap = (double)a[i] + H * da[i], am = (double)a[i] - H * da[i];
    expectNear(flt, "out", i, out[i], std::sqrt((double)a[i] * a[i] + 1.0));
    expectNear(flt, "dout", i, dout[i],
               (std::sqrt(ap * ap + 1.0) - std::sqrt(am * am + 1.0)) /
                   (2 * H));
    expectNear(flt, "dret", i, dret[i],
               (3.0 * ap * ap - 3.0 * am * am) / (2 * H));
  }
  return finish("stencil y/dy, in-place z/dz, float out/dout and returned "
                "tangent vs host copies and central FD h=1e-6 along the "
                "shadows; n=513",
                {&fd, &primal, &flt});
}
