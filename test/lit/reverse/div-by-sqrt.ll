; a / sqrt(b), the square root used only there, is one rule in reverse mode:
; t = 1 / (sqrt(b) * b), d/da = b t, d/db = -0.5 a t -- one division, and
; the square root's own rule (0.5 / sqrt(b)) is not applied.  With a constant
; numerator only b's adjoint is needed: (-0.5 a DI) / (sqrt(b) b), the
; division last.  Used twice, the square root keeps its rule.  A square's
; adjoint on the host is DI (x + x).  (Values: test/integration/rev-div-sqrt.c
; and the pair potential there.)
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @llvm.sqrt.f64(double)
declare { double, double } @__enzyme_autodiff(ptr, ...)

define double @pot(double %a, double %b) {
  %s = call double @llvm.sqrt.f64(double %b)
  %q = fdiv double %a, %s
  ret double %q
}

define double @shared(double %a, double %b) {
  %s = call double @llvm.sqrt.f64(double %b)
  %q = fdiv double %a, %s
  %r = fadd double %q, %s
  ret double %r
}

; m / sqrt(x * x + c), m constant to the request.
define double @pot_const(double %m, double %x) {
  %x2 = fmul double %x, %x
  %b = fadd double %x2, 1.000000e-03
  %s = call double @llvm.sqrt.f64(double %b)
  %q = fdiv double %m, %s
  ret double %q
}

@enzyme_const = external global i32

define void @f(double %a, double %b) {
  %d1 = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @pot, double %a, double %b)
  %d2 = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @shared, double %a, double %b)
  %c = load i32, ptr @enzyme_const
  %d3 = call double (ptr, ...) @__enzyme_autodiff(ptr @pot_const, i32 %c, double %a, double %b)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @pot.rev
; CHECK-DAG:   [[HALF_A:%.*]] = fmul double %a, -5.000000e-01
; CHECK-DAG:   [[S:%.*]] = call double @llvm.sqrt.f64(double %b)
; CHECK:       [[SB:%.*]] = fmul double [[S]], %b
; CHECK-NEXT:  [[T:%.*]] = fdiv double 1.000000e+00, [[SB]]
; CHECK-NEXT:  fmul double [[HALF_A]], [[T]]
; CHECK-NEXT:  fmul double %b, [[T]]
; CHECK-NOT:   fdiv
; CHECK:       ret

; CHECK-LABEL: define internal {{.*}} @shared.rev
; CHECK:       fmul double {{.*}}5.000000e-01
; CHECK:       ret

; CHECK-LABEL: define internal {{.*}} @pot_const.rev
; CHECK-DAG:   [[TWO_X:%.*]] = fadd double %x, %x
; CHECK-DAG:   [[HALF_M:%.*]] = fmul double %m, -5.000000e-01
; CHECK-DAG:   [[S:%.*]] = call double @llvm.sqrt.f64(double [[B:%.*]])
; CHECK:       [[SB:%.*]] = fmul double [[S]], [[B]]
; CHECK-NEXT:  [[DB:%.*]] = fdiv double [[HALF_M]], [[SB]]
; CHECK-NEXT:  fmul double [[TWO_X]], [[DB]]
; CHECK-NOT:   fdiv
; CHECK:       ret
