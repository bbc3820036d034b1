; Unmarked arguments: integers are const, floats and pointers duplicated
; (each followed by its tangent or shadow).
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(i32 %n, double %x, ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: call double @f.fwd.cdd.dret(i32 %n, double %x, double %dx, ptr %p, ptr %dp)
define double @caller(i32 %n, double %x, double %dx, ptr %p, ptr %dp) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %n, double %x, double %dx, ptr %p, ptr %dp)
  ret double %r
}
