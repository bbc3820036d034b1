; In reverse mode a callee's returned struct that holds a pointer has a
; shadow (the augmented half returns it) but no seed, so a float beside the
; pointer would lose its adjoint: an error naming the returned value.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate the return of '{{.*}}%r1{{.*}}' in reverse mode: it holds both pointers and floating point values

declare void @__enzyme_autodiff(ptr, ...)

define internal { ptr, double } @g(ptr %x) noinline {
  %v = load double, ptr %x
  %m = fmul double %v, %v
  %r0 = insertvalue { ptr, double } poison, ptr %x, 0
  %r1 = insertvalue { ptr, double } %r0, double %m, 1
  ret { ptr, double } %r1
}

define double @f(ptr %x) {
  %r = call { ptr, double } @g(ptr %x)
  %p = extractvalue { ptr, double } %r, 0
  %a = load double, ptr %p
  %b = extractvalue { ptr, double } %r, 1
  %s = fadd double %a, %b
  ret double %s
}

define void @caller(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret void
}
