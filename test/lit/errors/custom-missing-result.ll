; The augmented function returns only a tape, but the caller uses f's
; result and f may write memory (so gpuad cannot call it again for the
; result): an error saying what to return.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_register_gradient_m' does not return the result of 'm', which its caller uses (return {tape, result} from the augmented function, {result, tangent} from the forward one)

@__enzyme_register_gradient_m = global [3 x ptr] [ptr @m, ptr @m_aug, ptr @m_rev]

declare double @__enzyme_autodiff(ptr, ...)

define double @m(ptr %p) {
  %v = load double, ptr %p
  store double 0.0, ptr %p
  ret double %v
}

define ptr @m_aug(ptr %p, ptr %dp) {
  ret ptr null
}

define void @m_rev(ptr %p, ptr %dp, double %seed, ptr %tape) {
  ret void
}

define double @outer(ptr %p) {
  %v = call double @m(ptr %p)
  %w = fmul double %v, %v
  ret double %w
}

define void @caller(ptr %p, ptr %dp) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @outer, ptr %p, ptr %dp)
  ret void
}
