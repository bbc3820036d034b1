; Stores to a `noalias dead_on_return` parameter's memory that nothing in
; the function reads are removed, in loops too (a checkpointed loop's
; reverse step drops the primal's stores so).  Memory that is read, a
; parameter without both attributes, and stores through pointers whose
; object is unknown are left alone.
; RUN: %opt -passes=gpuad-dead-on-return-stores -S %s | FileCheck %s

; CHECK-LABEL: define void @unread(
; CHECK-NOT:  store double
; CHECK-NOT:  call void @llvm.memset
; CHECK:      store double 2.000000e+00, ptr %q
; CHECK-NOT:  store
; CHECK:      ret void
define void @unread(ptr noalias dead_on_return %p, ptr noalias %q, i64 %n) {
entry:
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 64, i1 false)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %g = getelementptr double, ptr %p, i64 %i
  store double 1.0, ptr %g
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store double 2.0, ptr %q
  ret void
}

; Read back in the function: every store stays.
; CHECK-LABEL: define double @read(
; CHECK:      store double 1.000000e+00, ptr %g
; CHECK:      store double %v, ptr %p
define double @read(ptr noalias dead_on_return %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %g = getelementptr double, ptr %p, i64 %i
  store double 1.0, ptr %g
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %g1 = getelementptr double, ptr %p, i64 1
  %v = load double, ptr %g1
  store double %v, ptr %p
  ret double %v
}

; A call that may read it: kept.
; CHECK-LABEL: define void @call(
; CHECK:      store double 1.000000e+00, ptr %p
define void @call(ptr noalias dead_on_return %p) {
  store double 1.0, ptr %p
  call void @opaque(ptr %p)
  ret void
}

; Without noalias another pointer may reach the memory: kept.
; CHECK-LABEL: define void @may.alias(
; CHECK:      store double 1.000000e+00, ptr %p
define void @may.alias(ptr dead_on_return %p) {
  store double 1.0, ptr %p
  ret void
}

; The caller reads it afterwards (no dead_on_return): kept.
; CHECK-LABEL: define void @live(
; CHECK:      store double 1.000000e+00, ptr %p
define void @live(ptr noalias %p) {
  store double 1.0, ptr %p
  ret void
}

declare void @opaque(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
