; enzyme_dupv describes shadows in memory; it applies to pointers only.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_dupv applies to pointers; argument 1 of 'f' is not one

@enzyme_dupv = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x, ptr %base) {
  %v = load i32, ptr @enzyme_dupv
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %v, i64 8, double %x, ptr %base)
  ret double %d
}
