; A split-form callee's backward half must not read addresses of stack
; memory from the tape: the forward half's frame is gone by then, and the
; caller's backward half allocates its own stack slots afresh.  Addresses
; computed from stack slots, arguments and constants alone (GEPs, a width-N
; shadow's [N x ptr]) are recomputed in the backward half.  Here @flip builds
; a local pair and returns it (C++ at -O0: a constructor, then a load of the
; local): its backward half adds the return's adjoint to the shadow of the
; local, through GEPs of its fresh slot, not of a taped pointer.
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

; The tape of @flip's forward half holds values only (a, -b, and
; @store_pair's empty tape), no pointer; the backward half addresses the
; shadow slots of %r (one per lane) that it allocates itself.
; CHECK-LABEL: define internal { { double, double, {} }, { double, double } } @flip.aug.w2
; CHECK-LABEL: define internal void @flip.bwd.w2
; CHECK: {{%.*}} = alloca { double, double }
; CHECK: [[S1:%.*]] = alloca { double, double }
; CHECK: [[S2:%.*]] = alloca { double, double }
; CHECK: [[L0:%.*]] = insertvalue [2 x ptr] poison, ptr [[S1]], 0
; CHECK: [[L:%.*]] = insertvalue [2 x ptr] [[L0]], ptr [[S2]], 1
; CHECK: [[E:%.*]] = extractvalue [2 x ptr] [[L]], 0
; CHECK: getelementptr inbounds { double, double }, ptr [[E]], i32 0, i32 1
