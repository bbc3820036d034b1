; __enzyme_reverse of a function with an active float return needs that
; return's adjoint after the arguments; without it the call is an error.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: too few arguments: __enzyme_reverse of 'f' needs the adjoint of its return after the arguments

declare double @__enzyme_reverse(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @no_seed(double %x) {
  %d = call double (ptr, ...) @__enzyme_reverse(ptr @f, double %x)
  ret double %d
}
