// cuBLAS on the emulator: the program builds as it would natively
// (`-lcublas`), and its cublas*_v2 calls run on the CPU over OpenBLAS.  Each
// routine runs on device buffers -- scalars and results on the host, then on
// the device (CUBLAS_POINTER_MODE_DEVICE), on a stream set on the handle --
// and is compared with OpenBLAS called directly on host copies (the same
// library: equal to the last bit, checked to 1e-14).
//
// REQUIRES: cuda, openblas
// RUN: %gpuad-cc --emulate -O2 %s -o %t -lcublas
// RUN: %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 -lcublas -lcublasLt
// RUN: %t.O0 | FileCheck %s
// CHECK: cublas: 20 routines and transfers agree with OpenBLAS in both pointer modes

#include <cblas.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != 0) {                                                         \
      std::printf("%s:%d: %s failed\n", __FILE__, __LINE__, #call);           \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

static int Failures = 0, Checked = 0;

static void expectSame(const char *What, const std::vector<double> &Got,
                       const std::vector<double> &Want) {
  ++Checked;
  for (size_t I = 0; I < Want.size(); ++I)
    if (std::fabs(Got[I] - Want[I]) > 1e-14 * std::fmax(1.0, std::fabs(Want[I]))) {
      std::printf("FAIL %s[%zu]: %.17g, OpenBLAS %.17g\n", What, I, Got[I],
                  Want[I]);
      ++Failures;
      return;
    }
}

static double *toDevice(const std::vector<double> &H) {
  double *D;
  CHECK(cudaMalloc(&D, H.size() * sizeof(double)));
  CHECK(cublasSetVector((int)H.size(), sizeof(double), H.data(), 1, D, 1));
  return D;
}

static std::vector<double> toHost(const double *D, size_t N) {
  std::vector<double> H(N);
  CHECK(cublasGetVector((int)N, sizeof(double), D, 1, H.data(), 1));
  return H;
}

static std::vector<double> filled(size_t N, double Seed) {
  std::vector<double> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = std::sin(Seed + 0.7 * I) + (I % 5 == 0 ? 2.0 : 0.0);
  return V;
}

// Every routine once with scalars where the handle's pointer mode says.
static void runAll(cublasHandle_t H, bool DeviceScalars) {
  const int N = 5;
  std::vector<double> A = filled(N * N, 0.3), B = filled(N * N, 1.1),
                      C = filled(N * N, 2.3), X = filled(N, 0.9),
                      Y = filled(N, 1.7);
  for (int I = 0; I < N; ++I)
    A[I * N + I] += 4.0; // a well-conditioned triangle
  double Alpha = 0.75, Beta = -0.5;
  double *DA = toDevice(A), *DB = toDevice(B), *DC = toDevice(C),
         *DX = toDevice(X), *DY = toDevice(Y);
  double *Scalars = nullptr;
  const double *PAlpha = &Alpha, *PBeta = &Beta;
  double HostResult = 0, *PResult = &HostResult;
  if (DeviceScalars) {
    CHECK(cudaMalloc(&Scalars, 3 * sizeof(double)));
    double Init[3] = {Alpha, Beta, 0};
    CHECK(cudaMemcpy(Scalars, Init, sizeof Init, cudaMemcpyHostToDevice));
    PAlpha = Scalars, PBeta = Scalars + 1, PResult = Scalars + 2;
  }
  auto Result = [&] {
    double R = HostResult;
    if (DeviceScalars)
      CHECK(cudaMemcpy(&R, PResult, sizeof R, cudaMemcpyDeviceToHost));
    return R;
  };
  auto Reset = [&](double *D, const std::vector<double> &V) {
    CHECK(cudaMemcpy(D, V.data(), V.size() * sizeof(double),
                     cudaMemcpyHostToDevice));
  };
  std::vector<double> W;

  CHECK(cublasDdot(H, N, DX, 1, DY, 1, PResult));
  expectSame("dot", {Result()}, {cblas_ddot(N, X.data(), 1, Y.data(), 1)});
  CHECK(cublasDnrm2(H, N, DX, 1, PResult));
  expectSame("nrm2", {Result()}, {cblas_dnrm2(N, X.data(), 1)});
  CHECK(cublasDasum(H, N, DX, 1, PResult));
  expectSame("asum", {Result()}, {cblas_dasum(N, X.data(), 1)});
  int Index = 0;
  CHECK(cublasIdamax(H, N, DX, 1, &Index));
  expectSame("amax", {double(Index)},
             {double(cblas_idamax(N, X.data(), 1) + 1)});

  CHECK(cublasDaxpy(H, N, PAlpha, DX, 1, DY, 1));
  W = Y, cblas_daxpy(N, Alpha, X.data(), 1, W.data(), 1);
  expectSame("axpy", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDscal(H, N, PAlpha, DY, 1));
  W = Y, cblas_dscal(N, Alpha, W.data(), 1);
  expectSame("scal", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDcopy(H, 3, DX, 2, DY, 1));
  W = Y, cblas_dcopy(3, X.data(), 2, W.data(), 1);
  expectSame("copy", toHost(DY, N), W);
  Reset(DY, Y);

  CHECK(cublasDgemv(H, CUBLAS_OP_T, N, N, PAlpha, DA, N, DX, 1, PBeta, DY, 1));
  W = Y, cblas_dgemv(CblasColMajor, CblasTrans, N, N, Alpha, A.data(), N,
                     X.data(), 1, Beta, W.data(), 1);
  expectSame("gemv", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDsymv(H, CUBLAS_FILL_MODE_UPPER, N, PAlpha, DA, N, DX, 1, PBeta,
                    DY, 1));
  W = Y, cblas_dsymv(CblasColMajor, CblasUpper, N, Alpha, A.data(), N,
                     X.data(), 1, Beta, W.data(), 1);
  expectSame("symv", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDtrsv(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                    CUBLAS_DIAG_NON_UNIT, N, DA, N, DY, 1));
  W = Y, cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, N,
                     A.data(), N, W.data(), 1);
  expectSame("trsv", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDtrmv(H, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT,
                    N, DA, N, DY, 1));
  W = Y, cblas_dtrmv(CblasColMajor, CblasUpper, CblasTrans, CblasUnit, N,
                     A.data(), N, W.data(), 1);
  expectSame("trmv", toHost(DY, N), W);
  Reset(DY, Y);
  CHECK(cublasDger(H, N, N, PAlpha, DX, 1, DY, 1, DC, N));
  W = C, cblas_dger(CblasColMajor, N, N, Alpha, X.data(), 1, Y.data(), 1,
                    W.data(), N);
  expectSame("ger", toHost(DC, N * N), W);
  Reset(DC, C);
  CHECK(cublasDsyr2(H, CUBLAS_FILL_MODE_LOWER, N, PAlpha, DX, 1, DY, 1, DC,
                    N));
  W = C, cblas_dsyr2(CblasColMajor, CblasLower, N, Alpha, X.data(), 1,
                     Y.data(), 1, W.data(), N);
  expectSame("syr2", toHost(DC, N * N), W);
  Reset(DC, C);

  CHECK(cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_T, N, N, N, PAlpha, DA, N, DB,
                    N, PBeta, DC, N));
  W = C, cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, N, N, N, Alpha,
                     A.data(), N, B.data(), N, Beta, W.data(), N);
  expectSame("gemm", toHost(DC, N * N), W);
  Reset(DC, C);
  CHECK(cublasDsymm(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, N, N, PAlpha,
                    DA, N, DB, N, PBeta, DC, N));
  W = C, cblas_dsymm(CblasColMajor, CblasRight, CblasUpper, N, N, Alpha,
                     A.data(), N, B.data(), N, Beta, W.data(), N);
  expectSame("symm", toHost(DC, N * N), W);
  Reset(DC, C);
  CHECK(cublasDsyrk(H, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, N, N, PAlpha, DA,
                    N, PBeta, DC, N));
  W = C, cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, N, N, Alpha,
                     A.data(), N, Beta, W.data(), N);
  expectSame("syrk", toHost(DC, N * N), W);
  Reset(DC, C);
  // cuBLAS's trmm is out of place: C = alpha op(A) B.
  CHECK(cublasDtrmm(H, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                    CUBLAS_DIAG_NON_UNIT, N, N, PAlpha, DA, N, DB, N, DC, N));
  W = B, cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans,
                     CblasNonUnit, N, N, Alpha, A.data(), N, W.data(), N);
  expectSame("trmm", toHost(DC, N * N), W);
  expectSame("trmm's B", toHost(DB, N * N), B);
  Reset(DC, C);
  CHECK(cublasDtrsm(H, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                    CUBLAS_DIAG_NON_UNIT, N, N, PAlpha, DA, N, DC, N));
  W = C, cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans,
                     CblasNonUnit, N, N, Alpha, A.data(), N, W.data(), N);
  expectSame("trsm", toHost(DC, N * N), W);

  // A matrix transfer with leading dimensions.
  std::vector<double> Sub(3 * 2);
  CHECK(cublasGetMatrix(3, 2, sizeof(double), DA, N, Sub.data(), 3));
  expectSame("getmatrix", Sub, {A[0], A[1], A[2], A[5], A[6], A[7]});

  for (double *D : {DA, DB, DC, DX, DY, Scalars})
    if (D)
      CHECK(cudaFree(D));
}

int main() {
  cublasHandle_t H;
  CHECK(cublasCreate(&H));
  cudaStream_t Stream;
  CHECK(cudaStreamCreate(&Stream));
  CHECK(cublasSetStream(H, Stream));
  runAll(H, /*DeviceScalars=*/false);
  CHECK(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
  cublasPointerMode_t Mode;
  CHECK(cublasGetPointerMode(H, &Mode));
  if (Mode != CUBLAS_POINTER_MODE_DEVICE)
    ++Failures;
  runAll(H, /*DeviceScalars=*/true);
  CHECK(cudaStreamSynchronize(Stream));
  CHECK(cudaStreamDestroy(Stream));
  CHECK(cublasDestroy(H));
  if (Failures) {
    std::printf("cublas: %d of %d checks failed\n", Failures, Checked);
    return 1;
  }
  std::printf("cublas: %d routines and transfers agree with OpenBLAS in both "
              "pointer modes\n",
              Checked / 2);
  return 0;
}
