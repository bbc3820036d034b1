; An enzyme_* global the ABI does not define is an error naming it.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: unknown marker 'enzyme_duplicate'

@enzyme_duplicate = external global i32

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %m = load i32, ptr @enzyme_duplicate
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %m, double %x, double 1.0)
  ret double %d
}
