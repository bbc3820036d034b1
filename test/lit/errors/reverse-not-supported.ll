; Reverse-mode entry points are parsed but not implemented yet.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_autodiff' (rev mode) is not yet supported; only __enzyme_fwddiff is

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
