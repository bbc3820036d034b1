; A duplicated argument whose shadow is missing at the end of the request.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: too few arguments: missing shadow of argument 1 of 'f'

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x)
  ret double %d
}
