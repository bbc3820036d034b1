//===- Cublas.cpp - cuBLAS on the CPU, over OpenBLAS ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The cuBLAS v2 API a program built with `gpuad-cc --emulate ... -lcublas`
/// calls, implemented with CBLAS (OpenBLAS, which the driver links in
/// -lcublas's place): handles, the stream and pointer mode set on them,
/// vector and matrix transfers, and the real routines of levels 1 to 3.
/// Device memory is host memory here, so device pointers go to CBLAS as
/// they are, and a scalar or result is read or written through its pointer
/// in either pointer mode.  Calls run synchronously (the emulator's streams
/// do).  Built against the toolkit's own headers, so every signature is the
/// one the program was compiled with.
//===----------------------------------------------------------------------===//

#include <cblas.h>
#include <cublas_v2.h>

#include <cstdint>
#include <cstring>
#include <new>

struct cublasContext {
  cudaStream_t Stream = nullptr;
  cublasPointerMode_t PointerMode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t MathMode = CUBLAS_DEFAULT_MATH;
};

namespace {

CBLAS_TRANSPOSE op(cublasOperation_t T) {
  return T == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; // real: C is T
}
CBLAS_UPLO fill(cublasFillMode_t F) {
  return F == CUBLAS_FILL_MODE_UPPER ? CblasUpper : CblasLower;
}
CBLAS_DIAG diag(cublasDiagType_t D) {
  return D == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit;
}
CBLAS_SIDE side(cublasSideMode_t S) {
  return S == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight;
}
constexpr CBLAS_ORDER Col = CblasColMajor;

cublasStatus_t checked(cublasHandle_t H) {
  return H ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

/// Strided copy of n elements of Size bytes.
void copyStrided(int N, int Size, const void *X, int IncX, void *Y, int IncY) {
  const char *From = static_cast<const char *>(X);
  char *To = static_cast<char *>(Y);
  for (int I = 0; I < N; ++I)
    std::memcpy(To + (int64_t)I * IncY * Size, From + (int64_t)I * IncX * Size,
                Size);
}

cublasStatus_t copyMatrix(int Rows, int Cols, int Size, const void *A, int Lda,
                          void *B, int Ldb) {
  if (Rows < 0 || Cols < 0 || Size <= 0 || Lda < Rows || Ldb < Rows)
    return CUBLAS_STATUS_INVALID_VALUE;
  for (int J = 0; J < Cols; ++J)
    std::memcpy(static_cast<char *>(B) + (int64_t)J * Ldb * Size,
                static_cast<const char *>(A) + (int64_t)J * Lda * Size,
                (size_t)Rows * Size);
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *Handle) {
  if (!Handle)
    return CUBLAS_STATUS_INVALID_VALUE;
  *Handle = new (std::nothrow) cublasContext();
  return *Handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t Handle) {
  delete Handle;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVersion_v2(cublasHandle_t, int *Version) {
  *Version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t H, cudaStream_t Stream) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  H->Stream = Stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t H, cudaStream_t *Stream) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *Stream = H->Stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t Mode) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  H->PointerMode = Mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t *Mode) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *Mode = H->PointerMode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMathMode(cublasHandle_t H, cublasMath_t Mode) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  H->MathMode = Mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t H, cublasMath_t *Mode) {
  if (!H)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *Mode = H->MathMode;
  return CUBLAS_STATUS_SUCCESS;
}
const char *cublasGetStatusString(cublasStatus_t Status) {
  return Status == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS"
                                         : "CUBLAS_STATUS_ERROR";
}

cublasStatus_t cublasSetVector(int N, int Size, const void *X, int IncX,
                               void *Y, int IncY) {
  if (N < 0 || Size <= 0 || IncX == 0 || IncY == 0)
    return CUBLAS_STATUS_INVALID_VALUE;
  copyStrided(N, Size, X, IncX, Y, IncY);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVector(int N, int Size, const void *X, int IncX,
                               void *Y, int IncY) {
  return cublasSetVector(N, Size, X, IncX, Y, IncY);
}
cublasStatus_t cublasSetMatrix(int Rows, int Cols, int Size, const void *A,
                               int Lda, void *B, int Ldb) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb);
}
cublasStatus_t cublasGetMatrix(int Rows, int Cols, int Size, const void *A,
                               int Lda, void *B, int Ldb) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb);
}
cublasStatus_t cublasSetVectorAsync(int N, int Size, const void *X, int IncX,
                                    void *Y, int IncY, cudaStream_t) {
  return cublasSetVector(N, Size, X, IncX, Y, IncY);
}
cublasStatus_t cublasGetVectorAsync(int N, int Size, const void *X, int IncX,
                                    void *Y, int IncY, cudaStream_t) {
  return cublasSetVector(N, Size, X, IncX, Y, IncY);
}
cublasStatus_t cublasSetMatrixAsync(int Rows, int Cols, int Size, const void *A,
                                    int Lda, void *B, int Ldb, cudaStream_t) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb);
}
cublasStatus_t cublasGetMatrixAsync(int Rows, int Cols, int Size, const void *A,
                                    int Lda, void *B, int Ldb, cudaStream_t) {
  return copyMatrix(Rows, Cols, Size, A, Lda, B, Ldb);
}

// The routines, one definition per precision: P is the CBLAS letter, T the
// element type.
#define GPUAD_CUBLAS_REAL(P, PC, T)                                            \
  cublasStatus_t cublas##PC##dot_v2(cublasHandle_t H, int N, const T *X,       \
                                    int IncX, const T *Y, int IncY,            \
                                    T *Result) {                               \
    *Result = cblas_##P##dot(N, X, IncX, Y, IncY);                             \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##axpy_v2(cublasHandle_t H, int N, const T *Alpha,  \
                                     const T *X, int IncX, T *Y, int IncY) {   \
    cblas_##P##axpy(N, *Alpha, X, IncX, Y, IncY);                              \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##scal_v2(cublasHandle_t H, int N, const T *Alpha,  \
                                     T *X, int IncX) {                         \
    cblas_##P##scal(N, *Alpha, X, IncX);                                       \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##nrm2_v2(cublasHandle_t H, int N, const T *X,      \
                                     int IncX, T *Result) {                    \
    *Result = cblas_##P##nrm2(N, X, IncX);                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##asum_v2(cublasHandle_t H, int N, const T *X,      \
                                     int IncX, T *Result) {                    \
    *Result = cblas_##P##asum(N, X, IncX);                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##copy_v2(cublasHandle_t H, int N, const T *X,      \
                                     int IncX, T *Y, int IncY) {               \
    cblas_##P##copy(N, X, IncX, Y, IncY);                                      \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##swap_v2(cublasHandle_t H, int N, T *X, int IncX,  \
                                     T *Y, int IncY) {                         \
    cblas_##P##swap(N, X, IncX, Y, IncY);                                      \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublasI##P##amax_v2(cublasHandle_t H, int N, const T *X,      \
                                     int IncX, int *Result) {                  \
    *Result = N > 0 && IncX > 0 ? (int)cblas_i##P##amax(N, X, IncX) + 1 : 0;   \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublasI##P##amin_v2(cublasHandle_t H, int N, const T *X,      \
                                     int IncX, int *Result) {                  \
    int Best = 0;                                                              \
    for (int I = 1; N > 0 && IncX > 0 && I < N; ++I)                           \
      if ((X[(int64_t)I * IncX] < 0 ? -X[(int64_t)I * IncX]                    \
                                    : X[(int64_t)I * IncX]) <                  \
          (X[(int64_t)Best * IncX] < 0 ? -X[(int64_t)Best * IncX]              \
                                       : X[(int64_t)Best * IncX]))             \
        Best = I;                                                              \
    *Result = N > 0 && IncX > 0 ? Best + 1 : 0;                                \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##gemv_v2(                                          \
      cublasHandle_t H, cublasOperation_t Trans, int M, int N, const T *Alpha, \
      const T *A, int Lda, const T *X, int IncX, const T *Beta, T *Y,          \
      int IncY) {                                                              \
    cblas_##P##gemv(Col, op(Trans), M, N, *Alpha, A, Lda, X, IncX, *Beta, Y,   \
                    IncY);                                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##ger_v2(cublasHandle_t H, int M, int N,            \
                                    const T *Alpha, const T *X, int IncX,      \
                                    const T *Y, int IncY, T *A, int Lda) {     \
    cblas_##P##ger(Col, M, N, *Alpha, X, IncX, Y, IncY, A, Lda);               \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##symv_v2(cublasHandle_t H, cublasFillMode_t Uplo,  \
                                     int N, const T *Alpha, const T *A,        \
                                     int Lda, const T *X, int IncX,            \
                                     const T *Beta, T *Y, int IncY) {          \
    cblas_##P##symv(Col, fill(Uplo), N, *Alpha, A, Lda, X, IncX, *Beta, Y,     \
                    IncY);                                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##syr2_v2(                                          \
      cublasHandle_t H, cublasFillMode_t Uplo, int N, const T *Alpha,          \
      const T *X, int IncX, const T *Y, int IncY, T *A, int Lda) {             \
    cblas_##P##syr2(Col, fill(Uplo), N, *Alpha, X, IncX, Y, IncY, A, Lda);     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##trmv_v2(                                          \
      cublasHandle_t H, cublasFillMode_t Uplo, cublasOperation_t Trans,        \
      cublasDiagType_t Diag, int N, const T *A, int Lda, T *X, int IncX) {     \
    cblas_##P##trmv(Col, fill(Uplo), op(Trans), diag(Diag), N, A, Lda, X,      \
                    IncX);                                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##trsv_v2(                                          \
      cublasHandle_t H, cublasFillMode_t Uplo, cublasOperation_t Trans,        \
      cublasDiagType_t Diag, int N, const T *A, int Lda, T *X, int IncX) {     \
    cblas_##P##trsv(Col, fill(Uplo), op(Trans), diag(Diag), N, A, Lda, X,      \
                    IncX);                                                     \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##gemm_v2(                                          \
      cublasHandle_t H, cublasOperation_t TransA, cublasOperation_t TransB,    \
      int M, int N, int K, const T *Alpha, const T *A, int Lda, const T *B,    \
      int Ldb, const T *Beta, T *C, int Ldc) {                                 \
    cblas_##P##gemm(Col, op(TransA), op(TransB), M, N, K, *Alpha, A, Lda, B,   \
                    Ldb, *Beta, C, Ldc);                                       \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##symm_v2(                                          \
      cublasHandle_t H, cublasSideMode_t Side, cublasFillMode_t Uplo, int M,   \
      int N, const T *Alpha, const T *A, int Lda, const T *B, int Ldb,         \
      const T *Beta, T *C, int Ldc) {                                          \
    cblas_##P##symm(Col, side(Side), fill(Uplo), M, N, *Alpha, A, Lda, B, Ldb, \
                    *Beta, C, Ldc);                                            \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##syrk_v2(cublasHandle_t H, cublasFillMode_t Uplo,  \
                                     cublasOperation_t Trans, int N, int K,    \
                                     const T *Alpha, const T *A, int Lda,      \
                                     const T *Beta, T *C, int Ldc) {           \
    cblas_##P##syrk(Col, fill(Uplo), op(Trans), N, K, *Alpha, A, Lda, *Beta,   \
                    C, Ldc);                                                   \
    return checked(H);                                                         \
  }                                                                            \
  /* cuBLAS's trmm writes C = alpha op(A) B (B op(A)), B left as it was. */    \
  cublasStatus_t cublas##PC##trmm_v2(                                          \
      cublasHandle_t H, cublasSideMode_t Side, cublasFillMode_t Uplo,          \
      cublasOperation_t Trans, cublasDiagType_t Diag, int M, int N,            \
      const T *Alpha, const T *A, int Lda, const T *B, int Ldb, T *C,          \
      int Ldc) {                                                               \
    if (B != C && copyMatrix(M, N, sizeof(T), B, Ldb, C, Ldc))                 \
      return CUBLAS_STATUS_INVALID_VALUE;                                      \
    cblas_##P##trmm(Col, side(Side), fill(Uplo), op(Trans), diag(Diag), M, N,  \
                    *Alpha, A, Lda, C, Ldc);                                   \
    return checked(H);                                                         \
  }                                                                            \
  cublasStatus_t cublas##PC##trsm_v2(                                          \
      cublasHandle_t H, cublasSideMode_t Side, cublasFillMode_t Uplo,          \
      cublasOperation_t Trans, cublasDiagType_t Diag, int M, int N,            \
      const T *Alpha, const T *A, int Lda, T *B, int Ldb) {                    \
    cblas_##P##trsm(Col, side(Side), fill(Uplo), op(Trans), diag(Diag), M, N,  \
                    *Alpha, A, Lda, B, Ldb);                                   \
    return checked(H);                                                         \
  }

GPUAD_CUBLAS_REAL(s, S, float)
GPUAD_CUBLAS_REAL(d, D, double)

#undef GPUAD_CUBLAS_REAL

} // extern "C"
