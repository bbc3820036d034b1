; A registered reverse function whose parameters do not follow f's (a
; pointer without its shadow): an error naming the registration and the
; expected parameters.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_register_gradient_g': 'g_rev' takes (ptr, double), which does not fit 'g': expected (ptr, ptr, double) and optionally the tape

@__enzyme_register_gradient_g = global [3 x ptr] [ptr @g, ptr @g_aug, ptr @g_rev]

declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %p, double %x) {
  store double %x, ptr %p
  ret void
}

define ptr @g_aug(ptr %p, ptr %dp, double %x) {
  store double %x, ptr %p
  ret ptr null
}

define double @g_rev(ptr %dp, double %x) {
  ret double %x
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %p, ptr %dp, double 1.0)
  ret void
}
