; TBAA access tags tell what memory holds even when the IR type does not:
; an i64 load tagged "double" is float data, one tagged "long" an integer.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %p, ptr %q) {
  %a = load i64, ptr %p, !tbaa !2
  %b = load i64, ptr %q, !tbaa !5
  ret void
}

define void @caller(ptr %p, ptr %dp, ptr %q, ptr %dq) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr %q, ptr %dq)
  ret void
}

; CHECK-LABEL: gpuad-types for @f
; CHECK-DAG: %p: {[]:Pointer, [0]:Float@double}
; CHECK-DAG: %q: {[]:Pointer, [0]:Integer}
; CHECK-DAG: %a: {[]:Float@double}
; CHECK-DAG: %b: {[]:Integer}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!3, !3, i64 0}
!3 = !{!"double", !1, i64 0}
!4 = !{!"long", !1, i64 0}
!5 = !{!4, !4, i64 0}
