// A __host__ __device__ function differentiated both from host code and from
// a kernel in the same file.  The device compilation must handle the kernel's
// request (and leave the host function's request alone: the host function is
// not emitted for the device), and the host compilation must handle the host
// request and ignore the kernel (it only sees the launch stub).  Both sides
// are checked for leftover requests and markers: the host object must not
// reference __enzyme_* or enzyme_* symbols.
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
//
// Host side, at each level: an object without request or marker symbols.
// RUN: %gpuad-cc --cuda-host-only -O0 -c %s -o %t.host.O0.o
// RUN: llvm-nm %t.host.O0.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.O2.o
// RUN: llvm-nm %t.host.O2.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc --cuda-host-only -O3 -c %s -o %t.host.O3.o
// RUN: llvm-nm %t.host.O3.o | FileCheck %s --check-prefix=HOST

#include <gpuad/gpuad.h>

__host__ __device__ double model(double x, double k) {
  return k * x * x + sin(x) * exp(-k * x);
}

__global__ void host_device_kernel(const double *x, const double *k, double *d,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x[i], 1.0,
                                    enzyme_const, k[i]);
}

// The same derivative on the host, e.g. to check the kernel's results.
double host_derivative(double x, double k) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_const, k);
}

// A __host__ __device__ caller that itself makes the request: compiled on
// both sides.
__host__ __device__ double dual_caller(double x) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_dup, 2.0, 0.5);
}

__global__ void dual_kernel(const double *x, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = dual_caller(x[i]);
}

// CHECK-DAG: .entry {{.*}}host_device_kernel
// CHECK-DAG: .entry {{.*}}dual_kernel

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// The host object defines the host caller and no request is left.
// HOST-NOT: enzyme
// HOST: T {{.*}}host_derivative
// HOST-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// Both kernels against central differences of model on the host (it is
// __host__ __device__), and against the host's own request
// (host_derivative, dual_caller called on the host).

#include "include/devcheck.h"

int main() {
  const double H = 1e-6; // double central differences: error ~1e-10 here
  Tol fd{"fd", 1e-6};
  // The same derivative computed by the host and the device compilation of
  // the request: equal up to libm vs libdevice (1 ulp) and FMA contraction.
  Tol hostReq{"host-request", 1e-13};

  const int n = 700;
  std::vector<double> x(n), k(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -2.0 + 4.0 * (i + 0.5) / n;
    k[i] = 0.2 + 1.8 * (double)((i * 17) % n) / n;
  }
  double *dX = deviceCopy(x), *dK = deviceCopy(k);
  double *dD = deviceCopy(std::vector<double>(n, 0.0)),
         *dDual = deviceCopy(std::vector<double>(n, 0.0));
  const int block = 128, grid = (n + block - 1) / block;
  host_device_kernel<<<grid, block>>>(dX, dK, dD, n);
  CHECK(cudaGetLastError());
  dual_kernel<<<grid, block>>>(dX, dDual, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> d = hostCopy(dD, n), dual = hostCopy(dDual, n);

  for (int i = 0; i < n; ++i) {
    double v = x[i];
    // d/dx model(x, k) with k constant.
    double want = (model(v + H, k[i]) - model(v - H, k[i])) / (2 * H);
    expectNear(fd, "d/dx model", i, d[i], want);
    expectNear(hostReq, "d/dx model vs host_derivative", i, d[i],
               host_derivative(v, k[i]));
    // dual_caller: along (dx, dk) = (1, 0.5) at k = 2.
    double wantDual =
        (model(v + H, 2.0 + 0.5 * H) - model(v - H, 2.0 - 0.5 * H)) / (2 * H);
    expectNear(fd, "dual_caller", i, dual[i], wantDual);
    expectNear(hostReq, "dual_caller vs host", i, dual[i], dual_caller(v));
  }
  return finish("d/dx model and dual_caller's directional derivative vs "
                "central FD h=1e-6 and vs the same requests on the host; n=700",
                {&fd, &hostReq});
}
