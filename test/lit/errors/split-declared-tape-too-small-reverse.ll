; The tape __enzyme_reverse receives in a type too small for the tape and
; for a pointer to it (4 bytes) is an error naming the sizes, not a tape
; read past its end.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the tape of 'f' needs {{[0-9]+}} bytes, or 8 for a pointer to it, but __enzyme_reverse receives it as [4 x i8], which holds 4 bytes

declare void @__enzyme_reverse(ptr, ...)

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

define void @caller.reverse(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, i64 %n, double 1.0, [4 x i8] zeroinitializer)
  ret void
}
