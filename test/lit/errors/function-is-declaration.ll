; The function to differentiate must have a body in the module.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate 'elsewhere': only its declaration is in this module

declare double @__enzyme_fwddiff(ptr, ...)
declare double @elsewhere(double)

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @elsewhere, double %x, double 1.0)
  ret double %d
}
