; A program's own function whose name is a rule family's internal name
; ("copy": the identity row behind llvm.canonicalize) or a spelling whose
; type does not fit the row is an ordinary call, differentiated through its
; body (ADBench's hand: `void copy(Matrix *dst, const Matrix *src)`, which
; taken for the identity would stay the primal call, its shadow never made).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define void @copy(ptr %dst, ptr %src) {
  %v = load double, ptr %src
  store double %v, ptr %dst
  ret void
}

define double @f(double %x) {
  %xs = alloca double
  %ys = alloca double
  store double %x, ptr %xs
  call void @copy(ptr %ys, ptr %xs)
  %y = load double, ptr %ys
  %r = fmul double %y, %y
  ret double %r
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal {{.*}} @f.rev
; CHECK: call {{.*}}@copy.aug
; CHECK: call {{.*}}@copy.bwd
