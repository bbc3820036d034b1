; llvm.powi has an integer exponent, which carries no derivative:
; d powi(x, n) = n powi(x, n-1) dx.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i32 %n) {
  %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
  ret double %r
}

define double @caller(double %x, double %dx, i32 %n) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %n)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dc.dret(double %x, double %x.d, i32 %n)
; CHECK:         %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
; CHECK-NEXT:    [[NM1:%.*]] = sub i32 %n, 1
; CHECK-NEXT:    [[NF:%.*]] = sitofp i32 %n to double
; CHECK-NEXT:    [[XP:%.*]] = call double @llvm.powi.f64.i32(double %x, i32 [[NM1]])
; CHECK-NEXT:    [[P:%.*]] = fmul double [[NF]], [[XP]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]
