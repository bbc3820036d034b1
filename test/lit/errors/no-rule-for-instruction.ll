; Integer arithmetic on the bits of an active double has no rule (flipping the
; lowest mantissa bit; the sign-bit idioms are fneg and fabs instead); the error
; names the instruction.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: no derivative rule for '%abs = xor i64 %bits, 1'

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %bits = bitcast double %x to i64
  %abs = xor i64 %bits, 1
  %r = bitcast i64 %abs to double
  ret double %r
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
