; The bits of a double returned, as an integer, by a function whose body is
; not in the module, then used as a double: an error naming the call (the
; integer result is not taken for an inactive integer).
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate call to 'opaque': it has no derivative rule and its body is not in this module

declare double @__enzyme_autodiff(ptr, ...)
declare i64 @opaque(double)

define double @through_call(double %x) {
  %b = call i64 @opaque(double %x)
  %r = bitcast i64 %b to double
  ret double %r
}

define double @caller(double %x) {
  %b = call double (ptr, ...) @__enzyme_autodiff(ptr @through_call, double %x)
  ret double %b
}
