//===- CublasLegacy.cpp - The legacy cuBLAS API on the CPU ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The legacy cuBLAS API (cublas.h: no handle, scalars by value, flags as
/// characters, results returned) over CBLAS, as Cublas.cpp does for v2; its
/// own file, since a translation unit may include only one of the two
/// headers.  Device memory is host memory here.  cublasSetVector and the
/// other transfers are the v2 API's own (Cublas.cpp).
//===----------------------------------------------------------------------===//

#include <cblas.h>
#include <cublas.h>

#include <cstdlib>

namespace {

CBLAS_TRANSPOSE op(char T) {
  return T == 'N' || T == 'n' ? CblasNoTrans : CblasTrans; // real: C is T
}
CBLAS_UPLO fill(char F) {
  return F == 'U' || F == 'u' ? CblasUpper : CblasLower;
}
CBLAS_DIAG diag(char D) {
  return D == 'U' || D == 'u' ? CblasUnit : CblasNonUnit;
}
CBLAS_SIDE side(char S) {
  return S == 'L' || S == 'l' ? CblasLeft : CblasRight;
}
constexpr CBLAS_ORDER Col = CblasColMajor;

} // namespace

extern "C" {

cublasStatus_t cublasInit() { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasShutdown() { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasGetError() { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetKernelStream(cudaStream_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasAlloc(int N, int ElemSize, void **DevicePtr) {
  if (N <= 0 || ElemSize <= 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  *DevicePtr = std::calloc(N, ElemSize);
  return *DevicePtr ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}
cublasStatus_t cublasFree(void *DevicePtr) {
  std::free(DevicePtr);
  return CUBLAS_STATUS_SUCCESS;
}

// The routines, one definition per precision: P is the CBLAS letter, T the
// element type.
#define GPUAD_CUBLAS_LEGACY(P, PC, T)                                          \
  T cublas##PC##dot(int N, const T *X, int IncX, const T *Y, int IncY) {       \
    return cblas_##P##dot(N, X, IncX, Y, IncY);                                \
  }                                                                            \
  T cublas##PC##nrm2(int N, const T *X, int IncX) {                            \
    return cblas_##P##nrm2(N, X, IncX);                                        \
  }                                                                            \
  T cublas##PC##asum(int N, const T *X, int IncX) {                            \
    return cblas_##P##asum(N, X, IncX);                                        \
  }                                                                            \
  void cublas##PC##axpy(int N, T Alpha, const T *X, int IncX, T *Y,            \
                        int IncY) {                                            \
    cblas_##P##axpy(N, Alpha, X, IncX, Y, IncY);                               \
  }                                                                            \
  void cublas##PC##scal(int N, T Alpha, T *X, int IncX) {                      \
    cblas_##P##scal(N, Alpha, X, IncX);                                        \
  }                                                                            \
  void cublas##PC##copy(int N, const T *X, int IncX, T *Y, int IncY) {         \
    cblas_##P##copy(N, X, IncX, Y, IncY);                                      \
  }                                                                            \
  void cublas##PC##swap(int N, T *X, int IncX, T *Y, int IncY) {               \
    cblas_##P##swap(N, X, IncX, Y, IncY);                                      \
  }                                                                            \
  void cublas##PC##gemv(char Trans, int M, int N, T Alpha, const T *A,         \
                        int Lda, const T *X, int IncX, T Beta, T *Y,           \
                        int IncY) {                                            \
    cblas_##P##gemv(Col, op(Trans), M, N, Alpha, A, Lda, X, IncX, Beta, Y,     \
                    IncY);                                                     \
  }                                                                            \
  void cublas##PC##ger(int M, int N, T Alpha, const T *X, int IncX,            \
                       const T *Y, int IncY, T *A, int Lda) {                  \
    cblas_##P##ger(Col, M, N, Alpha, X, IncX, Y, IncY, A, Lda);                \
  }                                                                            \
  void cublas##PC##symv(char Uplo, int N, T Alpha, const T *A, int Lda,        \
                        const T *X, int IncX, T Beta, T *Y, int IncY) {        \
    cblas_##P##symv(Col, fill(Uplo), N, Alpha, A, Lda, X, IncX, Beta, Y,       \
                    IncY);                                                     \
  }                                                                            \
  void cublas##PC##syr2(char Uplo, int N, T Alpha, const T *X, int IncX,       \
                        const T *Y, int IncY, T *A, int Lda) {                 \
    cblas_##P##syr2(Col, fill(Uplo), N, Alpha, X, IncX, Y, IncY, A, Lda);      \
  }                                                                            \
  void cublas##PC##trmv(char Uplo, char Trans, char Diag, int N, const T *A,   \
                        int Lda, T *X, int IncX) {                             \
    cblas_##P##trmv(Col, fill(Uplo), op(Trans), diag(Diag), N, A, Lda, X,      \
                    IncX);                                                     \
  }                                                                            \
  void cublas##PC##trsv(char Uplo, char Trans, char Diag, int N, const T *A,   \
                        int Lda, T *X, int IncX) {                             \
    cblas_##P##trsv(Col, fill(Uplo), op(Trans), diag(Diag), N, A, Lda, X,      \
                    IncX);                                                     \
  }                                                                            \
  void cublas##PC##gemm(char TransA, char TransB, int M, int N, int K,         \
                        T Alpha, const T *A, int Lda, const T *B, int Ldb,     \
                        T Beta, T *C, int Ldc) {                               \
    cblas_##P##gemm(Col, op(TransA), op(TransB), M, N, K, Alpha, A, Lda, B,    \
                    Ldb, Beta, C, Ldc);                                        \
  }                                                                            \
  void cublas##PC##symm(char Side, char Uplo, int M, int N, T Alpha,           \
                        const T *A, int Lda, const T *B, int Ldb, T Beta,      \
                        T *C, int Ldc) {                                       \
    cblas_##P##symm(Col, side(Side), fill(Uplo), M, N, Alpha, A, Lda, B, Ldb,  \
                    Beta, C, Ldc);                                             \
  }                                                                            \
  void cublas##PC##syrk(char Uplo, char Trans, int N, int K, T Alpha,          \
                        const T *A, int Lda, T Beta, T *C, int Ldc) {          \
    cblas_##P##syrk(Col, fill(Uplo), op(Trans), N, K, Alpha, A, Lda, Beta, C,  \
                    Ldc);                                                      \
  }                                                                            \
  void cublas##PC##trmm(char Side, char Uplo, char Trans, char Diag, int M,    \
                        int N, T Alpha, const T *A, int Lda, T *B, int Ldb) {  \
    cblas_##P##trmm(Col, side(Side), fill(Uplo), op(Trans), diag(Diag), M, N,  \
                    Alpha, A, Lda, B, Ldb);                                    \
  }                                                                            \
  void cublas##PC##trsm(char Side, char Uplo, char Trans, char Diag, int M,    \
                        int N, T Alpha, const T *A, int Lda, T *B, int Ldb) {  \
    cblas_##P##trsm(Col, side(Side), fill(Uplo), op(Trans), diag(Diag), M, N,  \
                    Alpha, A, Lda, B, Ldb);                                    \
  }

GPUAD_CUBLAS_LEGACY(s, S, float)
GPUAD_CUBLAS_LEGACY(d, D, double)

#undef GPUAD_CUBLAS_LEGACY

} // extern "C"
