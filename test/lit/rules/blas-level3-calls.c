// gemm's adjoint is two gemms (A_bar += alpha C_bar op(B)^T, B_bar +=
// alpha op(A)^T C_bar) and C_bar's scaling by beta, not loops; a matrix the
// adjoint reads is copied before the call only where something overwrites
// it.  BLAS forbids gemm's C to overlap A or B, so the call's own write
// does not count.
// RUN: %gpuad-cc -O1 -S -emit-llvm %s -o - | FileCheck %s

enum { CblasRowMajor = 101, CblasColMajor = 102 };
enum { CblasNoTrans = 111, CblasTrans = 112 };
extern void cblas_dgemm(int layout, int transa, int transb, int m, int n,
                        int k, double alpha, const double *a, int lda,
                        const double *b, int ldb, double beta, double *c,
                        int ldc);

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

// Nothing writes A or B after the call: the adjoint reads them in place.
// Column major, C = A B^T: A_bar += C_bar B (flags N, N), B_bar +=
// C_bar^T A (flags T, N).
// CHECK-LABEL: define internal void @mm.rev
// CHECK-NOT: @malloc
// CHECK: call void @cblas_dgemm(i32 noundef 102, i32 noundef 111, i32 noundef 112, {{.*}}, ptr noundef [[A:%[0-9]+]], i32 noundef {{%[0-9]+}}, ptr noundef [[B:%[0-9]+]],
// CHECK-NEXT: call void @cblas_dgemm(i32 102, i32 111, i32 111, {{.*}}, ptr [[DC:%[0-9]+]], i32 {{%[0-9]+}}, ptr [[B]], i32 {{%[0-9]+}}, double 1.000000e+00, ptr [[DA:%[0-9]+]],
// CHECK-NEXT: call void @cblas_dgemm(i32 102, i32 112, i32 111, {{.*}}, ptr [[DC]], i32 {{%[0-9]+}}, ptr [[A]], i32 {{%[0-9]+}}, double 1.000000e+00, ptr [[DB:%[0-9]+]],
// CHECK-NEXT: call void @gpuad.columns.cblas_dscal.i32(i32 102, {{.*}}, double 5.000000e-01, ptr [[DC]],
// CHECK-NOT: @cblas_dgemm
// CHECK: ret void
void mm(const double *A, const double *B, double *C, int n) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, A, n, B,
              n, 0.5, C, n);
}

// A is overwritten after the call and B_bar needs it: a copy of A, from
// its first element to its last, is saved before the call and freed once
// the adjoint has read it.
// CHECK-LABEL: define internal void @mm_over.rev
// CHECK: [[SAVED:%[0-9]+]] = {{.*}}call ptr @malloc(
// CHECK-NEXT: call void @cblas_dcopy(i32 {{%[0-9]+}}, ptr [[A:%[0-9]+]], i32 1, ptr [[SAVED]], i32 1)
// CHECK-NEXT: call void @cblas_dgemm(i32 noundef 101, {{.*}}, ptr noundef [[A]],
// CHECK: call void @cblas_dgemm(i32 101, i32 112, i32 111, {{.*}}, ptr [[SAVED]], i32 {{%[0-9]+}}, ptr {{%[0-9]+}}, i32 {{%[0-9]+}}, double 1.000000e+00, ptr
// CHECK: call void @free(ptr [[SAVED]])
void mm_over(double *restrict A, const double *restrict B, double *restrict C,
             int n) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B,
              n, 0.0, C, n);
  A[0] = 0;
}

void grads(double *A, double *dA, double *B, double *dB, double *C,
           double *dC, int n) {
  __enzyme_autodiff((void *)mm, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_dup, C, dC, enzyme_const, n);
  __enzyme_autodiff((void *)mm_over, enzyme_const, A, enzyme_dup, B, dB,
                    enzyme_dup, C, dC, enzyme_const, n);
}
