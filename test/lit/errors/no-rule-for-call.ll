; An external function without a rule that receives an active value.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate call to 'mystery': it has no derivative rule and its body is not in this module

declare double @__enzyme_fwddiff(ptr, ...)
declare double @mystery(double)

define double @f(double %x) {
  %y = call double @mystery(double %x)
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
