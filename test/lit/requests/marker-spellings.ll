; Markers are recognised as a global passed by value (a load), a global passed
; by address, and an IR metadata string; all three mean the same.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %p, double %s, double %t) {
  %v = load double, ptr %p
  %m = fmul double %v, %s
  %r = fadd double %m, %t
  ret double %r
}

; p is dup (by value), s is const (by address), t is const (metadata): only
; p's shadow reaches the tangent.
; CHECK-LABEL: define double @caller(
; CHECK: call double @f.fwd.dcc.dret(ptr %p, ptr %dp, double %s, double %t)
define double @caller(ptr %p, ptr %dp, double %s, double %t) {
  %d = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %d, ptr %p, ptr %dp, ptr @enzyme_const, double %s, metadata !"enzyme_const", double %t)
  ret double %r
}

; CHECK-LABEL: define internal double @f.fwd.dcc.dret(ptr %p, ptr %p.d, double %s, double %t)
; CHECK: [[DV:%.*]] = load double, ptr %p.d
; CHECK: [[T:%.*]] = fmul double %s, [[DV]]
; CHECK: ret double [[T]]
