// The reverse sweep's cut between keeping and rebuilding, in device code,
// one thread per row of x (m = 16 entries):
//   - normalize: a pure noinline call with the same arguments in every
//     iteration (norm(x, m)) runs once, its backward half once;
//   - logsumexp: a running maximum (fmax) keeps one byte per iteration, the
//     exp in the loop is rebuilt (GPU);
//   - triangle: a triangular nest whose inner exit iteration is rebuilt
//     from the outer counter, and an if/else join in the loop whose
//     predecessor is rebuilt from the branch's condition.
// Every gradient is checked against central differences of the same
// function run on the host (h = 1e-6, tolerance 1e-6 relative), from the
// emulator at -O2 and -O0; the PTX passes ptxas.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include "include/plaincheck.h"

#include <vector>

extern __device__ int enzyme_dup, enzyme_const;
__device__ void __enzyme_autodiff(void *, ...);

constexpr int M = 16;

__host__ __device__ __attribute__((noinline)) double norm(const double *x,
                                                         int m) {
  double s = 0;
  for (int i = 0; i < m; ++i)
    s += x[i] * x[i];
  return sqrt(s);
}

// sum_j w_j x_j / |x|
__host__ __device__ double normalize(const double *__restrict__ x, int m) {
  double r = 0;
  for (int j = 0; j < m; ++j)
    r += (1.0 + 0.1 * j) * x[j] / norm(x, m);
  return r;
}

__host__ __device__ double logsumexp(const double *x, int m) {
  double mx = x[0];
  for (int i = 1; i < m; ++i)
    mx = fmax(mx, x[i]);
  double s = 0;
  for (int i = 0; i < m; ++i)
    s += exp(x[i] - mx);
  return mx + log(s);
}

__host__ __device__ double triangle(const double *x, int m) {
  double r = 0;
  for (int i = 0; i < m; ++i) {
    double t = x[i];
    for (int j = 0; j < i; ++j)
      t = t * 0.9 + sin(x[j]) * 0.1;
    if (x[i] > 0)
      r += t * t;
    else
      r -= 0.5 * t;
  }
  return r;
}

typedef double (*RowFn)(const double *, int);

template <RowFn F> __device__ double call(const double *x, int m) {
  return F(x, m);
}

template <RowFn F>
__global__ void grad(const double *x, double *dx, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    __enzyme_autodiff((void *)call<F>, enzyme_dup, x + i * M, dx + i * M,
                      enzyme_const, M);
}

template <RowFn F> int check(const char *name, int rows) {
  std::vector<double> x(rows * M), dx(rows * M, 0.0);
  for (int k = 0; k < rows * M; ++k)
    x[k] = 0.8 * sin(0.37 * k + 0.1) + (k % 5 == 0 ? -0.3 : 0.2);
  double *dX, *dDX;
  CHECK_CUDA(cudaMalloc(&dX, sizeof(double) * rows * M));
  CHECK_CUDA(cudaMalloc(&dDX, sizeof(double) * rows * M));
  CHECK_CUDA(cudaMemcpy(dX, x.data(), sizeof(double) * rows * M,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dDX, 0, sizeof(double) * rows * M));
  grad<F><<<(rows + 63) / 64, 64>>>(dX, dDX, rows);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(dx.data(), dDX, sizeof(double) * rows * M,
                        cudaMemcpyDeviceToHost));
  for (int k = 0; k < rows * M; ++k) {
    double *row = &x[(k / M) * M], h = 1e-6, v = x[k];
    x[k] = v + h;
    double fp = F(row, M);
    x[k] = v - h;
    double fm = F(row, M);
    x[k] = v;
    expectNear(name, k, dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  CHECK_CUDA(cudaFree(dX));
  CHECK_CUDA(cudaFree(dDX));
  return 0;
}

int main() {
  const int rows = 100;
  if (check<normalize>("normalize", rows) || check<logsumexp>("logsumexp", rows) ||
      check<triangle>("triangle", rows))
    return 1;
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("tape-cut: normalize, logsumexp, triangle gradients of %d rows "
              "match central differences (h=1e-6, rtol 1e-6)\n",
              rows);
  return 0;
}
