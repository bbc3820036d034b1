// __enzyme_batch, __enzyme_iter and __enzyme_virtualreverse in device code.  Each thread evaluates,
// in one __enzyme_batch call, the gradient of bump at four points (the
// function batched itself asks for a derivative), and compares lane by
// lane with single requests (exactly) and central differences of a host
// copy; and differentiates a sine series whose length is
// __enzyme_iter(13, 2), in forward mode (twice, nested) and in reverse
// mode, against cos and -sin (1e-9: the series with 13 fixed terms misses
// that from the first derivative on); and differentiates through a struct's
// callback field whose shadow was built with __enzyme_virtualreverse
// (d/dval of fn(val) * val with fn = square is 3 val^2).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// NOSYM-NOT: __enzyme

#include <gpuad/gpuad.h>

struct Vec4 {
  double v[4];
};

__host__ __device__ double bump(double x, double k) {
  return k * x * exp(-x * x);
}
__device__ double dbump(double x, double k) {
  return __enzyme_autodiff<double>((void *)bump, enzyme_out, x, enzyme_const,
                                   k);
}

__device__ double inverse_factorial(unsigned long long k) {
  double f = 1;
  for (unsigned long long i = 2; i <= k; ++i)
    f *= (double)i;
  return 1 / f;
}
__device__ double series_sin(double x) {
  unsigned long long terms = __enzyme_iter(13, 2);
  double sum = 0, power = 1;
  for (unsigned long long i = 1; i < terms; ++i) {
    power *= x;
    if (i % 2 == 1)
      sum += (i % 4 == 1 ? 1 : -1) * power * inverse_factorial(i);
  }
  return sum;
}
__device__ double rev1(double x) {
  return __enzyme_autodiff<double>((void *)series_sin, enzyme_out, x);
}
__device__ double fwd1(double x) {
  return __enzyme_fwddiff<double>((void *)series_sin, enzyme_dup, x, 1.0);
}

template <typename T> __device__ T __enzyme_virtualreverse(T);

struct Callback {
  double (*fn)(double);
  double val;
};
__device__ double square(double v) { return v * v; }
__device__ double through(Callback *s) { return s->fn(s->val) * s->val; }

__global__ void run(const double *x, double k, double *batched,
                    double *single, double *series, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const double *p = x + 4 * i;
  Vec4 g = __enzyme_batch<Vec4>((void *)dbump, enzyme_width, 4, p[0], p[1],
                                p[2], p[3], enzyme_scalar, k);
  for (int l = 0; l < 4; ++l) {
    batched[4 * i + l] = g.v[l];
    single[4 * i + l] = dbump(p[l], k);
  }
  double s = p[0];
  series[3 * i] = fwd1(s);
  series[3 * i + 1] = rev1(s);
  series[3 * i + 2] =
      __enzyme_fwddiff<double>((void *)fwd1, enzyme_dup, s, 1.0);
  Callback cb{square, s}, dcb{__enzyme_virtualreverse(&square), 0.0};
  __enzyme_autodiff<void>((void *)through, enzyme_dup, &cb, &dcb);
  batched[4 * n + i] = dcb.val;
}

// ---- Run on the emulator (and natively with a GPU): test/device/kernel-tests.cmake ----

#include "include/devcheck.h"

int main() {
  const double H = 1e-6, k = 1.5;
  Tol same{"batched vs single", 0}, fd{"fd", 1e-6}, series{"series", 1e-9};
  const int n = 40, block = 32, grid = (n + block - 1) / block;
  std::vector<double> x(4 * n);
  for (int i = 0; i < 4 * n; ++i)
    x[i] = -1.2 + 2.4 * (i + 0.5) / (4 * n);
  double *dX = deviceCopy(x), *dB = deviceCopy(std::vector<double>(5 * n)),
         *dS = deviceCopy(std::vector<double>(4 * n)),
         *dT = deviceCopy(std::vector<double>(3 * n));
  providePool(grid * block); // the series loops keep their tapes in its arena
  run<<<grid, block>>>(dX, k, dB, dS, dT, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> b = hostCopy(dB, 5 * n), s = hostCopy(dS, 4 * n),
                      t = hostCopy(dT, 3 * n);
  for (int i = 0; i < 4 * n; ++i) {
    expectNear(same, "batched gradient", i, b[i], s[i]);
    expectNear(fd, "batched gradient vs fd", i, b[i],
               (bump(x[i] + H, k) - bump(x[i] - H, k)) / (2 * H));
  }
  for (int i = 0; i < n; ++i) {
    double v = x[4 * i];
    expectNear(series, "d/dx series, forward", i, t[3 * i], std::cos(v));
    expectNear(series, "d/dx series, reverse", i, t[3 * i + 1], std::cos(v));
    expectNear(series, "d2/dx2 series, forward over forward", i, t[3 * i + 2],
               -std::sin(v));
    expectNear(series, "virtualreverse callback shadow", i, b[4 * n + i],
               3 * v * v);
  }
  return finish("__enzyme_batch of a gradient, __enzyme_iter and "
                "__enzyme_virtualreverse in device code; n=40 threads",
                {&same, &fd, &series});
}
