; enzyme_out has no meaning in forward mode.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_out is not valid in forward mode (use enzyme_dup with a tangent)

@enzyme_out = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %o = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %o, double %x)
  ret double %d
}
