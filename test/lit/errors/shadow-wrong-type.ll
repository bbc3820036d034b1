; The shadow of a pointer must be a pointer.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: shadow of argument 1 of 'f' has type double, expected ptr

@enzyme_dup = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

define double @caller(ptr %p) {
  %m = load i32, ptr @enzyme_dup
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %m, ptr %p, double 1.0)
  ret double %d
}
