; A call to a function defined in the module becomes a call to that function's
; own forward derivative, which returns {primal, tangent} (`.pret`); the
; caller's derivative continues with both.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @g(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

; sin(x) * x
define double @f(double %x) {
  %a = call double @g(double %x)
  %b = fmul double %a, %x
  ret double %b
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.d.dret(double %x, double %x.d)
; CHECK-NOT:     call double @g(
; CHECK-NEXT:    [[G:%.*]] = call { double, double } @g.fwd.d.dret.pret(double %x, double %x.d)
; CHECK-NEXT:    [[A:%.*]] = extractvalue { double, double } [[G]], 0
; CHECK-NEXT:    [[DA:%.*]] = extractvalue { double, double } [[G]], 1
; CHECK-NEXT:    %b = fmul double [[A]], %x
; CHECK-NEXT:    [[P1:%.*]] = fmul double %x, [[DA]]
; CHECK-NEXT:    [[P2:%.*]] = fmul double [[A]], %x.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[P1]], [[P2]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal { double, double } @g.fwd.d.dret.pret(double %x, double %x.d)
; CHECK-NEXT:    %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[COS]], %x.d
; CHECK-NEXT:    [[R0:%.*]] = insertvalue { double, double } poison, double %s, 0
; CHECK-NEXT:    [[R1:%.*]] = insertvalue { double, double } [[R0]], double [[DS]], 1
; CHECK-NEXT:    ret { double, double } [[R1]]
