; The declared result must hold what the derivative returns: here width 2
; gives two tangents, but the call declares one double.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the request declares its result as double, but the derivative of 'f' returns 2 value(s): (double, double) (one tangent per direction)

@enzyme_width = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %w = load i32, ptr @enzyme_width
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.0)
  ret double %d
}
