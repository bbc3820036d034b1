; A function with only a registered gradient, called in forward mode: the
; registration does not cover that mode, an error naming it.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: 'f' is called in fwd mode, which its registration '__enzyme_register_gradient_f' does not cover (__enzyme_register_derivative_... gives that mode)

@__enzyme_register_gradient_f = global [3 x ptr] [ptr @f, ptr @f_aug, ptr @f_rev]

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @f_aug(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @f_rev(double %x, double %seed) {
  %d = fmul double %x, %seed
  ret double %d
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
