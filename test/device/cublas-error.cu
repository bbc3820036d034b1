// cuBLAS calls gpuad has no rule for stop with an error naming the routine,
// at -O2 and -O0: an extension (geam), and trmm, which cuBLAS spells out of
// place (C = alpha op(A) B), unlike BLAS.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: cublas-error.cu:[[#@LINE+10]]:3: error: gpuad: cannot differentiate call to 'cublasDgeam': it has no derivative rule and its body is not in this module
// CHECK-DAG: cublas-error.cu:[[#@LINE+17]]:3: error: gpuad: cannot differentiate call to 'cublasDtrmm_v2': it has no derivative rule and its body is not in this module

#include <cublas_v2.h>

extern int enzyme_dup, enzyme_const;
template <class R, class... T> R __enzyme_autodiff(void *, T...);

double added(cublasHandle_t h, int n, const double *A, double *C) {
  double one = 1, r;
  cublasDgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, &one, A, n, &one, A, n, C, n);
  cublasDdot_v2(h, n * n, C, 1, C, 1, &r);
  return r;
}

double multiplied(cublasHandle_t h, int n, const double *A, const double *B,
                  double *C) {
  double one = 1, r;
  cublasDtrmm_v2(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                 CUBLAS_DIAG_NON_UNIT, n, n, &one, A, n, B, n, C, n);
  cublasDdot_v2(h, n * n, C, 1, C, 1, &r);
  return r;
}

void gradients(cublasHandle_t h, int n, double *A, double *dA, double *B,
               double *dB, double *C, double *dC) {
  __enzyme_autodiff<double>((void *)added, enzyme_const, h, enzyme_const, n,
                            enzyme_dup, A, dA, enzyme_dup, C, dC);
  __enzyme_autodiff<double>((void *)multiplied, enzyme_const, h, enzyme_const,
                            n, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup,
                            C, dC);
}
