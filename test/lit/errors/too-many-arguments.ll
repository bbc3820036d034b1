; Values left over after every parameter has its primal (and shadow).
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: too many arguments: 'f' takes 1 parameter(s); extra value 'double 2.000000e+00'

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, double 2.0)
  ret double %d
}
