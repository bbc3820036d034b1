; a / sqrt(b), the square root used only there, is one rule in reverse mode:
; t = 1 / (sqrt(b) * b), d/da = b t, d/db = -0.5 a t -- one division, and
; the square root's own rule (0.5 / sqrt(b)) is not applied.  Used twice,
; the square root keeps its rule.  (Values: test/integration/rev-div-sqrt.c.)
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

define void @f(double %a, double %b) {
  %d1 = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @pot, double %a, double %b)
  %d2 = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @shared, double %a, double %b)
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
