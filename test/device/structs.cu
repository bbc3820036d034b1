// Structs in the differentiated __device__ function: a pointer to an array
// of structs (enzyme_dup with a shadow array of structs), a struct of doubles
// passed by value (its shadow is a struct of the same type), a struct with
// mixed active and inactive fields (an int index next to doubles), and a
// struct returned through an out-pointer.
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

struct Particle {
  double pos[3];
  double mass;
  int kind; // inactive
};

struct Pair {
  double a, b;
};

// Kinetic-like energy of particle i; kind selects a constant factor.
__device__ double energy(const Particle *p, int i) {
  const Particle &q = p[i];
  double r2 = q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2];
  double k = q.kind == 0 ? 0.5 : 0.25;
  return k * q.mass * r2 + cos(q.pos[0]);
}

// A struct by value.
__device__ double pair_fn(Pair p) { return p.a * sin(p.b) + p.b * p.b; }

// A struct written through a pointer.
__device__ void rotate(const Pair *in, Pair *out, double theta) {
  double c = cos(theta), s = sin(theta);
  out->a = c * in->a - s * in->b;
  out->b = s * in->a + c * in->b;
}

__global__ void structs(const Particle *p, const Particle *dp, const Pair *pr,
                        const Pair *dpr, Pair *out, Pair *dout,
                        const double *theta, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[2 * i] = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, dp,
                                      enzyme_const, i);
  d[2 * i + 1] =
      __enzyme_fwddiff<double>((void *)pair_fn, enzyme_dup, pr[i], dpr[i]);
  __enzyme_fwddiff<void>((void *)rotate, enzyme_dup, pr + i, dpr + i,
                         enzyme_dup, out + i, dout + i, enzyme_dup, theta[i],
                         1.0);
}

// CHECK: .entry {{.*}}structs

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----
// energy's and pair_fn's tangents, rotate's output and its tangent (the
// shadow of the input pair and dtheta = 1), against host copies and their
// central differences along the same shadows.  The shadow particles' int
// field is set to garbage: it is inactive, never read as a tangent.

#include "include/devcheck.h"

static double hostEnergy(const Particle &q) {
  double r2 = q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2];
  double k = q.kind == 0 ? 0.5 : 0.25;
  return k * q.mass * r2 + std::cos(q.pos[0]);
}

static double hostPairFn(Pair p) { return p.a * std::sin(p.b) + p.b * p.b; }

static Pair hostRotate(Pair in, double theta) {
  double c = std::cos(theta), s = std::sin(theta);
  return Pair{c * in.a - s * in.b, s * in.a + c * in.b};
}

// p + e * dp, field by field (kind kept).
static Particle along(Particle p, const Particle &dp, double e) {
  for (int k = 0; k < 3; ++k)
    p.pos[k] += e * dp.pos[k];
  p.mass += e * dp.mass;
  return p;
}
static Pair along(Pair p, const Pair &dp, double e) {
  return Pair{p.a + e * dp.a, p.b + e * dp.b};
}

int main() {
  // Double central differences with h = 1e-6: error ~1e-9 here.
  const double H = 1e-6;
  Tol fd{"fd", 1e-6};
  // rotate's primal output: the same expressions (FMA contraction).
  Tol primal{"primal", 1e-13};

  const int n = 400, block = 128, grid = (n + block - 1) / block;
  std::vector<Particle> p(n), dp(n);
  std::vector<Pair> pr(n), dpr(n), sentinel(n, Pair{777.0, 777.0});
  std::vector<double> theta(n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      p[i].pos[k] = std::sin(0.1 * i + k);
      dp[i].pos[k] = 0.5 + 0.25 * std::cos(0.3 * i * (k + 1));
    }
    p[i].mass = 1.0 + 0.01 * i;
    p[i].kind = i % 3 == 0 ? 0 : 1;
    dp[i].mass = 0.2 - 0.001 * i;
    dp[i].kind = 12345;
    pr[i] = Pair{std::cos(0.07 * i), 0.5 + std::sin(0.05 * i)};
    dpr[i] = Pair{0.3 + 0.1 * (i % 4), -0.2 + 0.05 * (i % 7)};
    theta[i] = -3.0 + 6.0 * (i + 0.5) / n;
  }
  Particle *dP = deviceCopy(p), *dDp = deviceCopy(dp);
  Pair *dPr = deviceCopy(pr), *dDpr = deviceCopy(dpr),
       *dOut = deviceCopy(sentinel), *dDout = deviceCopy(sentinel);
  double *dTheta = deviceCopy(theta),
         *dD = deviceCopy(std::vector<double>(2 * n, 777.0));
  structs<<<grid, block>>>(dP, dDp, dPr, dDpr, dOut, dDout, dTheta, dD, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<Pair> out = hostCopy(dOut, n), dout = hostCopy(dDout, n);
  std::vector<double> d = hostCopy(dD, 2 * n);

  for (int i = 0; i < n; ++i) {
    expectNear(fd, "energy", i, d[2 * i],
               (hostEnergy(along(p[i], dp[i], H)) -
                hostEnergy(along(p[i], dp[i], -H))) /
                   (2 * H));
    expectNear(fd, "pair_fn", i, d[2 * i + 1],
               (hostPairFn(along(pr[i], dpr[i], H)) -
                hostPairFn(along(pr[i], dpr[i], -H))) /
                   (2 * H));
    Pair want = hostRotate(pr[i], theta[i]);
    expectNear(primal, "rotate out.a", i, out[i].a, want.a);
    expectNear(primal, "rotate out.b", i, out[i].b, want.b);
    Pair rp = hostRotate(along(pr[i], dpr[i], H), theta[i] + H),
         rm = hostRotate(along(pr[i], dpr[i], -H), theta[i] - H);
    expectNear(fd, "rotate dout.a", i, dout[i].a, (rp.a - rm.a) / (2 * H));
    expectNear(fd, "rotate dout.b", i, dout[i].b, (rp.b - rm.b) / (2 * H));
  }
  return finish("energy (array of structs), pair_fn (struct by value), "
                "rotate out/dout (struct through pointers) vs host copies and "
                "central FD h=1e-6; n=400",
                {&fd, &primal});
}
