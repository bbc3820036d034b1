// A driver that stages its data through pinned host memory
// (cudaMallocHost / cudaHostAlloc, HIP's hipHostMalloc): the staging
// buffer's shadow is another pinned block, zeroed on the host and freed
// with cudaFreeHost / hipHostFree; async copies between it and device
// memory on a stream, a launch, and the loss read from the staging buffer.
// Checked: reverse against central differences (rtol 1e-6) and forward by
// the dot-product test (rtol 1e-10), at -O2 and -O0.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %gpuad-cc --emulate -O2 -x hip %s -o %t.hip && %t.hip | FileCheck %s
// CHECK: host-launch-pinned.cu: PASS

#include <gpuad/gpuad.h>

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif

#include <cstdlib>

constexpr int N = 40;

__global__ void wave(double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sin(y[i]) * y[i];
}

static void ok(int status) {
  if (status != 0)
    abort();
}

double loss(const double *x) {
  size_t bytes = N * sizeof(double);
  double *in, *out, *d;
#ifdef __HIP__
  ok(hipHostMalloc((void **)&in, bytes, hipHostMallocDefault));
  ok(hipHostMalloc((void **)&out, bytes, hipHostMallocDefault));
#else
  ok(cudaMallocHost((void **)&in, bytes));
  ok(cudaHostAlloc((void **)&out, bytes, cudaHostAllocDefault));
#endif
  ok(API(Malloc)(&d, bytes));
  API(Stream_t) s;
  ok(API(StreamCreate)(&s));
  for (int i = 0; i < N; ++i)
    in[i] = 2 * x[i];
  ok(API(MemcpyAsync)(d, in, bytes, API(MemcpyHostToDevice), s));
  wave<<<2, 32, 0, s>>>(d, N);
  ok(API(MemcpyAsync)(out, d, bytes, API(MemcpyDeviceToHost), s));
  ok(API(StreamSynchronize)(s));
  double r = 0;
  for (int i = 0; i < N; ++i)
    r += out[i] * (1 + 0.1 * i);
  ok(API(StreamDestroy)(s));
  ok(API(Free)(d));
#ifdef __HIP__
  ok(hipHostFree(in));
  ok(hipHostFree(out));
#else
  ok(cudaFreeHost(in));
  ok(cudaFreeHost(out));
#endif
  return r;
}

#include "include/devcheck.h"

int main() {
  std::vector<double> x(N), v(N), g(N, 0.0);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.05 * i - 0.7;
    v[i] = 0.3 - 0.02 * i;
  }
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10};
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x.data(), g.data());
  for (int i = 0; i < N; ++i) {
    std::vector<double> p = x, m = x;
    p[i] += 1e-6;
    m[i] -= 1e-6;
    expectNear(fd, "dloss/dx", i, g[i],
               (loss(p.data()) - loss(m.data())) / 2e-6);
  }
  std::vector<double> vd = v;
  double tangent = __enzyme_fwddiff<double>((void *)loss, enzyme_dup,
                                            x.data(), vd.data());
  expectNear(dot, "<g, v> = tangent", 0, tangent, dotProduct(g, v));
  return finish("staging through pinned host memory: reverse and forward",
                {&fd, &dot});
}
