; In reverse mode a float passed by value has no shadow to write its adjoint
; into: enzyme_dup on it is an error that names the argument and says to use
; enzyme_out.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_dup on argument 1 of 'f', a value, in reverse mode: use enzyme_out to get its adjoint (shadows are for pointers)

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x, double %dx) {
  %d = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, double %x, double %dx)
  ret double %r
}
