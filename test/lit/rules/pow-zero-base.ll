; Regression: pow at a zero base.  The exponent's partial r*log(x) is
; 0 * -inf there; x^y is 0 for every y > 0, so the partial is 0 (was NaN even
; for a zero exponent tangent).  Likewise y*x^(y-1) at y == 0 is 0.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @pow(double, double)

define double @f(double %x, double %y) {
  %r = call double @pow(double %x, double %y)
  ret double %r
}

; CHECK-LABEL: define internal double @f.fwd.dd.dret(
; CHECK-DAG: [[YZERO:%.*]] = fcmp oeq double %y, 0.000000e+00
; CHECK-DAG: select i1 [[YZERO]], double 0.000000e+00,
; CHECK-DAG: [[LOG:%.*]] = call double @llvm.log.f64(double %x)
; CHECK-DAG: [[XZERO:%.*]] = fcmp oeq double %x, 0.000000e+00
; CHECK-DAG: select i1 [[XZERO]], double 0.000000e+00,
define double @caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %d
}
