// Registered derivatives of a __device__ function, used inside kernels'
// requests: softplus has a registered gradient (augmented + reverse, the
// tape a struct by value holding exp(-x)) and a registered forward
// derivative, both __device__ registrations as Enzyme's GPU users write
// them.  model() calls softplus twice, so reverse mode makes it a split
// call with the user's halves, forward mode a call of the user's tangent.
// The kernels' derivatives are checked against central differences of a
// host copy, reverse against forward mode (dot product), and the user's
// functions are counted (they must have run, once per thread and call).
//
// The HIP twin of custom-derivatives.cu (AMDGPU: the registrations live in
// global memory and hold generic pointers to the functions).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ll
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o
// NOSYM-NOT: __enzyme

#include <hip/hip_runtime.h>
#include <gpuad/gpuad.h>

__device__ __noinline__ double softplus(double x) { return log1p(exp(x)); }

__device__ unsigned augmentedCalls, reverseCalls, forwardCalls;

struct SoftplusTape {
  double expNegX;
};

__device__ SoftplusTape softplus_augmented(double x) {
  atomicAdd(&augmentedCalls, 1u);
  return {exp(-x)};
}
// softplus' result is used by model(): the augmented function returns
// {tape, result}.
struct SoftplusAugmented {
  SoftplusTape tape;
  double result;
};
__device__ SoftplusAugmented softplus_augmented_result(double x) {
  return {softplus_augmented(x), log1p(exp(x))};
}
__device__ double softplus_reverse(double x, double seed, SoftplusTape tape) {
  atomicAdd(&reverseCalls, 1u);
  return seed / (1.0 + tape.expNegX);
}
__device__ double softplus_forward(double x, double dx) {
  atomicAdd(&forwardCalls, 1u);
  return dx / (1.0 + exp(-x));
}

__device__ void *__enzyme_register_gradient_softplus[3] = {
    (void *)softplus, (void *)softplus_augmented_result,
    (void *)softplus_reverse};
__device__ void *__enzyme_register_derivative_softplus[2] = {
    (void *)softplus, (void *)softplus_forward};

__device__ double model(double x, double w) {
  return w * softplus(x * w) + softplus(-x) * x;
}

struct Pair {
  double dx, dw;
};

__global__ void gradients(const double *x, const double *w, double *gx,
                          double *gw, double *tx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Pair g = __enzyme_autodiff<Pair>((void *)model, enzyme_out, x[i],
                                   enzyme_out, w[i]);
  gx[i] = g.dx;
  gw[i] = g.dw;
  tx[i] = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x[i], 1.0,
                                   enzyme_const, w[i]);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests-hip.cmake ----

#include "include/devcheck.h"

static double hostModel(double x, double w) {
  auto sp = [](double v) { return std::log1p(std::exp(v)); };
  return w * sp(x * w) + sp(-x) * x;
}

int main() {
  const double H = 1e-6;
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-12};
  const int n = 200, block = 64, grid = (n + block - 1) / block;
  std::vector<double> x(n), w(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -2.0 + 4.0 * (i + 0.5) / n;
    w[i] = 0.5 + 0.01 * ((i * 13) % n);
  }
  double *dX = deviceCopy(x), *dW = deviceCopy(w);
  double *dGx = deviceCopy(std::vector<double>(n)),
         *dGw = deviceCopy(std::vector<double>(n)),
         *dTx = deviceCopy(std::vector<double>(n));
  gradients<<<grid, block>>>(dX, dW, dGx, dGw, dTx, n);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  std::vector<double> gx = hostCopy(dGx, n), gw = hostCopy(dGw, n),
                      tx = hostCopy(dTx, n);
  for (int i = 0; i < n; ++i) {
    double v = x[i], k = w[i];
    expectNear(fd, "d/dx model", i, gx[i],
               (hostModel(v + H, k) - hostModel(v - H, k)) / (2 * H));
    expectNear(fd, "d/dw model", i, gw[i],
               (hostModel(v, k + H) - hostModel(v, k - H)) / (2 * H));
    // The dot-product test along e_x: forward tangent = reverse adjoint.
    expectNear(dot, "<J e_x, 1> = <e_x, J^T 1>", i, tx[i], gx[i]);
  }
  unsigned calls[3];
  CHECK(hipMemcpyFromSymbol(&calls[0], HIP_SYMBOL(augmentedCalls),
                            sizeof(unsigned)));
  CHECK(hipMemcpyFromSymbol(&calls[1], HIP_SYMBOL(reverseCalls),
                            sizeof(unsigned)));
  CHECK(hipMemcpyFromSymbol(&calls[2], HIP_SYMBOL(forwardCalls),
                            sizeof(unsigned)));
  for (unsigned c : calls)
    if (c != 2u * n) {
      std::printf("custom-derivatives.hip: FAIL: registered functions ran "
                  "%u/%u/%u times, expected %d each\n",
                  calls[0], calls[1], calls[2], 2 * n);
      ++devcheck::failures;
      break;
    }
  return finish("registered gradient and derivative of a __device__ "
                "function, vs central FD h=1e-6 and reverse vs forward; "
                "n=200",
                {&fd, &dot});
}
