; Bytes seen as a double in one place and as an integer in another are
; Anything: users then treat them conservatively.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %p) {
  %a = load double, ptr %p
  %b = load i64, ptr %p
  %c = mul i64 %b, 3
  ret void
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: gpuad-types for @f
; CHECK-DAG: %p: {[]:Pointer, [0]:Anything}
; CHECK-DAG: %c: {[]:Integer}
