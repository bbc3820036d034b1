// Thrust algorithms called from a differentiated host driver on device
// data: thrust::transform (unary, in place, and binary), thrust::for_each,
// thrust::reduce and thrust::transform_reduce run as gpuad's map kernels,
// whose derivative kernels the launches' derivatives run.  The functors
// cover how the host ABI passes them: empty (no argument), a pointer to a
// device scalar (one register), a double beside a float (two), three
// doubles (in memory, byval); their double fields are parameters of the
// loss, so their adjoints come back from the device.  Iterators are raw
// pointers and thrust::device_ptr.  A time loop runs the map kernels
// in place, so their adjoints need the device memory as it was.
//
// Checked: the reverse gradient (x, the four parameters and the device
// scalar) against central differences (rtol 1e-6); the forward tangent
// against it (the dot-product test, rtol 1e-10); split mode and each lane
// of width-2 reverse and forward requests against the single requests
// (rtol 1e-12).  Sums are atomic adds in an order that varies between runs:
// differences are rounding (far below the tolerances).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// CHECK: host-thrust.cu: PASS
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// PTX-DAG: .entry __gpuad_map_transform_
// PTX-DAG: .entry __gpuad_rev___gpuad_map_transform2_
// PTX-DAG: .entry __gpuad_fwd___gpuad_map_for_each_
// PTX-DAG: .entry __gpuad_rev___gpuad_map_reduce_
// PTX-DAG: .entry __gpuad_rev___gpuad_map_transform_reduce_

#include <gpuad/gpuad.h>

#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <cmath>
#include <vector>

constexpr int N = 700; // three blocks of 256, the last one partial
constexpr int Steps = 3;
constexpr int P = 4;

struct Decay {
  double k;
  __host__ __device__ double operator()(double v) const {
    return v * exp(-k * v);
  }
};
struct Mix {
  __host__ __device__ double operator()(double u, double v) const {
    return u * v + sin(u);
  }
};
struct ScaleBy {
  const double *s;
  __host__ __device__ void operator()(double &v) const {
    v = v * *s + 0.1 * v * v;
  }
};
struct Affine {
  double a;
  float b;
  __host__ __device__ double operator()(const double &v) const {
    return a * v * v + b * v;
  }
};
struct Poly {
  double c0, c1, c2;
  __host__ __device__ double operator()(double v) const {
    return c0 + v * (c1 + v * c2);
  }
};

/// p = {k, a, c1, c2}; *s is a device-side scale.
double loss(const double *x, const double *p, const double *s) {
  double *d, *e, *ds;
  cudaMalloc(&d, N * sizeof(double));
  cudaMalloc(&e, N * sizeof(double));
  cudaMalloc(&ds, sizeof(double));
  cudaMemcpy(d, x, N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(e, x, N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(ds, s, sizeof(double), cudaMemcpyHostToDevice);
  for (int t = 0; t < Steps; ++t) {
    thrust::transform(thrust::device, d, d + N, d, Decay{p[0]});
    thrust::transform(thrust::device, d, d + N, e, e, Mix());
    thrust::for_each(thrust::device, e, e + N, ScaleBy{ds});
  }
  thrust::device_ptr<double> ep(e);
  double total = thrust::reduce(thrust::device, ep, ep + N, 0.0);
  double quad = thrust::transform_reduce(thrust::device, d, d + N,
                                         Affine{p[1], 0.5f}, 0.0,
                                         thrust::plus<double>());
  thrust::transform(thrust::device, e, e + N, d, Poly{0.3, p[2], p[3]});
  double poly = thrust::reduce(thrust::device, d, d + N);
  cudaFree(d);
  cudaFree(e);
  cudaFree(ds);
  return total * total / N + quad + std::sin(poly);
}

#include "include/devcheck.h"

struct Lanes {
  double lane[2];
};

int main() {
  std::vector<double> x(N), v(N);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 + 0.4 * std::sin(0.1 * i);
    v[i] = 0.5 - 0.001 * i;
  }
  std::vector<double> p = {0.7, 0.3, -0.2, 0.05}, vp = {0.1, -0.2, 0.3, 0.4};
  double s = 0.9, vs = 0.25;
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10}, same{"same", 1e-12};

  std::vector<double> g(N, 0.0), gp(P, 0.0);
  double gs = 0;
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x.data(), g.data(),
                          enzyme_dup, p.data(), gp.data(), enzyme_dup, &s,
                          &gs);
  auto central = [&](auto &&Shifted) {
    double h = 1e-6;
    return (Shifted(h) - Shifted(-h)) / (2 * h);
  };
  for (int i = 0; i < N; i += 7)
    expectNear(fd, "dloss/dx", i, g[i], central([&](double h) {
                 std::vector<double> xh = x;
                 xh[i] += h;
                 return loss(xh.data(), p.data(), &s);
               }));
  for (int k = 0; k < P; ++k)
    expectNear(fd, "dloss/dp", k, gp[k], central([&](double h) {
                 std::vector<double> ph = p;
                 ph[k] += h;
                 return loss(x.data(), ph.data(), &s);
               }));
  expectNear(fd, "dloss/ds", 0, gs, central([&](double h) {
               double sh = s + h;
               return loss(x.data(), p.data(), &sh);
             }));

  double tangent = __enzyme_fwddiff<double>(
      (void *)loss, enzyme_dup, x.data(), v.data(), enzyme_dup, p.data(),
      vp.data(), enzyme_dup, &s, &vs);
  expectNear(dot, "<g, v> = tangent", 0, tangent,
             dotProduct(g, v) + dotProduct(gp, vp) + gs * vs);

  std::vector<double> gsplit(N, 0.0), gpsplit(P, 0.0);
  double gssplit = 0;
  void *tape = __enzyme_augmentfwd<void *>(
      (void *)loss, enzyme_dup, x.data(), gsplit.data(), enzyme_dup, p.data(),
      gpsplit.data(), enzyme_dup, &s, &gssplit, enzyme_noret);
  __enzyme_reverse<void>((void *)loss, enzyme_dup, x.data(), gsplit.data(),
                         enzyme_dup, p.data(), gpsplit.data(), enzyme_dup, &s,
                         &gssplit, 1.0, tape);
  for (int i = 0; i < N; ++i)
    expectNear(same, "split", i, gsplit[i], g[i]);
  for (int k = 0; k < P; ++k)
    expectNear(same, "split p", k, gpsplit[k], gp[k]);
  expectNear(same, "split s", 0, gssplit, gs);

  std::vector<double> g2(2 * N, 0.0), gp2(2 * P, 0.0), s2 = {s, s},
                                                      gs2 = {0, 0};
  __enzyme_autodiff<void>((void *)loss, enzyme_width, 2, enzyme_dupv,
                          (int)(N * sizeof(double)), x.data(), g2.data(),
                          enzyme_dupv, (int)(P * sizeof(double)), p.data(),
                          gp2.data(), enzyme_dupv, (int)sizeof(double), &s,
                          gs2.data());
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < N; ++i)
      expectNear(same, "width 2", l * N + i, g2[l * N + i], g[i]);
    for (int k = 0; k < P; ++k)
      expectNear(same, "width 2 p", l * P + k, gp2[l * P + k], gp[k]);
    expectNear(same, "width 2 s", l, gs2[l], gs);
  }
  std::vector<double> v2(2 * N), vp2(2 * P), vs2 = {vs, 2 * vs};
  for (int i = 0; i < N; ++i)
    v2[i] = v[i], v2[N + i] = 2 * v[i];
  for (int k = 0; k < P; ++k)
    vp2[k] = vp[k], vp2[P + k] = 2 * vp[k];
  Lanes t2 = __enzyme_fwddiff<Lanes>(
      (void *)loss, enzyme_width, 2, enzyme_dupv, (int)(N * sizeof(double)),
      x.data(), v2.data(), enzyme_dupv, (int)(P * sizeof(double)), p.data(),
      vp2.data(), enzyme_dupv, (int)sizeof(double), &s, vs2.data());
  expectNear(same, "forward width 2", 0, t2.lane[0], tangent);
  expectNear(same, "forward width 2", 1, t2.lane[1], 2 * tangent);
  return finish("thrust::transform, for_each, reduce and transform_reduce "
                "in a driver's time loop: reverse, forward, split and "
                "width 2",
                {&fd, &dot, &same});
}
