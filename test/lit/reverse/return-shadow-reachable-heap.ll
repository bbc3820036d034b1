; A callee that returns a new struct whose field points to a second heap
; block (a constructor: get_new_matrix in ADBench's hand at -O0).  The
; returned pointer has a shadow, and so must everything reachable from it:
; the augmented half allocates a shadow of the data block too and stores it
; in the shadow struct (else the shadow's field stays null and the caller's
; reverse sweep adds into null[i]).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @new_vec() noinline {
  %v = call ptr @malloc(i64 16)
  %d = call ptr @malloc(i64 8)
  %f = getelementptr inbounds i8, ptr %v, i64 8
  store ptr %d, ptr %f
  ret ptr %v
}

; v->data[0] *= 2, out of line so the value goes through memory.
define void @twice(ptr %v) noinline {
  %f = getelementptr inbounds i8, ptr %v, i64 8
  %d = load ptr, ptr %f
  %a = load double, ptr %d
  %b = fmul double %a, 2.0
  store double %b, ptr %d
  ret void
}

define double @f(double %x) {
  %v = call ptr @new_vec()
  %f = getelementptr inbounds i8, ptr %v, i64 8
  %d = load ptr, ptr %f
  %sq = fmul double %x, %x
  store double %sq, ptr %d
  call void @twice(ptr %v)
  %y = load double, ptr %d
  call void @free(ptr %d)
  call void @free(ptr %v)
  ret double %y
}

define double @caller(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

; CHECK-LABEL: define internal {{.*}} @new_vec.aug
; CHECK: [[V:%.*]] = call ptr @malloc(i64 16)
; CHECK: [[DV:%.*]] = call ptr @malloc(i64 16)
; CHECK: [[D:%.*]] = call ptr @malloc(i64 8)
; CHECK: [[DD:%.*]] = call ptr @malloc(i64 8)
; CHECK: store ptr [[DD]], ptr
