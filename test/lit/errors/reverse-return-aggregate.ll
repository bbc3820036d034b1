; Combined reverse mode seeds an active return with 1; a returned struct of
; floats has no one seed: an error naming the function, its type and what
; to write instead.  With enzyme_const_return the same request is fine.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s
; RUN: sed 's/@enzyme_dup_return/@enzyme_const_return/' %s | %opt -passes=gpuad -disable-output

; CHECK: error: {{.*}}gpuad: reverse mode seeds the result of 'g' with 1, but it returns an aggregate ({ double, double }): pass enzyme_const_return to leave it unseeded

@enzyme_out = external global i32
@enzyme_dup_return = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define { double, double } @g(double %x) {
  %sq = fmul double %x, %x
  %t = fmul double %x, 3.0
  %r0 = insertvalue { double, double } poison, double %sq, 0
  %r1 = insertvalue { double, double } %r0, double %t, 1
  ret { double, double } %r1
}

define double @f(double %x) {
  %o = load i32, ptr @enzyme_out
  %d = load i32, ptr @enzyme_dup_return
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %d, i32 %o, double %x)
  ret double %r
}
