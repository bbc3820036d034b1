// Warp shuffles differentiated: __shfl_down/xor/up/_sync (with full and
// segment widths) and __shfl_sync (any source lane), of float and double,
// in forward mode (the tangent takes the same way between lanes) and reverse
// mode (the transpose: adjoints sent back and summed at the source lane).
// Each function y_l = w_l * g(v of the warp) is checked: forward against
// central finite differences of the primal kernel, reverse against forward
// by the dot-product test <vbar, dv> = <1, dy> (each lane seeds its output).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// The transposes: down is undone by up (and its own lane's read-own case),
// xor by xor, idx by a gather of every lane's adjoint and source lane; a
// double moves as two 32-bit halves, in forward and reverse mode.
// CHECK-LABEL: .entry _Z8gradientIfTnPFT_S0_S0_EXadL_Z8down_sumff
// CHECK: shfl.sync.down.b32
// CHECK: shfl.sync.up.b32
// CHECK-LABEL: .entry _Z7tangentIdTnPFT_S0_S0_EXadL_Z7xor_alldd
// CHECK-COUNT-4: shfl.sync.bfly.b32
// CHECK-LABEL: .entry _Z8gradientIdTnPFT_S0_S0_EXadL_Z10idx_gatherdd
// CHECK: shfl.sync.idx.b32
// CHECK-LABEL: .entry _Z8gradientIfTnPFT_S0_S0_EXadL_Z11xor_width16ff
// CHECK-NOT: shfl.sync.idx
// CHECK: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync.idx
// CHECK: ret;

#include <gpuad/gpuad.h>

constexpr unsigned Full = 0xffffffffu;

__device__ float down_sum(float v, float w) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(Full, v, o);
  return w * v * v;
}

__device__ double xor_all(double v, double w) {
  double t = v;
  for (int o = 16; o > 0; o /= 2)
    t += __shfl_xor_sync(Full, t, o);
  return w * sin(t) * v;
}

__device__ float up_scan(float v, float w) {
  int lane = threadIdx.x & 31;
  for (int o = 1; o < 32; o *= 2) {
    float t = __shfl_up_sync(Full, v, o);
    if (lane >= o)
      v += t;
  }
  return w * v * v;
}

__device__ double idx_gather(double v, double w) {
  int lane = threadIdx.x & 31;
  double t = __shfl_sync(Full, v, (lane + 1) & 31) + __shfl_sync(Full, v, 3) * v;
  return w * t;
}

__device__ float xor_width16(float v, float w) {
  for (int o = 8; o > 0; o /= 2)
    v += __shfl_xor_sync(Full, v, o, 16);
  return w * v * v;
}

// Segments of 8: lanes 5-7 of each segment read their own value.
__device__ float down_width8(float v, float w) {
  v += 2.0f * __shfl_down_sync(Full, v, 3, 8);
  return w * v * v;
}

template <class T, T (*G)(T, T)> __global__ void primal(const T *v, const T *w, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = G(v[i], w[i]);
}

template <class T, T (*G)(T, T)>
__global__ void tangent(const T *v, const T *dv, const T *w, T *dy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dy[i] = __enzyme_fwddiff<T>((void *)G, v[i], dv[i], enzyme_const, w[i]);
}

template <class T, T (*G)(T, T)>
__global__ void gradient(const T *v, const T *w, T *vbar) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  vbar[i] = __enzyme_autodiff<T>((void *)G, v[i], enzyme_const, w[i]);
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
#include "include/devcheck.h"

constexpr int Threads = 64; // two warps

template <class T, T (*G)(T, T)>
void check(const char *name, Tol &fdTol, Tol &dotTol, double h) {
  std::vector<T> v(Threads), dv(Threads), w(Threads);
  for (int i = 0; i < Threads; ++i) {
    v[i] = T(0.05 + 0.01 * ((i * 7) % 23));
    dv[i] = T(0.5 - 0.03 * ((i * 5) % 31));
    w[i] = T(1.0 + 0.1 * (i % 5));
  }
  T *dV = deviceCopy(v), *dDv = deviceCopy(dv), *dW = deviceCopy(w);
  T *out = deviceCopy(std::vector<T>(Threads));
  auto run = [&](const std::vector<T> &x) {
    T *dX = deviceCopy(x);
    primal<T, G><<<1, Threads>>>(dX, dW, out);
    CHECK(DEVCHECK_API(GetLastError)());
    return hostCopy(out, Threads);
  };
  // Central differences along dv, in double from the primal kernel.
  std::vector<T> plus(v), minus(v);
  for (int i = 0; i < Threads; ++i) {
    plus[i] = T(v[i] + h * dv[i]);
    minus[i] = T(v[i] - h * dv[i]);
  }
  std::vector<T> yp = run(plus), ym = run(minus);
  tangent<T, G><<<1, Threads>>>(dV, dDv, dW, out);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> dy = hostCopy(out, Threads);
  double sumDy = 0;
  for (int i = 0; i < Threads; ++i) {
    // The step actually taken (float inputs round v +- h dv).
    double step = (double(plus[i]) - double(minus[i])) / (2 * double(dv[i]));
    expectNear(fdTol, name, i, dy[i],
               (double(yp[i]) - double(ym[i])) / (2 * step));
    sumDy += dy[i];
  }
  gradient<T, G><<<1, Threads>>>(dV, dW, out);
  CHECK(DEVCHECK_API(GetLastError)());
  std::vector<T> vbar = hostCopy(out, Threads);
  expectNear(dotTol, name, -1, dotProduct(vbar, dv), sumDy);
}

int main() {
  // Double: h = 1e-6 central differences, relative error ~1e-9.  Float:
  // h = 1e-2 and float rounding of ~20 terms: 2e-3.  Dot products: the sums
  // of 64 products in a different order (float 1e-4, double 1e-12).
  Tol fdDouble{"fd double", 1e-6}, fdFloat{"fd float", 2e-3};
  Tol dotDouble{"dot double", 1e-12}, dotFloat{"dot float", 1e-4};
  check<float, down_sum>("down_sum", fdFloat, dotFloat, 1e-2);
  check<double, xor_all>("xor_all", fdDouble, dotDouble, 1e-6);
  check<float, up_scan>("up_scan", fdFloat, dotFloat, 1e-2);
  check<double, idx_gather>("idx_gather", fdDouble, dotDouble, 1e-6);
  check<float, xor_width16>("xor_width16", fdFloat, dotFloat, 1e-2);
  check<float, down_width8>("down_width8", fdFloat, dotFloat, 1e-2);
  return finish("6 shuffle functions, 2 warps: forward vs FD, reverse vs "
                "forward (dot product)",
                {&fdDouble, &fdFloat, &dotDouble, &dotFloat});
}
