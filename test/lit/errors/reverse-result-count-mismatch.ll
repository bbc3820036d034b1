; Two float arguments are enzyme_out by default in reverse mode, so the
; derivative returns two adjoints; a request declared to return a single
; double is an error that names both shapes.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the request declares its result as double, but the derivative of 'f' returns 2 value(s): (double, double) (each enzyme_out argument's adjoint, in order)

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x, double %y) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret double %r
}
