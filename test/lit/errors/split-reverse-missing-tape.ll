; __enzyme_reverse takes the arguments, the adjoint of an active return,
; then the tape; a call without the tape says so.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: too few arguments: __enzyme_reverse of 'f' needs the tape __enzyme_augmentfwd returned, last

declare double @__enzyme_reverse(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @no_tape(double %x) {
  %d = call double (ptr, ...) @__enzyme_reverse(ptr @f, double %x, double 1.0)
  ret double %d
}
