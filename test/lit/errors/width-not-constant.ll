; enzyme_width must be a compile-time constant.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_width needs a compile-time constant, got 'i32 %n'

@enzyme_width = external global i32
declare <2 x double> @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define <2 x double> @caller(double %x, i32 %n) {
  %m = load i32, ptr @enzyme_width
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %m, i32 %n, double %x, double 1.0, double 0.0)
  ret <2 x double> %d
}
