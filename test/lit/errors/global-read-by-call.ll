; A mutable global gets a shadow only where the differentiated function
; sees every access: the value written here is read back by @g, whose own
; analysis would not know the global carries a derivative.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: global variable 'scratch' carries derivatives, and the call '%v = call double @g()' may read or write globals

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
