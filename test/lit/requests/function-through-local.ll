; At -O0 the function may reach the request through a local variable.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: call double @f.fwd.d.dret(double %x, double 1.000000e+00)
define double @caller(double %x) {
  %slot = alloca ptr
  store ptr @f, ptr %slot
  %fp = load ptr, ptr %slot
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr %fp, double %x, double 1.0)
  ret double %r
}
