; A registered forward derivative takes one tangent per argument: a request
; at width 2 is an error naming the registration.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_register_derivative_w': a registered derivative takes one shadow per argument; it cannot serve width 2

@__enzyme_register_derivative_w = global [2 x ptr] [ptr @w, ptr @w_fwd]
@enzyme_width = external global i32
@enzyme_dup = external global i32

declare <2 x double> @__enzyme_fwddiff(ptr, ...)

define double @w(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @w_fwd(double %x, double %dx) {
  %t = fmul double %x, %dx
  %d = fadd double %t, %t
  ret double %d
}

define <2 x double> @caller(double %x) {
  %w = load i32, ptr @enzyme_width
  %dup = load i32, ptr @enzyme_dup
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @w, i32 %w, i32 2, i32 %dup, double %x, double 1.0, double 0.5)
  ret <2 x double> %d
}
