; Enzyme's memory type annotations (__enzyme_float, ...) carry no derivative;
; the calls and their declarations disappear.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

; CHECK-NOT: __enzyme_double
declare void @__enzyme_double(ptr, i64)

define void @caller(ptr %p) {
  call void @__enzyme_double(ptr %p, i64 8)
  ret void
}
