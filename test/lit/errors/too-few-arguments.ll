; A request that passes fewer values than the function has parameters.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: too few arguments: 'f' takes 2 parameter(s), the request passes 1

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
