// Kernels that take structs by value, launched from a differentiated host
// driver: the state's ping-pong pointers travel in a struct (its shadow
// carries their shadows), the stencil weights in an array field, reaction
// coefficients in a 16-byte struct (x86-64 passes it as two doubles) and a
// float beside an int in an 8-byte struct (passed as one i64: only the
// stub's copy of it says a float is there).  The reduction's struct has a
// null pointer field.  Each parameter is differentiated: the weights,
// coefficients and the float come back from the device as adjoints summed
// over all threads.
// Checked: the reverse gradient (x and the six parameters) against central
// differences (rtol 1e-6; the float's step is a power of two, exact in
// float); the forward tangent against it (the dot-product test, rtol 1e-10;
// along the float, whose adjoint is summed in float, 1e-6); split mode and
// each lane of width-2 reverse and forward requests against the single
// requests (rtol 1e-12; the float's adjoint, summed in an order that varies
// between runs, 1e-6).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// CHECK: host-launch-struct.cu: PASS
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
// PTX-DAG: .entry __gpuad_rev__Z7stencil5State7Stencil(
// PTX-DAG: .entry __gpuad_fwd__Z5reactPd4Coef5Shift(

#include <gpuad/gpuad.h>

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif

#include <cstdlib>

constexpr int N = 70;
constexpr int Threads = 32;
constexpr int Blocks = (N + Threads - 1) / Threads;
constexpr int Steps = 6;

struct State {
  double *out;
  const double *in;
  int n;
};
struct Stencil {
  double w[3];
};
struct Coef {
  double c0, c1;
};
struct Shift {
  int n;
  float w;
};

__global__ void stencil(State s, Stencil st) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    s.out[i] = st.w[0] * s.in[(i + s.n - 1) % s.n] + st.w[1] * s.in[i] +
               st.w[2] * s.in[(i + 1) % s.n];
}

// In place.
__global__ void react(double *u, Coef c, Shift sh) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < sh.n)
    u[i] = u[i] + c.c0 * sin(u[i]) + c.c1 * u[i] * u[i] * 0.1 +
           (double)sh.w * 0.01 * i;
}

__global__ void sumSquares(double *total, State s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n && s.out == nullptr)
    atomicAdd(total, s.in[i] * s.in[i] * (1 + 0.02 * i));
}

static void ok(int status) {
  if (status != 0)
    abort();
}

// p: three weights, two coefficients, the shift.
double loss(const double *x, const double *p) {
  size_t bytes = N * sizeof(double);
  double *a, *b, *total;
  ok(API(Malloc)(&a, bytes));
  ok(API(Malloc)(&b, bytes));
  ok(API(Malloc)(&total, sizeof(double)));
  ok(API(Memcpy)(a, x, bytes, API(MemcpyHostToDevice)));
  ok(API(Memset)(total, 0, sizeof(double)));
  Stencil st = {{p[0], p[1], p[2]}};
  for (int t = 0; t < Steps; ++t) {
    stencil<<<Blocks, Threads>>>(State{b, a, N}, st);
    react<<<Blocks, Threads>>>(b, Coef{p[3], p[4]}, Shift{N, (float)p[5]});
    double *swap = a;
    a = b;
    b = swap;
  }
  sumSquares<<<Blocks, Threads>>>(total, State{nullptr, a, N});
  double h;
  ok(API(Memcpy)(&h, total, sizeof(double), API(MemcpyDeviceToHost)));
  ok(API(Free)(a));
  ok(API(Free)(b));
  ok(API(Free)(total));
  return h;
}

#include "include/devcheck.h"

constexpr int P = 6;

/// A width-2 request's two lanes.
struct Lanes {
  double lane[2];
};

int main() {
  std::vector<double> x(N), v(N);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.8 * std::sin(0.3 * i) + 0.1;
    v[i] = 0.5 - 0.01 * i;
  }
  std::vector<double> p = {0.25, 0.5, 0.2, 0.3, -0.4, 0.5};
  std::vector<double> vp = {0.1, -0.2, 0.3, 0.4, -0.5, 0.25};
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10}, same{"same", 1e-12};
  Tol floats{"float", 1e-6}; // what involves the float's adjoint

  std::vector<double> g(N, 0.0), gp(P, 0.0);
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x.data(), g.data(),
                          enzyme_dup, p.data(), gp.data());
  for (int i = 0; i < N; ++i) {
    std::vector<double> xp = x, xm = x;
    double h = 1e-6 * std::fmax(std::fabs(x[i]), 1.0);
    xp[i] += h;
    xm[i] -= h;
    expectNear(fd, "dloss/dx", i, g[i],
               (loss(xp.data(), p.data()) - loss(xm.data(), p.data())) /
                   (2 * h));
  }
  for (int k = 0; k < P; ++k) {
    // (The shift is a float: a step float holds exactly.)
    double h = k == 5 ? 1.0 / 16384 : 1e-6;
    std::vector<double> pp = p, pm = p;
    pp[k] += h;
    pm[k] -= h;
    expectNear(fd, "dloss/dp", k, gp[k],
               (loss(x.data(), pp.data()) - loss(x.data(), pm.data())) /
                   (2 * h));
  }

  // The float's adjoint is summed in float (each thread's part added
  // atomically): its direction is checked on its own, to float precision.
  std::vector<double> vd = v, vpd = vp;
  vpd[5] = 0;
  double tangent = __enzyme_fwddiff<double>(
      (void *)loss, enzyme_dup, x.data(), vd.data(), enzyme_dup, p.data(),
      vpd.data());
  expectNear(dot, "<g, v> = tangent", 0, tangent,
             dotProduct(g, v) + dotProduct(gp, vpd));
  std::vector<double> zero(N, 0.0), onlyShift(P, 0.0);
  onlyShift[5] = vp[5];
  double shiftTangent = __enzyme_fwddiff<double>(
      (void *)loss, enzyme_dup, x.data(), zero.data(), enzyme_dup, p.data(),
      onlyShift.data());
  expectNear(floats, "<g, v> = tangent along the float", 0, shiftTangent,
             gp[5] * vp[5]);

  std::vector<double> gs(N, 0.0), gps(P, 0.0);
  void *tape = __enzyme_augmentfwd<void *>((void *)loss, enzyme_dup, x.data(),
                                           gs.data(), enzyme_dup, p.data(),
                                           gps.data(), enzyme_noret);
  __enzyme_reverse<void>((void *)loss, enzyme_dup, x.data(), gs.data(),
                         enzyme_dup, p.data(), gps.data(), 1.0, tape);
  for (int i = 0; i < N; ++i)
    expectNear(same, "split", i, gs[i], g[i]);
  // (The float's adjoint is summed atomically in float: in an order that
  // may change from run to run.)
  for (int k = 0; k < P; ++k)
    expectNear(k == 5 ? floats : same, "split p", k, gps[k], gp[k]);
  // Width 2: each lane as the single request.
  std::vector<double> g2(2 * N, 0.0), gp2(2 * P, 0.0);
  __enzyme_autodiff<void>((void *)loss, enzyme_width, 2, enzyme_dupv,
                          (int)(N * sizeof(double)), x.data(), g2.data(),
                          enzyme_dupv, (int)(P * sizeof(double)), p.data(),
                          gp2.data());
  for (int i = 0; i < N; ++i)
    for (int l = 0; l < 2; ++l)
      expectNear(same, "width 2", l * N + i, g2[l * N + i], g[i]);
  for (int k = 0; k < P; ++k)
    for (int l = 0; l < 2; ++l)
      expectNear(k == 5 ? floats : same, "width 2 p", l * P + k,
                 gp2[l * P + k], gp[k]);
  std::vector<double> v2(2 * N), vp2(2 * P);
  for (int i = 0; i < N; ++i)
    v2[i] = v[i], v2[N + i] = 2 * v[i];
  for (int k = 0; k < P; ++k)
    vp2[k] = vpd[k], vp2[P + k] = 2 * vpd[k];
  Lanes t2 = __enzyme_fwddiff<Lanes>(
      (void *)loss, enzyme_width, 2, enzyme_dupv, (int)(N * sizeof(double)),
      x.data(), v2.data(), enzyme_dupv, (int)(P * sizeof(double)), p.data(),
      vp2.data());
  expectNear(same, "forward width 2", 0, t2.lane[0], tangent);
  expectNear(same, "forward width 2", 1, t2.lane[1], 2 * tangent);
  return finish("structs by value in a driver's launches (pointers, an "
                "array, a float beside an int, a null field): reverse, "
                "forward, split and width 2",
                {&fd, &dot, &floats, &same});
}
