; Forward over forward: a function that itself requests a derivative can be
; differentiated once its own request is lowered, whatever the module order.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

; outer comes first in the module, but inner's request is lowered first.
define double @outer(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @inner, double %x, double 1.0)
  ret double %d
}

define double @inner(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0)
  ret double %d
}

define double @square(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; The derivative of inner (= 2x) differentiates square's derivative, whose
; tangent is 2 * x.d * x.d1 -- the second derivative 2 when both are 1.
; CHECK-LABEL: define double @outer(
; CHECK: call double @inner.fwd.d.dret(double %x, double 1.000000e+00)
; CHECK-LABEL: define internal double @inner.fwd.d.dret(double %x, double %x.d)
; CHECK: call { double, double } @square.fwd.d.dret.fwd.dc.dret.pret(double %x, double %x.d, double 1.000000e+00)
; CHECK-LABEL: define internal { double, double } @square.fwd.d.dret.fwd.dc.dret.pret(double %x, double %x.d, double %x.d1)
; CHECK: [[T:%.*]] = fmul double %x.d1, %x.d
; CHECK: fadd double [[T]], [[T]]
; CHECK-NOT: __enzyme_fwddiff
