; Without enzyme_allocated, the type a request declares for the tape holds
; the tape's bytes when they fit, else a pointer to it; a type too small
; even for a pointer (4 bytes here) is an error naming the sizes, in both
; calls (not a tape cut short; split-declared-tape-too-small-reverse.ll
; is the reverse call's).
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the tape of 'f' needs {{[0-9]+}} bytes, or 8 for a pointer to it, but __enzyme_augmentfwd declares it as i32, which holds 4 bytes

declare { i32, double } @__enzyme_augmentfwd(ptr, ...)

define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %m = fmul double %v, %s
  %s.next = fadd double %m, %v
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

define double @caller(ptr %x, ptr %dx, i64 %n) {
  %r = call { i32, double } (ptr, ...) @__enzyme_augmentfwd(ptr @f, ptr %x, ptr %dx, i64 %n)
  %p = extractvalue { i32, double } %r, 1
  ret double %p
}

