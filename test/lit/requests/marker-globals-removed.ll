; After the pass no reference to a marker remains: extern declarations are
; deleted (PTX has no unresolved externs), definitions the user wrote stay.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

; CHECK-NOT: @enzyme_dup
; CHECK: @enzyme_const = global i32 0
; CHECK-NOT: @enzyme_dup
; CHECK-NOT: __enzyme_fwddiff

@enzyme_dup = external global i32
@enzyme_const = global i32 0
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %p, double %s) {
  %v = load double, ptr %p
  %m = fmul double %v, %s
  ret double %m
}

define double @caller(ptr %p, ptr %dp, double %s) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %d, ptr %p, ptr %dp, i32 %c, double %s)
  ret double %r
}
