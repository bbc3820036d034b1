; A registration with fewer elements than Enzyme's ABI says.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_register_derivative_k': a registration must be initialised with 2 element(s)

@__enzyme_register_derivative_k = global [1 x ptr] [ptr @k]

declare double @__enzyme_fwddiff(ptr, ...)

define double @k(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @k, double %x, double 1.0)
  ret double %d
}
