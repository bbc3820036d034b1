// enzyme::autodiff (include/enzyme/enzyme) in device code: forward and
// reverse mode of __device__ functions in a kernel, with a scalar, a class
// by value (Active: its adjoint returned), a per-thread array (Duplicated:
// the gradient added to its shadow), a constant, a returned class at width
// 2 (BatchDuplicated), ReverseWithPrimal and a lambda.  The request's
// function reaches the pass as a thunk (the class by value, the lambda) or
// directly; either way the PTX keeps no entry point or marker.
//
// REQUIRES: cuda
// RUN: %gpuad-cc -std=c++17 --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: %gpuad-cc -std=c++17 --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: %gpuad-cc -std=c++17 --cuda-host-only -O2 -c %s -o %t.host.o

#include <enzyme/enzyme>

struct V3 {
  double x, y, z;
};

constexpr int K = 3;    // coefficients per thread
constexpr int OUT = 14; // results per thread

__host__ __device__ double wave(double x) { return sin(x) * exp(0.3 * x); }

// A class by value, a pointer and a constant.
__host__ __device__ double energy(V3 p, const double *k, int scale) {
  double s = sin(p.z);
  for (int j = 0; j < K; ++j)
    s += k[j] * (p.x * p.x + j * p.y * p.z);
  return scale * s;
}

// A returned class.
__host__ __device__ V3 spin(V3 v, double t) {
  return {cos(t) * v.x - sin(t) * v.y, sin(t) * v.x + cos(t) * v.y, v.z * t};
}

__global__ void cxx_api(const double *xs, const V3 *ps, const double *ks,
                        double *dk, double *res, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = xs[i];
  double *r = res + OUT * i;
  r[0] = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward>(wave, enzyme::Duplicated{x, 1.0}));
  auto [gw, primal] =
      enzyme::autodiff<enzyme::ReverseWithPrimal>(wave, enzyme::Active{x});
  r[1] = enzyme::get<0>(gw);
  r[2] = primal;

  // The gradient in the class comes back; the coefficients' is added to dk.
  auto [ge] = enzyme::autodiff<enzyme::Reverse>(
      energy, enzyme::Active{ps[i]}, enzyme::Duplicated{ks + K * i, dk + K * i},
      enzyme::Const{2});
  V3 gp = enzyme::get<0>(ge);
  r[3] = gp.x;
  r[4] = gp.y;
  r[5] = gp.z;

  // Two directions at once through a returned class.
  auto [lanes] = enzyme::autodiff<enzyme::Forward>(
      spin, enzyme::BatchDuplicated{ps[i], V3{1, 0, 0}, V3{0, 0, 1}},
      enzyme::BatchDuplicated{x, 0.0, 1.0});
  r[6] = lanes[0].x;
  r[7] = lanes[0].y;
  r[8] = lanes[0].z;
  r[9] = lanes[1].x;
  r[10] = lanes[1].y;
  r[11] = lanes[1].z;

  // A lambda with a capture.
  double c = ks[K * i];
  auto scaled = [c](double u, double v) { return c * u * u * v; };
  auto [gl] = enzyme::autodiff<enzyme::Reverse>(scaled, enzyme::Active{x},
                                                enzyme::Active{2.0});
  r[12] = enzyme::get<0>(gl);
  r[13] = enzyme::get<1>(gl);
}

// No entry point or marker is left (at -O0 the wrappers' own functions,
// enzyme::Duplicated's constructor, are ordinary device functions).
// CHECK: .entry {{.*}}cxx_api
// CHECK-NOT: {{__enzyme|enzyme_}}

// ---- Run on the emulator (and natively with a GPU): kernel-tests.cmake ----
// Each result against central differences (h = 1e-6) of the host copies of
// the same functions, and the primal against the host's value.

#include "include/devcheck.h"

static V3 along(V3 p, V3 d, double e) {
  return {p.x + e * d.x, p.y + e * d.y, p.z + e * d.z};
}

int main() {
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  Tol same{"primal", 1e-12};
  const int n = 200, block = 64, grid = (n + block - 1) / block;
  std::vector<double> xs(n), ks(K * n);
  std::vector<V3> ps(n);
  for (int i = 0; i < n; ++i) {
    xs[i] = -2.0 + 4.0 * (i + 0.5) / n;
    ps[i] =
        V3{std::sin(0.1 * i), 0.5 + std::cos(0.07 * i), 0.3 * (i % 5) - 0.6};
    for (int j = 0; j < K; ++j)
      ks[K * i + j] = 0.5 + 0.25 * j - 0.01 * (i % 9);
  }
  double *dXs = deviceCopy(xs), *dKs = deviceCopy(ks);
  double *dDk = deviceCopy(std::vector<double>(K * n, 0.0));
  double *dRes = deviceCopy(std::vector<double>(OUT * n, 777.0));
  V3 *dPs = deviceCopy(ps);
  cxx_api<<<grid, block>>>(dXs, dPs, dKs, dDk, dRes, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> res = hostCopy(dRes, OUT * n), dk = hostCopy(dDk, K * n);

  for (int i = 0; i < n; ++i) {
    const double *r = &res[OUT * i];
    double x = xs[i];
    V3 p = ps[i];
    const double *k = &ks[K * i];
    double dw = (wave(x + H) - wave(x - H)) / (2 * H);
    expectNear(fd, "wave fwd", i, r[0], dw);
    expectNear(fd, "wave rev", i, r[1], dw);
    expectNear(same, "wave primal", i, r[2], wave(x));
    V3 unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int c = 0; c < 3; ++c)
      expectNear(fd, "energy d/dp", i, r[3 + c],
                 (energy(along(p, unit[c], H), k, 2) -
                  energy(along(p, unit[c], -H), k, 2)) /
                     (2 * H));
    for (int j = 0; j < K; ++j) {
      double kp[K], km[K];
      for (int l = 0; l < K; ++l)
        kp[l] = km[l] = k[l];
      kp[j] += H;
      km[j] -= H;
      expectNear(fd, "energy d/dk", i, dk[K * i + j],
                 (energy(p, kp, 2) - energy(p, km, 2)) / (2 * H));
    }
    for (int lane = 0; lane < 2; ++lane) {
      V3 d = lane ? V3{0, 0, 1} : V3{1, 0, 0};
      double dt = lane ? 1.0 : 0.0;
      V3 sp = spin(along(p, d, H), x + dt * H),
         sm = spin(along(p, d, -H), x - dt * H);
      expectNear(fd, "spin lane x", i, r[6 + 3 * lane],
                 (sp.x - sm.x) / (2 * H));
      expectNear(fd, "spin lane y", i, r[7 + 3 * lane],
                 (sp.y - sm.y) / (2 * H));
      expectNear(fd, "spin lane z", i, r[8 + 3 * lane],
                 (sp.z - sm.z) / (2 * H));
    }
    double c = k[0];
    expectNear(same, "lambda d/du", i, r[12], c * 2 * x * 2.0);
    expectNear(same, "lambda d/dv", i, r[13], c * x * x);
  }
  return finish("wave (forward, reverse with primal), energy (Active class, "
                "Duplicated coefficients), spin (returned class, width 2), a "
                "lambda vs host copies and central FD h=1e-6; n=200",
                {&fd, &same});
}
