; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

; A double copied through an i64, an int array index, and a pointer loaded
; from a struct: the type analysis sees through all three.
define void @f(ptr %dst, ptr %src, ptr %s, i64 %i) {
  %v = load double, ptr %src
  %bits = load i64, ptr %src
  store i64 %bits, ptr %dst
  %g = getelementptr double, ptr %dst, i64 %i
  store double %v, ptr %g
  %fp = getelementptr { i32, ptr }, ptr %s, i64 0, i32 1
  %inner = load ptr, ptr %fp
  %x = load double, ptr %inner
  store double %x, ptr %dst
  ret void
}

define void @caller(ptr %a, ptr %da, ptr %b, ptr %db, ptr %s, ptr %ds) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db, ptr %s, ptr %ds, i64 0)
  ret void
}

; CHECK-LABEL: gpuad-types for @f (fwd dup dup dup const)
; CHECK-DAG: %dst: {[]:Pointer, [0]:Float@double}
; CHECK-DAG: %src: {[]:Pointer, [0]:Float@double}
; CHECK-DAG: %s: {[]:Pointer, [8]:Pointer, [8,0]:Float@double}
; CHECK-DAG: %i: {[]:Integer}
; CHECK-DAG: %bits: {[]:Float@double}
; CHECK-DAG: %inner: {[]:Pointer, [0]:Float@double}
