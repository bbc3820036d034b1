// A host loop differentiated with __enzyme_autodiff whose body launches CUDA
// kernels: kern(src, dst) launches a kernel and has a registered gradient
// (Enzyme's __enzyme_register_gradient_kern) whose augmented function
// launches the forward kernel and keeps what the reverse needs in a device
// buffer it returns as the tape, and whose reverse function launches the
// adjoint kernels and frees that buffer.  A registered forward derivative
// launches the tangent kernel.  The loop `for t: kern(a, b); kern(b, a);` is
// differentiated on the host by gpuad (calls in a loop: the tapes kept per
// iteration, the reverse calls in the opposite order); the program checks
// the gradient against central finite differences of the loop itself and the
// dot-product test against forward mode, and that the user's functions ran
// (2T times each).
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-host-only -O0 -c %s -o %t.O0.o
// RUN: llvm-nm %t.O0.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.O2.o
// RUN: llvm-nm %t.O2.o | FileCheck %s --check-prefix=HOST
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// HOST-NOT: enzyme

#include <gpuad/gpuad.h>

#include "include/devcheck.h"

constexpr int N = 96, Block = 32, Grid = (N + Block - 1) / Block;

__global__ void step(const double *src, double *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    dst[i] = sin(src[i]) + 0.5 * src[(i + 1) % N] * src[i];
}

// The augmented kernel also keeps cos(src[i]) and the two sources.
__global__ void stepAugmented(const double *src, double *dst, double *tape) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  double s = src[i], r = src[(i + 1) % N];
  dst[i] = sin(s) + 0.5 * r * s;
  tape[3 * i] = cos(s);
  tape[3 * i + 1] = s;
  tape[3 * i + 2] = r;
}

__global__ void stepAdjoint(const double *tape, double *dsrc,
                            const double *ddst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  double g = ddst[i];
  atomicAdd(&dsrc[i], (tape[3 * i] + 0.5 * tape[3 * i + 2]) * g);
  atomicAdd(&dsrc[(i + 1) % N], 0.5 * tape[3 * i + 1] * g);
}

// dst is overwritten: the adjoint of its old value is zero.
__global__ void zero(double *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    p[i] = 0.0;
}

__global__ void stepTangent(const double *src, const double *dsrc,
                            double *dst, double *ddst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  int j = (i + 1) % N;
  double s = src[i], r = src[j];
  dst[i] = sin(s) + 0.5 * r * s;
  ddst[i] = (cos(s) + 0.5 * r) * dsrc[i] + 0.5 * s * dsrc[j];
}

static int augmentedCalls = 0, reverseCalls = 0, forwardCalls = 0;

void kern(const double *src, double *dst) {
  step<<<Grid, Block>>>(src, dst);
}

void *kern_augmented(const double *src, const double *dsrc, double *dst,
                     double *ddst) {
  ++augmentedCalls;
  double *tape;
  CHECK(cudaMalloc(&tape, 3 * N * sizeof(double)));
  stepAugmented<<<Grid, Block>>>(src, dst, tape);
  return tape;
}

void kern_reverse(const double *src, double *dsrc, const double *dst,
                  double *ddst, void *tape) {
  ++reverseCalls;
  stepAdjoint<<<Grid, Block>>>(static_cast<double *>(tape), dsrc, ddst);
  zero<<<Grid, Block>>>(ddst);
  CHECK(cudaFree(tape));
}

void kern_forward(const double *src, const double *dsrc, double *dst,
                  double *ddst) {
  ++forwardCalls;
  stepTangent<<<Grid, Block>>>(src, dsrc, dst, ddst);
}

void *__enzyme_register_gradient_kern[3] = {
    (void *)kern, (void *)kern_augmented, (void *)kern_reverse};
void *__enzyme_register_derivative_kern[2] = {(void *)kern,
                                              (void *)kern_forward};

// The program's time loop; a and b live on the device.
void timeLoop(double *a, double *b, int steps) {
  for (int t = 0; t < steps; ++t) {
    kern(a, b);
    kern(b, a);
  }
}

static std::vector<double> run(const std::vector<double> &a0, int steps) {
  double *a = deviceCopy(a0), *b = deviceCopy(std::vector<double>(N, 0.0));
  timeLoop(a, b, steps);
  CHECK(cudaDeviceSynchronize());
  return hostCopy(a, N);
}

int main() {
  const int T = 3;
  const double H = 1e-6;
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10};
  std::vector<double> a0(N), w(N), v(N);
  for (int i = 0; i < N; ++i) {
    a0[i] = 0.3 + 0.5 * std::sin(0.7 * i);
    w[i] = std::cos(1.3 * i);
    v[i] = 0.2 + std::sin(2.1 * i);
  }

  // Reverse: the shadow of a holds w (the seed of the final a) and comes
  // back as J^T w with respect to the initial a.
  double *a = deviceCopy(a0), *b = deviceCopy(std::vector<double>(N, 0.0));
  double *da = deviceCopy(w), *db = deviceCopy(std::vector<double>(N, 0.0));
  __enzyme_autodiff<void>((void *)timeLoop, enzyme_dup, a, da, enzyme_dup, b,
                          db, enzyme_const, T);
  CHECK(cudaDeviceSynchronize());
  std::vector<double> vjp = hostCopy(da, N);

  // Forward: J v.
  double *fa = deviceCopy(a0), *fb = deviceCopy(std::vector<double>(N, 0.0));
  double *ta = deviceCopy(v), *tb = deviceCopy(std::vector<double>(N, 0.0));
  __enzyme_fwddiff<void>((void *)timeLoop, enzyme_dup, fa, ta, enzyme_dup, fb,
                         tb, enzyme_const, T);
  CHECK(cudaDeviceSynchronize());
  std::vector<double> jv = hostCopy(ta, N);

  for (int j = 0; j < N; ++j) {
    std::vector<double> up = a0, down = a0;
    up[j] += H;
    down[j] -= H;
    double want = (dotProduct(w, run(up, T)) - dotProduct(w, run(down, T))) /
                  (2 * H);
    expectNear(fd, "J^T w", j, vjp[j], want);
  }
  expectNear(dot, "<Jv,w> = <v,J^T w>", 0, dotProduct(jv, w),
             dotProduct(v, vjp));
  if (augmentedCalls != 2 * T || reverseCalls != 2 * T ||
      forwardCalls != 2 * T) {
    std::printf("%s: FAIL: the registered functions ran %d/%d/%d times, "
                "expected %d each\n",
                devcheck::fileName(), augmentedCalls, reverseCalls,
                forwardCalls, 2 * T);
    ++devcheck::failures;
  }
  return finish("host loop of kernel launches with a registered gradient "
                "and derivative, T=3, n=96: J^T w vs central FD h=1e-6, dot "
                "product vs forward mode",
                {&fd, &dot});
}
