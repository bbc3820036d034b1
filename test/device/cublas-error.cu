// cuBLAS routines whose derivatives would need a loop over device memory
// (asum's signs, a triangle of a triangular solve's matrix) stop with an
// error naming the routine and the mode, at -O2 and -O0; so does a cuBLAS
// routine gpuad has no rule for.
//
// REQUIRES: cuda
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc --cuda-host-only --cuda-gpu-arch=sm_75 -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: cublas-error.cu:[[#@LINE+13]]:3: error: gpuad: cannot differentiate 'cublasDasum_v2' in reverse mode: its adjoint needs a loop over the elements of device memory, which gpuad does not emit for cuBLAS
// CHECK-DAG: cublas-error.cu:[[#@LINE+18]]:3: error: gpuad: cannot differentiate 'cublasDtrsv_v2' in reverse mode: its adjoint needs a loop over a triangle of device memory, which gpuad does not emit for cuBLAS
// CHECK-DAG: cublas-error.cu:[[#@LINE+11]]:3: error: gpuad: cannot differentiate 'cublasDasum_v2' in forward mode: its tangent needs a loop over the elements of device memory, which gpuad does not emit for cuBLAS
// CHECK-DAG: error: gpuad: cannot differentiate call to 'cublasDgeam'

#include <cublas_v2.h>

extern int enzyme_dup, enzyme_const;
template <class R, class... T> R __enzyme_autodiff(void *, T...);
template <class R, class... T> R __enzyme_fwddiff(void *, T...);

double norm1(cublasHandle_t h, int n, const double *x) {
  double r;
  cublasDasum_v2(h, n, x, 1, &r);
  return r;
}

double solved(cublasHandle_t h, int n, const double *A, double *x) {
  double r;
  cublasDtrsv_v2(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                 n, A, n, x, 1);
  cublasDdot_v2(h, n, x, 1, x, 1, &r);
  return r;
}

double added(cublasHandle_t h, int n, const double *A, double *C) {
  double one = 1, r;
  cublasDgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, &one, A, n, &one, A, n, C, n);
  cublasDdot_v2(h, n * n, C, 1, C, 1, &r);
  return r;
}

void gradients(cublasHandle_t h, int n, double *x, double *dx, double *A,
               double *dA, double *C, double *dC) {
  __enzyme_autodiff<double>((void *)norm1, enzyme_const, h, enzyme_const, n,
                            enzyme_dup, x, dx);
  __enzyme_fwddiff<double>((void *)norm1, enzyme_const, h, enzyme_const, n,
                           enzyme_dup, x, dx);
  __enzyme_autodiff<double>((void *)solved, enzyme_const, h, enzyme_const, n,
                            enzyme_dup, A, dA, enzyme_dup, x, dx);
  __enzyme_autodiff<double>((void *)added, enzyme_const, h, enzyme_const, n,
                            enzyme_dup, A, dA, enzyme_dup, C, dC);
}
