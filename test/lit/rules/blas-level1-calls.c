// The derivatives of BLAS routines are BLAS calls, and a buffer the adjoint
// reads is copied before the call only where something overwrites it.
// RUN: %gpuad-cc -O1 -S -emit-llvm %s -o - | FileCheck %s

extern double cblas_ddot(int n, const double *x, int incx, const double *y,
                         int incy);
extern void cblas_dscal(int n, double a, double *x, int incx);
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

// Nothing writes x or y after dot reads them: its adjoint reads them where
// they are (x_bar += r_bar y, y_bar += r_bar x), with the call's strides.
// CHECK-LABEL: define internal void @dot_only.rev
// CHECK-NOT: @malloc
// CHECK: call double @cblas_ddot(i32 {{.*}}, i32 noundef 1, ptr {{.*}}, i32 noundef 2)
// CHECK-NOT: @malloc
// CHECK: call void @cblas_daxpy(i32 [[N:%[0-9]+]], double {{.*}}, ptr [[Y:%[0-9]+]], i32 2, ptr [[DX:%[0-9]+]], i32 1)
// CHECK-NEXT: call void @cblas_daxpy(i32 [[N]], double {{.*}}, ptr [[X:%[0-9]+]], i32 1, ptr [[DY:%[0-9]+]], i32 2)
// CHECK-NOT: @free
// CHECK: ret void
double dot_only(double *x, double *y, int n) {
  return cblas_ddot(n, x, 1, y, 2);
}

// scal overwrites x: the adjoint of its alpha (x . x_bar, x before the
// call) reads a copy saved right before it, freed once read.
// CHECK-LABEL: define internal double @scal_alpha.rev
// CHECK: [[SAVED:%[0-9]+]] = {{.*}}call ptr @malloc(
// CHECK-NEXT: call void @cblas_dcopy(i32 {{%[0-9]+}}, ptr {{%[0-9]+}}, i32 1, ptr [[SAVED]], i32 1)
// CHECK-NEXT: call void @cblas_dscal(
// CHECK: call double @cblas_ddot(i32 {{%[0-9]+}}, ptr [[SAVED]], i32 1, ptr {{%[0-9]+}}, i32 1)
// CHECK-NEXT: call void @cblas_dscal(
// CHECK-NEXT: call void @free(ptr [[SAVED]])
double scal_alpha(double *x, int n, double a) {
  cblas_dscal(n, a, x, 1);
  return cblas_ddot(n, x, 1, x, 1);
}

// Forward mode: dot's tangent is two dots on the shadows, before the call.
// CHECK-LABEL: define internal double @dot_only.fwd
// CHECK: call double @cblas_ddot(i32 {{%[0-9]+}}, ptr {{%[0-9]+}}, i32 1, ptr {{%[0-9]+}}, i32 2)
// CHECK-NEXT: call double @cblas_ddot(i32 {{%[0-9]+}}, ptr {{%[0-9]+}}, i32 1, ptr {{%[0-9]+}}, i32 2)
// CHECK-NEXT: fadd
// CHECK-NEXT: call double @cblas_ddot(

void grads(double *x, double *dx, double *y, double *dy, int n, double a) {
  __enzyme_autodiff((void *)dot_only, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
  __enzyme_autodiff((void *)scal_alpha, enzyme_dup, x, dx, enzyme_const, n, a);
  __enzyme_fwddiff((void *)dot_only, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n);
}
