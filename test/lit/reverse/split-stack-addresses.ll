; A split-form callee's backward half must not read addresses of its stack
; from the tape: the forward half's frame is gone by then.  Here @flip
; builds a local pair through a callee and returns it (C++ at -O0: a
; constructor, then a load of the local): its backward half adds the
; return's adjoint to the shadow of the local, which must be the memory the
; augmented half (and the callee's) used.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

@enzyme_width = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define { double, double } @flip(ptr %p) noinline {
  %r = alloca { double, double }
  %a = load double, ptr %p
  %pb = getelementptr inbounds i8, ptr %p, i64 8
  %b = load double, ptr %pb
  %nb = fneg double %b
  call void @store_pair(ptr %r, double %a, double %nb)
  %v = load { double, double }, ptr %r
  ret { double, double } %v
}

define void @store_pair(ptr %r, double %a, double %b) noinline {
  store double %a, ptr %r
  %rb = getelementptr inbounds i8, ptr %r, i64 8
  store double %b, ptr %rb
  ret void
}

define void @f(ptr %x) {
  %v = call { double, double } @flip(ptr %x)
  %a = extractvalue { double, double } %v, 0
  %b = extractvalue { double, double } %v, 1
  %pb = getelementptr inbounds i8, ptr %x, i64 8
  %a2 = fmul double %a, 2.0
  %b3 = fmul double %b, 3.0
  store double %a2, ptr %x
  store double %b3, ptr %pb
  ret void
}

define void @g(ptr %x, ptr %dx0, ptr %dx1) {
  %w = load i32, ptr @enzyme_width
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %w, i32 2, ptr %x, ptr %dx0, ptr %dx1)
  ret void
}

; On the host, stack memory a callee is handed (%r, and its two shadow
; lanes, given to @store_pair) is a heap block from the augmented half's
; entry to the backward half's end: the tape carries the values (a, -b,
; @store_pair's empty tape) and the three blocks, and the backward half
; addresses the shadow lanes through them, then frees them.
; CHECK-LABEL: define internal { { double, double, {}, ptr, ptr, ptr }, { double, double } } @flip.aug.w2
; CHECK-DAG: %r.frame = call ptr @malloc(i64 16)
; CHECK-DAG: %r.d.frame = call ptr @malloc(i64 16)
; CHECK-DAG: %r.d1.frame = call ptr @malloc(i64 16)
; CHECK-NOT: alloca
; CHECK: ret
; CHECK-LABEL: define internal void @flip.bwd.w2
; CHECK-NOT: alloca
; CHECK-DAG: [[F:%frame[0-9]*]] = extractvalue { double, double, {}, ptr, ptr, ptr } %3, 4
; CHECK-DAG: [[L0:%.*]] = insertvalue [2 x ptr] poison, ptr [[F]], 0
; CHECK: call void @free
; CHECK-NEXT: call void @free
; CHECK-NEXT: call void @free
; CHECK-NEXT: ret void
