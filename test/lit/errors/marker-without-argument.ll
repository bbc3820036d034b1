; A marker at the end of the request applies to nothing.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: marker at the end of the request applies to no argument

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i32 %c)
  ret double %d
}
