// Gradients through the legacy cuBLAS API (cublas.h: no handle, scalars by
// value, flags as characters, results returned) on the emulator: a loss
// through axpy, scal, dot, nrm2, gemv (transposed), gemm (A B^T), trsv
// (unit upper), syrk and trsm, with its buffers in device memory from
// cudaMalloc and cublasSetVector/GetVector.  Checked: reverse against
// central differences (rtol 1e-6), forward by the dot-product test (rtol
// 1e-10), width 2 against the single request (1e-12).
//
// REQUIRES: cuda, openblas
// RUN: %gpuad-cc --emulate -O2 %s -o %t -lcublas
// RUN: %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 -lcublas
// RUN: %t.O0 | FileCheck %s
// CHECK: cublas-legacy.cu: PASS

#include <cublas.h>
#include <cuda_runtime.h>

#include "include/devcheck.h"

extern int enzyme_dup, enzyme_out, enzyme_const, enzyme_width, enzyme_dupv;
template <class R, class... T> R __enzyme_autodiff(void *, T...);
template <class R, class... T> R __enzyme_fwddiff(void *, T...);

constexpr int N = 4;

double *upload(const double *host, int n) {
  double *d;
  CHECK(cudaMalloc(&d, n * sizeof(double)));
  cublasSetVector(n, sizeof(double), host, 1, d, 1);
  return d;
}

double loss(const double *Ah, const double *xh, double alpha) {
  double *A = upload(Ah, N * N), *x = upload(xh, N), *y = upload(xh, N);
  double *C = upload(Ah, N * N), *E = upload(Ah, N * N);
  cublasDaxpy(N, alpha, x, 1, y, 1);
  cublasDscal(N, alpha, y, 1);
  cublasDgemv('T', N, N, alpha, A, N, x, 1, 0.5, y, 1);
  cublasDtrsv('U', 'N', 'U', N, A, N, y, 1);
  cublasDgemm('N', 'T', N, N, N, alpha, A, N, E, N, 0.25, C, N);
  cublasDsyrk('L', 'T', N, N, 1.0, A, N, 0.5, E, N);
  cublasDtrsm('L', 'L', 'N', 'N', N, N, alpha, E, N, C, N);
  double r = cublasDdot(N, y, 1, x, 1) + cublasDnrm2(N * N, C, 1);
  double back[N];
  cublasGetVector(N, sizeof(double), y, 1, back, 1);
  for (double *p : {A, x, y, C, E})
    CHECK(cudaFree(p));
  return r + back[0] * back[N - 1];
}

struct Lanes {
  double lane[2];
};

int main() {
  cublasInit();
  Tol fd{"fd", 1e-6}, dot{"dot", 1e-10}, same{"same", 1e-12};
  // A well conditioned in both triangles (the solves read them).
  std::vector<double> A(N * N), x(N);
  for (int i = 0; i < N * N; ++i)
    A[i] = 0.3 * std::sin(1.7 * i + 0.4) + (i % (N + 1) == 0 ? 2.5 : 0);
  for (int i = 0; i < N; ++i)
    x[i] = std::cos(0.9 * i + 0.2);
  double alpha = 0.8;
  std::vector<double> gA(N * N, 0.0), gx(N, 0.0);
  double ga = __enzyme_autodiff<double>((void *)loss, enzyme_dup, A.data(),
                                        gA.data(), enzyme_dup, x.data(),
                                        gx.data(), enzyme_out, alpha);
  auto f = [&] { return loss(A.data(), x.data(), alpha); };
  for (int i = 0; i < N * N; ++i)
    expectNear(fd, "dA", i, gA[i], centralDifference(f, A, i));
  for (int i = 0; i < N; ++i)
    expectNear(fd, "dx", i, gx[i], centralDifference(f, x, i));
  std::vector<double> a = {alpha};
  expectNear(fd, "dalpha", 0, ga, centralDifference([&] {
               return loss(A.data(), x.data(), a[0]);
             }, a, 0));
  std::vector<double> vA(N * N), vx(N);
  for (int i = 0; i < N * N; ++i)
    vA[i] = std::sin(0.7 * i);
  for (int i = 0; i < N; ++i)
    vx[i] = std::cos(1.1 * i);
  double va = 0.3;
  double t = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, A.data(),
                                      vA.data(), enzyme_dup, x.data(),
                                      vx.data(), enzyme_dup, alpha, va);
  expectNear(dot, "<g, v>", 0, t,
             dotProduct(gA, vA) + dotProduct(gx, vx) + ga * va);
  std::vector<double> gA2(2 * N * N, 0.0), gx2(2 * N, 0.0);
  Lanes ga2 = __enzyme_autodiff<Lanes>(
      (void *)loss, enzyme_width, 2, enzyme_dupv,
      (int)(N * N * sizeof(double)), A.data(), gA2.data(), enzyme_dupv,
      (int)(N * sizeof(double)), x.data(), gx2.data(), enzyme_out, alpha);
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < N * N; ++i)
      expectNear(same, "width 2 dA", i, gA2[l * N * N + i], gA[i]);
    expectNear(same, "width 2 dalpha", l, ga2.lane[l], ga);
  }
  cublasShutdown();
  return finish("the legacy cuBLAS API: reverse, forward, width 2",
                {&fd, &dot, &same});
}
