; Run-time indices into an array of structs relate offsets modulo the
; element size: every element's second field is a double.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

%pair = type { i64, double }

define double @f(ptr %a, i64 %i) {
  %e = getelementptr %pair, ptr %a, i64 %i, i32 1
  %v = load double, ptr %e
  %k = getelementptr %pair, ptr %a, i64 %i, i32 0
  %n = load i64, ptr %k
  %c = mul i64 %n, 3
  ret double %v
}

define double @caller(ptr %a, ptr %da, i64 %i) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, i64 %i)
  ret double %r
}

; CHECK-LABEL: gpuad-types for @f
; CHECK: %a: {[]:Pointer, [0]:Integer, [8]:Float@double}
; CHECK: %e: {[]:Pointer, [0]:Float@double, [8]:Integer}
