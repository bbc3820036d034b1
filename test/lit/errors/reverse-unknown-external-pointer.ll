; An external function without a derivative rule that receives a
; duplicated (active) pointer: reverse mode cannot know what it reads or
; writes through it, so the request is an error naming the callee -- not a
; silently wrong gradient.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate call to 'mystery': it has no derivative rule and its body is not in this module

declare void @__enzyme_autodiff(ptr, ...)
declare void @mystery(ptr)

define double @f(ptr %p) {
  call void @mystery(ptr %p)
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp)
  ret void
}
