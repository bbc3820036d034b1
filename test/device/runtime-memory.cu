// A host function that moves data through device memory with the CUDA
// runtime -- cudaMalloc, host-to-device, device-to-device and
// device-to-host cudaMemcpy, cudaMemcpyAsync on a stream, cudaMemset,
// cudaFree -- and finishes its loss on the host, differentiated from one
// host request: reverse mode, split mode, forward mode and a width-2
// reverse request.
// The derivatives give every device allocation a zeroed device shadow and
// move adjoints back through each copy in reverse.  Checked: the gradient
// against central differences (rtol 1e-6), the forward tangent against the
// gradient (the dot-product test, rtol 1e-12), the split-mode gradient and
// the two lanes against the single run (rtol 1e-13).  Natively, every copy the derivatives make is
// a runtime call (device memory is never read as host memory):
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// CHECK-LABEL: define internal void @_Z4lossPKdd.rev.dc
// CHECK-NOT: @llvm.memcpy
// CHECK: call i32 @cudaMalloc(
// CHECK-NOT: @llvm.memcpy
// CHECK: call i32 @cudaMemcpy(
// CHECK-NOT: @llvm.memcpy
// CHECK: ret void
// CHECK-LABEL: define internal double @_Z4lossPKdd.fwd
// CHECK-NOT: @llvm.memcpy
// CHECK: ret double

#include <gpuad/gpuad.h>

#include <cstdlib>

#ifdef __HIP__
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif

constexpr int N = 24;

/// The program's own error check (the derivative sees the runtime succeed).
static void ok(int status) {
  if (status != 0)
    abort();
}

double loss(const double *x, double scale) {
  double *a, *b;
  size_t bytes = N * sizeof(double);
  ok(API(Malloc)(&a, bytes));
  ok(API(Malloc)((void **)&b, 2 * bytes));
  ok(API(Memcpy)(a, x, bytes, API(MemcpyHostToDevice)));
  ok(API(Memset)(b, 0, 2 * bytes));
  ok(API(Memcpy)(b + N / 2, a, bytes, API(MemcpyDeviceToDevice)));
  API(Stream_t) s;
  ok(API(StreamCreate)(&s));
  // Overwrites a[0..N-2]: their adjoints before the copy are lost.
  ok(API(MemcpyAsync)(a, x + 1, bytes - sizeof(double), API(MemcpyHostToDevice), s));
  ok(API(StreamSynchronize)(s));
  ok(API(StreamDestroy)(s));
  ok(API(Memset)(b, 0, 4 * sizeof(double))); // b[0..3] = 0: no adjoint flows back
  double *h = (double *)malloc(3 * bytes);
  ok(API(Memcpy)(h, b, 2 * bytes, API(MemcpyDeviceToHost)));
  ok(API(Memcpy)(h + 2 * N, a, bytes, API(MemcpyDefault)));
  double sum = 0;
  for (int i = 0; i < 3 * N; ++i)
    sum += h[i] * h[i] * (1 + 0.1 * (i % 7)) * scale;
  free(h);
  ok(API(Free)(a));
  ok(API(Free)(b));
  return sum;
}

#include "include/devcheck.h"

int main() {
  std::vector<double> x(N), v(N);
  for (int i = 0; i < N; ++i) {
    x[i] = -1.0 + 0.09 * i;
    v[i] = 0.4 - 0.03 * i;
  }
  const double scale = 0.7;
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-12}, same{"same", 1e-13};

  std::vector<double> g(N, 0.0);
  __enzyme_autodiff<double>((void *)loss, enzyme_dup, x.data(), g.data(),
                            enzyme_const, scale);
  for (int i = 0; i < N; ++i) {
    std::vector<double> p = x, m = x;
    double step = 1e-6 * std::fmax(std::fabs(x[i]), 1.0);
    p[i] += step;
    m[i] -= step;
    expectNear(fd, "dloss/dx", i, g[i],
               (loss(p.data(), scale) - loss(m.data(), scale)) / (2 * step));
  }

  // Split mode: the forward sweep's device state crosses the tape.
  std::vector<double> gs(N, 0.0);
  void *tape = __enzyme_augmentfwd<void *>((void *)loss, enzyme_dup, x.data(),
                                           gs.data(), enzyme_const, scale,
                                           enzyme_noret);
  __enzyme_reverse<void>((void *)loss, enzyme_dup, x.data(), gs.data(),
                         enzyme_const, scale, 1.0, tape);
  for (int i = 0; i < N; ++i)
    expectNear(same, "split", i, gs[i], g[i]);

  std::vector<double> vd = v;
  double tangent = __enzyme_fwddiff<double>(
      (void *)loss, enzyme_dup, x.data(), vd.data(), enzyme_const, scale);
  double jv = 0;
  for (int i = 0; i < N; ++i)
    jv += g[i] * v[i];
  expectNear(dot, "<g, v> = tangent", 0, tangent, jv);

  std::vector<double> lanes(2 * N, 0.0);
  __enzyme_autodiff<void>((void *)loss, enzyme_width, 2, enzyme_dupv,
                          (int)(N * sizeof(double)), x.data(), lanes.data(),
                          enzyme_const, scale);
  for (int i = 0; i < N; ++i) {
    expectNear(same, "lane 0", i, lanes[i], g[i]);
    expectNear(same, "lane 1", i, lanes[N + i], g[i]);
  }
  return finish("a host driver's Malloc, Memcpy, Memset and Free in "
                "reverse, split, forward and width 2",
                {&fd, &dot, &same});
}
