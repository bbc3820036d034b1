; At -O0 the function to differentiate may come from a local variable
; assigned once.  When the local's address is also passed to a call, the
; callee may store another function there: the request cannot tell which
; function it names, and says so instead of differentiating the one stored.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot tell which function to differentiate

declare double @__enzyme_autodiff(ptr, ...)
declare void @choose(ptr)

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @f(double %x) {
  %fp = alloca ptr
  store ptr @sq, ptr %fp
  call void @choose(ptr %fp)
  %g = load ptr, ptr %fp
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %g, double %x)
  ret double %d
}
