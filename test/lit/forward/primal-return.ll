; enzyme_primal_return: the derivative returns {primal, tangent} (`.pret`),
; and the request's { double, double } result is built from both.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

@enzyme_primal_return = external global i32

declare { double, double } @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %e = call double @llvm.exp.f64(double %x)
  ret double %e
}

define { double, double } @caller(double %x, double %dx) {
  %m = load i32, ptr @enzyme_primal_return
  %d = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %m, double %x, double %dx)
  ret { double, double } %d
}

; CHECK-LABEL: define { double, double } @caller(double %x, double %dx)
; CHECK-NEXT:    [[R:%.*]] = call { double, double } @f.fwd.d.dret.pret(double %x, double %dx)
; CHECK-NEXT:    [[P:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK-NEXT:    [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT:    [[A0:%.*]] = insertvalue { double, double } poison, double [[P]], 0
; CHECK-NEXT:    [[A1:%.*]] = insertvalue { double, double } [[A0]], double [[T]], 1
; CHECK-NEXT:    ret { double, double } [[A1]]

; CHECK-LABEL: define internal { double, double } @f.fwd.d.dret.pret(double %x, double %x.d)
; CHECK-NEXT:    %e = call double @llvm.exp.f64(double %x)
; CHECK-NEXT:    [[DE:%.*]] = fmul double %e, %x.d
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %e, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DE]], 1
; CHECK-NEXT:    ret { double, double } [[R1]]
