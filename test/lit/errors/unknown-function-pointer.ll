; The request names something that is not a function.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot tell which function to differentiate from 'ptr %fp'

declare double @__enzyme_fwddiff(ptr, ...)

define double @caller(ptr %fp, double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr %fp, double %x, double 1.0)
  ret double %d
}
