; enzyme_primal_return: the result holds the primal value, then the tangent.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_primal_return = external global i32
declare { double, double } @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define { double, double } @caller(
; CHECK: [[R:%.*]] = call { double, double } @f.fwd.d.dret.pret(double %x, double 1.000000e+00)
; CHECK-LABEL: define internal { double, double } @f.fwd.d.dret.pret(
; CHECK: [[M:%.*]] = fmul double %x, %x
; CHECK: [[P:%.*]] = insertvalue { double, double } poison, double [[M]], 0
; CHECK: insertvalue { double, double } [[P]], double {{.*}}, 1
define { double, double } @caller(double %x) {
  %p = load i32, ptr @enzyme_primal_return
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %p, double %x, double 1.0)
  ret { double, double } %r
}
