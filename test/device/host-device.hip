// HIP: a __host__ __device__ function differentiated from host code and from
// a kernel in the same file, plus a __host__ __device__ caller that makes the
// request on both sides.  The device side must link (lld), the host object
// must not reference any __enzyme_* request or enzyme_* marker.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S %s -o %t.O0.s
// RUN: FileCheck %s --input-file=%t.O0.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.O2.s
// RUN: FileCheck %s --input-file=%t.O2.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -S %s -o %t.O3.s
// RUN: FileCheck %s --input-file=%t.O3.s
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.s
// RUN: %gpuad-cc -x hip --cuda-device-only -O3 -c %s -o %t.O3.o
//
// RUN: %gpuad-cc -x hip --cuda-host-only -O0 -c %s -o %t.host.O0.o
// RUN: llvm-nm %t.host.O0.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.O2.o
// RUN: llvm-nm %t.host.O2.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc -x hip --cuda-host-only -O3 -c %s -o %t.host.O3.o
// RUN: llvm-nm %t.host.O3.o | FileCheck %s --check-prefix=HOST

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__host__ __device__ double model(double x, double k) {
  return k * x * x + sin(x) * exp(-k * x);
}

__global__ void host_device_hip(const double *x, const double *k, double *d,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x[i], 1.0,
                                    enzyme_const, k[i]);
}

double host_derivative(double x, double k) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_const, k);
}

__host__ __device__ double dual_caller(double x) {
  return __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, 1.0,
                                  enzyme_dup, 2.0, 0.5);
}

__global__ void dual_kernel_hip(const double *x, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = dual_caller(x[i]);
}

// CHECK-DAG: .amdhsa_kernel {{.*}}host_device_hip
// CHECK-DAG: .amdhsa_kernel {{.*}}dual_kernel_hip

// NOSYM-NOT: enzyme

// HOST-NOT: enzyme
// HOST: T {{.*}}host_derivative
// HOST-NOT: enzyme

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----
// Both kernels against central differences of model itself (it is a host
// function too) and against the same requests compiled for the host
// (host_derivative, dual_caller).

#include "include/devcheck.h"

int main() {
  const double H = 1e-6; // double central differences: error ~1e-10 here
  Tol fd{"fd", 1e-6};
  // The same derivative computed by the host and the device compilation of
  // the request: equal up to libm vs ocml (1 ulp) and FMA contraction.
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
  hipLaunchKernelGGL(host_device_hip, dim3(grid), dim3(block), 0, 0, dX, dK, dD,
                     n);
  CHECK(hipGetLastError());
  dual_kernel_hip<<<grid, block>>>(dX, dDual, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
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
