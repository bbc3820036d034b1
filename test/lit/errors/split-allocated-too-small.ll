; enzyme_allocated N promises the tape fits in N bytes; one that needs more
; is an error naming both sizes (not a silent overflow of the user's buffer).
; The tape here holds one double per loop iteration: a pointer, the exit
; iteration and more -- far more than 4 bytes.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the tape of 'f' needs {{[0-9]+}} bytes, but enzyme_allocated gives 4 (__enzyme_augmentsize gives the size)

@enzyme_allocated = external global i32
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
  %a = load i32, ptr @enzyme_allocated
  %r = call { i32, double } (ptr, ...) @__enzyme_augmentfwd(ptr @f, i32 %a, i64 4, ptr %x, ptr %dx, i64 %n)
  %p = extractvalue { i32, double } %r, 1
  ret double %p
}
