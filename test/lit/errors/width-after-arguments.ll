; enzyme_width must come before the arguments it applies to.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_width must come before the arguments it applies to

@enzyme_width = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x, double %y) {
  %w = load i32, ptr @enzyme_width
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i32 %w, i32 2, double %y, double 0.0, double 1.0)
  ret double %d
}
