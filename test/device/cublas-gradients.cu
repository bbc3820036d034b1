// Gradients through cuBLAS called from host code on device pointers, on the
// emulator (its cuBLAS runs over OpenBLAS; the derivative's code is what
// runs natively: cuBLAS on the call's handle and stream, device scratch,
// scalars read and updated where the pointer mode says).  Two losses, each
// uploading its host inputs, calling cuBLAS on a handle with a stream set,
// and reading its result back:
//  - level1: axpy, scal, copy, a strided swap, dot (a negative increment)
//    and nrm2, scalars and results in host memory, x uploaded by strided
//    cublasSetVector calls and y read back by cublasGetVector;
//  - level23: gemm (A B^T), gemv (transposed), ger and dot, scalars and the
//    result in device memory (CUBLAS_POINTER_MODE_DEVICE), alpha copied
//    there from the host, A uploaded by cublasSetMatrix into a leading
//    dimension larger than its rows;
//  - the same level 3 loss in single precision (cublasSgemm_v2) against
//    the double one;
//  - structured: symv, syr2, trmv (transposed), trsv (unit diagonal), syrk,
//    symm (right side), trsm (transposed) and asum, scalars on the host:
//    their adjoints' loops over a triangle or over elements run on host
//    copies of the device memory.
// Checked: reverse against central differences (rtol 1e-6), forward by the
// dot-product test (rtol 1e-10), each lane of width-2 reverse requests
// against the single request (1e-12), and the handle's pointer mode and
// stream unchanged by the derivative.
//
// REQUIRES: cuda, openblas
// RUN: %gpuad-cc --emulate -O2 %s -o %t -lcublas
// RUN: %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 -lcublas
// RUN: %t.O0 | FileCheck %s
// CHECK: cublas-gradients.cu: PASS

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "include/devcheck.h"

extern int enzyme_dup, enzyme_out, enzyme_const, enzyme_width, enzyme_dupv;
template <class R, class... T> R __enzyme_autodiff(void *, T...);
template <class R, class... T> R __enzyme_fwddiff(void *, T...);

constexpr int N = 8;                // level 1 vectors
constexpr int M = 5, P = 4, K = 3; // level 2/3: A is M x K, B is P x K

#define BLAS(call) CHECK((cudaError_t)(call))

template <class T> T *upload(const T *host, int n) {
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

double level1(cublasHandle_t h, const double *xh, const double *yh,
              double alpha) {
  // x through cuBLAS's own transfer, every other element of the host's
  // array into every element; y through the runtime.
  double *x, *y = upload(yh, N), *z;
  CHECK(cudaMalloc(&x, N * sizeof(double)));
  BLAS(cublasSetVector(N / 2, sizeof(double), xh, 2, x, 1));
  BLAS(cublasSetVector(N / 2, sizeof(double), xh + 1, 2, x + N / 2, 1));
  CHECK(cudaMalloc(&z, N * sizeof(double)));
  BLAS(cublasDaxpy_v2(h, N, &alpha, x, 1, y, 1));
  BLAS(cublasDscal_v2(h, N, &alpha, y, 1));
  BLAS(cublasDcopy_v2(h, N, y, 1, z, 1));
  BLAS(cublasDswap_v2(h, N / 2, z, 2, x, 1));
  double d, r, back[N];
  BLAS(cublasDdot_v2(h, N, z, 1, x, -1, &d));
  BLAS(cublasDnrm2_v2(h, N, y, 1, &r));
  BLAS(cublasGetVector(N, sizeof(double), y, 1, back, 1));
  d += back[1] * back[2];
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(z));
  return d * r + d;
}

cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b,
                    int m, int n, int k, const double *alpha, const double *A,
                    int lda, const double *B, int ldb, const double *beta,
                    double *C, int ldc) {
  return cublasDgemm_v2(h, a, b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b,
                    int m, int n, int k, const float *alpha, const float *A,
                    int lda, const float *B, int ldb, const float *beta,
                    float *C, int ldc) {
  return cublasSgemm_v2(h, a, b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n,
                    const double *alpha, const double *A, int lda,
                    const double *x, int incx, const double *beta, double *y,
                    int incy) {
  return cublasDgemv_v2(h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n,
                    const float *alpha, const float *A, int lda,
                    const float *x, int incx, const float *beta, float *y,
                    int incy) {
  return cublasSgemv_v2(h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t ger(cublasHandle_t h, int m, int n, const double *alpha,
                   const double *x, int incx, const double *y, int incy,
                   double *A, int lda) {
  return cublasDger_v2(h, m, n, alpha, x, incx, y, incy, A, lda);
}
cublasStatus_t ger(cublasHandle_t h, int m, int n, const float *alpha,
                   const float *x, int incx, const float *y, int incy,
                   float *A, int lda) {
  return cublasSger_v2(h, m, n, alpha, x, incx, y, incy, A, lda);
}
cublasStatus_t dot(cublasHandle_t h, int n, const double *x, int incx,
                   const double *y, int incy, double *r) {
  return cublasDdot_v2(h, n, x, incx, y, incy, r);
}
cublasStatus_t dot(cublasHandle_t h, int n, const float *x, int incx,
                   const float *y, int incy, float *r) {
  return cublasSdot_v2(h, n, x, incx, y, incy, r);
}

template <class T>
T level23(cublasHandle_t h, const T *Ah, const T *Bh, const T *xh, T alpha) {
  // A through cuBLAS's matrix transfer into a taller matrix (leading
  // dimension M + 2), B contiguously.
  constexpr int Lda = M + 2;
  T *A, *B, *x = upload(xh, M);
  CHECK(cudaMalloc(&A, Lda * K * sizeof(T)));
  CHECK(cudaMalloc(&B, P * K * sizeof(T)));
  BLAS(cublasSetMatrix(M, K, sizeof(T), Ah, M, A, Lda));
  BLAS(cublasSetMatrix(P, K, sizeof(T), Bh, P, B, P));
  T *y = upload(xh + 1, P), *C, *s;
  CHECK(cudaMalloc(&C, M * P * sizeof(T)));
  CHECK(cudaMemset(C, 0, M * P * sizeof(T)));
  T scalars[3] = {alpha, T(0.5), T(0)};
  s = upload(scalars, 3);
  BLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
  // C = alpha A B^T + C/2; y = alpha C^T x + y/2; C += alpha x y^T.
  BLAS(gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, M, P, K, s, A, Lda, B, P, s + 1, C,
            M));
  BLAS(gemv(h, CUBLAS_OP_T, M, P, s, C, M, x, 1, s + 1, y, 1));
  BLAS(ger(h, M, P, s, x, 1, y, 1, C, M));
  BLAS(dot(h, M * P, C, 1, C, 1, s + 2));
  BLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
  T r;
  CHECK(cudaMemcpy(&r, s + 2, sizeof(T), cudaMemcpyDeviceToHost));
  for (T *p : {A, B, x, y, C, s})
    CHECK(cudaFree(p));
  return r;
}

// Symmetric, triangular and asum routines (their adjoints' loops over a
// triangle or over elements run on host copies): an n x n A whose lower
// triangle is well conditioned, a unit upper triangular B.
constexpr int S = 4;

double structured(cublasHandle_t h, const double *Ah, const double *Bh,
                  const double *xh, double alpha) {
  double *A = upload(Ah, S * S), *B = upload(Bh, S * S), *x = upload(xh, S);
  double *y = upload(xh, S), *E = upload(Bh, S * S), *C;
  CHECK(cudaMalloc(&C, S * S * sizeof(double)));
  CHECK(cudaMemset(C, 0, S * S * sizeof(double)));
  double half = 0.5, zero = 0;
  const auto L = CUBLAS_FILL_MODE_LOWER, U = CUBLAS_FILL_MODE_UPPER;
  BLAS(cublasDsymv_v2(h, L, S, &alpha, A, S, x, 1, &half, y, 1));
  BLAS(cublasDsyr2_v2(h, U, S, &alpha, x, 1, y, 1, C, S));
  BLAS(cublasDtrmv_v2(h, L, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, S, A, S, y, 1));
  BLAS(cublasDtrsv_v2(h, U, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, S, B, S, y, 1));
  BLAS(cublasDsyrk_v2(h, L, CUBLAS_OP_T, S, S, &alpha, A, S, &half, C, S));
  BLAS(cublasDsymm_v2(h, CUBLAS_SIDE_RIGHT, L, S, S, &alpha, C, S, B, S,
                      &zero, E, S));
  BLAS(cublasDtrsm_v2(h, CUBLAS_SIDE_LEFT, L, CUBLAS_OP_T,
                      CUBLAS_DIAG_NON_UNIT, S, S, &alpha, A, S, E, S));
  double r1, r2;
  BLAS(cublasDasum_v2(h, S, y, 1, &r1));
  BLAS(cublasDdot_v2(h, S * S, E, 1, E, 1, &r2));
  for (double *p : {A, B, x, y, E, C})
    CHECK(cudaFree(p));
  return r1 + r2;
}

struct Lanes {
  double lane[2];
};

std::vector<double> pattern(int n, double scale, double shift) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = scale * std::sin(1.3 * i + shift);
  return v;
}

Tol fd{"fd", 1e-6}, dotTest{"dot", 1e-10}, same{"same", 1e-12},
    single{"float", 1e-4};

void checkLevel1(cublasHandle_t h) {
  std::vector<double> x = pattern(N, 1, 0.3), y = pattern(N, 0.7, 1.1);
  double alpha = 0.8;
  std::vector<double> gx(N, 0.0), gy(N, 0.0);
  double ga = __enzyme_autodiff<double>(
      (void *)level1, enzyme_const, h, enzyme_dup, x.data(), gx.data(),
      enzyme_dup, y.data(), gy.data(), enzyme_out, alpha);
  auto f = [&] { return level1(h, x.data(), y.data(), alpha); };
  for (int i = 0; i < N; ++i) {
    expectNear(fd, "level1 dx", i, gx[i], centralDifference(f, x, i));
    expectNear(fd, "level1 dy", i, gy[i], centralDifference(f, y, i));
  }
  std::vector<double> a = {alpha};
  expectNear(fd, "level1 dalpha", 0, ga, centralDifference([&] {
               return level1(h, x.data(), y.data(), a[0]);
             }, a, 0));
  // Forward: the tangent along (vx, vy, va) is <g, v>.
  std::vector<double> vx = pattern(N, 1, 2.0), vy = pattern(N, 1, 0.4);
  double va = 0.3;
  double t = __enzyme_fwddiff<double>(
      (void *)level1, enzyme_const, h, enzyme_dup, x.data(), vx.data(),
      enzyme_dup, y.data(), vy.data(), enzyme_dup, alpha, va);
  expectNear(dotTest, "level1 <g, v>", 0, t,
             dotProduct(gx, vx) + dotProduct(gy, vy) + ga * va);
  // Width 2: both lanes as the single request.
  std::vector<double> gx2(2 * N, 0.0), gy2(2 * N, 0.0);
  Lanes ga2 = __enzyme_autodiff<Lanes>(
      (void *)level1, enzyme_width, 2, enzyme_const, h, enzyme_dupv,
      (int)(N * sizeof(double)), x.data(), gx2.data(), enzyme_dupv,
      (int)(N * sizeof(double)), y.data(), gy2.data(), enzyme_out, alpha);
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < N; ++i) {
      expectNear(same, "level1 width 2 dx", i, gx2[l * N + i], gx[i]);
      expectNear(same, "level1 width 2 dy", i, gy2[l * N + i], gy[i]);
    }
    expectNear(same, "level1 width 2 dalpha", l, ga2.lane[l], ga);
  }
}

void checkLevel23(cublasHandle_t h) {
  std::vector<double> A = pattern(M * K, 1, 0.2), B = pattern(P * K, 0.9, 1.7),
                      x = pattern(M, 1.1, 0.9);
  double alpha = 0.7;
  std::vector<double> gA(M * K, 0.0), gB(P * K, 0.0), gx(M, 0.0);
  double ga = __enzyme_autodiff<double>(
      (void *)level23<double>, enzyme_const, h, enzyme_dup, A.data(),
      gA.data(), enzyme_dup, B.data(), gB.data(), enzyme_dup, x.data(),
      gx.data(), enzyme_out, alpha);
  auto f = [&] { return level23(h, A.data(), B.data(), x.data(), alpha); };
  for (int i = 0; i < M * K; ++i)
    expectNear(fd, "level23 dA", i, gA[i], centralDifference(f, A, i));
  for (int i = 0; i < P * K; ++i)
    expectNear(fd, "level23 dB", i, gB[i], centralDifference(f, B, i));
  for (int i = 0; i < M; ++i)
    expectNear(fd, "level23 dx", i, gx[i], centralDifference(f, x, i));
  std::vector<double> a = {alpha};
  expectNear(fd, "level23 dalpha", 0, ga, centralDifference([&] {
               return level23(h, A.data(), B.data(), x.data(), a[0]);
             }, a, 0));
  std::vector<double> vA = pattern(M * K, 1, 3.0), vB = pattern(P * K, 1, 0.1),
                      vx = pattern(M, 1, 1.4);
  double va = -0.4;
  double t = __enzyme_fwddiff<double>(
      (void *)level23<double>, enzyme_const, h, enzyme_dup, A.data(),
      vA.data(), enzyme_dup, B.data(), vB.data(), enzyme_dup, x.data(),
      vx.data(), enzyme_dup, alpha, va);
  expectNear(dotTest, "level23 <g, v>", 0, t,
             dotProduct(gA, vA) + dotProduct(gB, vB) + dotProduct(gx, vx) +
                 ga * va);
  std::vector<double> gA2(2 * M * K, 0.0), gB2(2 * P * K, 0.0),
      gx2(2 * M, 0.0);
  Lanes ga2 = __enzyme_autodiff<Lanes>(
      (void *)level23<double>, enzyme_width, 2, enzyme_const, h, enzyme_dupv,
      (int)(M * K * sizeof(double)), A.data(), gA2.data(), enzyme_dupv,
      (int)(P * K * sizeof(double)), B.data(), gB2.data(), enzyme_dupv,
      (int)(M * sizeof(double)), x.data(), gx2.data(), enzyme_out, alpha);
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < M * K; ++i)
      expectNear(same, "level23 width 2 dA", i, gA2[l * M * K + i], gA[i]);
    for (int i = 0; i < M; ++i)
      expectNear(same, "level23 width 2 dx", i, gx2[l * M + i], gx[i]);
    expectNear(same, "level23 width 2 dalpha", l, ga2.lane[l], ga);
  }
  // Single precision: the same gradient to float's accuracy.
  std::vector<float> Af(A.begin(), A.end()), Bf(B.begin(), B.end()),
      xf(x.begin(), x.end()), gAf(M * K, 0.0f), gBf(P * K, 0.0f),
      gxf(M, 0.0f);
  float gaf = __enzyme_autodiff<float>(
      (void *)level23<float>, enzyme_const, h, enzyme_dup, Af.data(),
      gAf.data(), enzyme_dup, Bf.data(), gBf.data(), enzyme_dup, xf.data(),
      gxf.data(), enzyme_out, (float)alpha);
  for (int i = 0; i < M * K; ++i)
    expectNear(single, "float dA", i, gAf[i], gA[i]);
  for (int i = 0; i < P * K; ++i)
    expectNear(single, "float dB", i, gBf[i], gB[i]);
  expectNear(single, "float dalpha", 0, gaf, ga);
}

void checkStructured(cublasHandle_t h) {
  std::vector<double> A = pattern(S * S, 0.5, 0.2), B = pattern(S * S, 0.4, 1.7),
                      x = pattern(S, 1.1, 0.9);
  for (int i = 0; i < S; ++i)
    A[i * S + i] += 3;
  double alpha = 0.7;
  std::vector<double> gA(S * S, 0.0), gB(S * S, 0.0), gx(S, 0.0);
  double ga = __enzyme_autodiff<double>(
      (void *)structured, enzyme_const, h, enzyme_dup, A.data(), gA.data(),
      enzyme_dup, B.data(), gB.data(), enzyme_dup, x.data(), gx.data(),
      enzyme_out, alpha);
  auto f = [&] { return structured(h, A.data(), B.data(), x.data(), alpha); };
  for (int i = 0; i < S * S; ++i) {
    expectNear(fd, "structured dA", i, gA[i], centralDifference(f, A, i));
    expectNear(fd, "structured dB", i, gB[i], centralDifference(f, B, i));
  }
  for (int i = 0; i < S; ++i)
    expectNear(fd, "structured dx", i, gx[i], centralDifference(f, x, i));
  std::vector<double> a = {alpha};
  expectNear(fd, "structured dalpha", 0, ga, centralDifference([&] {
               return structured(h, A.data(), B.data(), x.data(), a[0]);
             }, a, 0));
  std::vector<double> vA = pattern(S * S, 1, 3.0), vB = pattern(S * S, 1, 0.1),
                      vx = pattern(S, 1, 1.4);
  double va = -0.4;
  double t = __enzyme_fwddiff<double>(
      (void *)structured, enzyme_const, h, enzyme_dup, A.data(), vA.data(),
      enzyme_dup, B.data(), vB.data(), enzyme_dup, x.data(), vx.data(),
      enzyme_dup, alpha, va);
  expectNear(dotTest, "structured <g, v>", 0, t,
             dotProduct(gA, vA) + dotProduct(gB, vB) + dotProduct(gx, vx) +
                 ga * va);
  std::vector<double> gA2(2 * S * S, 0.0), gB2(2 * S * S, 0.0),
      gx2(2 * S, 0.0);
  Lanes ga2 = __enzyme_autodiff<Lanes>(
      (void *)structured, enzyme_width, 2, enzyme_const, h, enzyme_dupv,
      (int)(S * S * sizeof(double)), A.data(), gA2.data(), enzyme_dupv,
      (int)(S * S * sizeof(double)), B.data(), gB2.data(), enzyme_dupv,
      (int)(S * sizeof(double)), x.data(), gx2.data(), enzyme_out, alpha);
  for (int l = 0; l < 2; ++l) {
    for (int i = 0; i < S * S; ++i) {
      expectNear(same, "structured width 2 dA", i, gA2[l * S * S + i], gA[i]);
      expectNear(same, "structured width 2 dB", i, gB2[l * S * S + i], gB[i]);
    }
    expectNear(same, "structured width 2 dalpha", l, ga2.lane[l], ga);
  }
}

int main() {
  cublasHandle_t h;
  cudaStream_t stream;
  BLAS(cublasCreate_v2(&h));
  CHECK(cudaStreamCreate(&stream));
  BLAS(cublasSetStream_v2(h, stream));
  checkLevel1(h);
  checkLevel23(h);
  checkStructured(h);
  // The derivatives gave the handle back as they found it.
  cublasPointerMode_t mode;
  cudaStream_t now;
  BLAS(cublasGetPointerMode_v2(h, &mode));
  BLAS(cublasGetStream_v2(h, &now));
  expectNear(same, "pointer mode", 0, mode, CUBLAS_POINTER_MODE_HOST);
  expectNear(same, "stream", 0, now == stream, 1);
  BLAS(cublasDestroy_v2(h));
  return finish("cuBLAS levels 1-3 (17 routines) from host code, host and "
                "device scalars: reverse, forward, width 2, float",
                {&fd, &dotTest, &same, &single});
}
