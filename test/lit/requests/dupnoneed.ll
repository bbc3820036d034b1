; enzyme_dupnoneed takes a shadow like enzyme_dup.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_dupnoneed = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: call double @f.fwd.d.dret(ptr %p, ptr %dp)
define double @caller(ptr %p, ptr %dp) {
  %n = load i32, ptr @enzyme_dupnoneed
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %n, ptr %p, ptr %dp)
  ret double %r
}
