; A select of active values selects between their tangents with the same
; (primal) condition.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %c = fcmp olt double %x, %y
  %m = select i1 %c, double %x, double %y
  ret double %m
}

define double @caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK-NEXT:    %c = fcmp olt double %x, %y
; CHECK-NEXT:    %m = select i1 %c, double %x, double %y
; CHECK-NEXT:    [[D:%.*]] = select i1 %c, double %x.d, double %y.d
; CHECK-NEXT:    ret double [[D]]
