; Inline assembly on an active value cannot be differentiated.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate inline assembly on values that carry derivatives

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %y = call double asm "fsqrt", "=f,f"(double %x)
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
