; enzyme_out returns an adjoint by value, which only floating-point
; arguments have; on a pointer it is an error naming the argument.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_out applies to floating-point values; argument 1 of 'f' is not one

@enzyme_out = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

define double @caller(ptr %p) {
  %o = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, ptr %p)
  ret double %r
}
