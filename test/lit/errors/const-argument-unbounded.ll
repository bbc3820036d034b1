; An argument passed as enzyme_const whose memory carries derivatives at
; offsets no analysis can bound (an index read from memory), on a host that
; is not Linux: gpuad can neither size a scratch shadow nor reserve address
; space for one, and says so instead of dropping the derivative.  (On Linux
; the shadow is reserved address space: rev-const-scratch-reserved.c.)
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}gpuad: argument 2 'state' of 'f' is passed as enzyme_const, but derivatives flow through its memory {{.*}}here it cannot ({{.*}}): pass it with enzyme_dup and a zeroed shadow

target triple = "x86_64-apple-macosx14.0.0"

declare double @__enzyme_autodiff(ptr, ...)

@enzyme_const = external global i32

define double @f(double %x, ptr %state, ptr %slot) {
  %i = load i64, ptr %slot
  %slot.next = getelementptr i64, ptr %slot, i64 1
  %j = load i64, ptr %slot.next
  %sq = fmul double %x, %x
  %at = getelementptr double, ptr %state, i64 %i
  store double %sq, ptr %at
  %from = getelementptr double, ptr %state, i64 %j
  %back = load double, ptr %from
  %r = fmul double %back, %x
  ret double %r
}

define double @caller(double %x, ptr %state, ptr %slot) {
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %c, ptr %state, i32 %c, ptr %slot)
  ret double %d
}
