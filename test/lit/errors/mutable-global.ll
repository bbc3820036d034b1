; Derivatives cannot flow through a mutable global: it has no shadow.  The
; value written here is read back by @g, so the store is an error.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: an active value is stored to global memory ('ptr @scratch'), which has no shadow, and may be read back

@scratch = global double 0.0
declare double @__enzyme_fwddiff(ptr, ...)

define double @g() {
  %v = load double, ptr @scratch
  ret double %v
}

define double @f(double %x) {
  %m = fmul double %x, %x
  store double %m, ptr @scratch
  %v = call double @g()
  ret double %v
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
