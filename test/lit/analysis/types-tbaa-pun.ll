; C's type pun, memcpy(&u, &d, 8) into a uint64_t u: the integer's TBAA tag
; ("long") says what the program declared, not what the bits are; the
; memcpy says they are a double's.  Also through the headers' memcpy
; function (CUDA's, out of line until gpuad makes it the intrinsic).
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define internal ptr @_ZL6memcpyPvPKvm(ptr %d, ptr %s, i64 %n) noinline {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret ptr %d
}

define i64 @f(double %x) {
  %d = alloca double, align 8
  %u = alloca i64, align 8
  store double %x, ptr %d, !tbaa !2
  call void @llvm.memcpy.p0.p0.i64(ptr %u, ptr %d, i64 8, i1 false)
  %bits = load i64, ptr %u, !tbaa !5
  %d2 = alloca double, align 8
  %u2 = alloca i64, align 8
  store double %x, ptr %d2, !tbaa !2
  %p = call ptr @_ZL6memcpyPvPKvm(ptr %u2, ptr %d2, i64 8)
  %bits2 = load i64, ptr %u2, !tbaa !5
  %sum = add i64 %bits, %bits2
  ret i64 %bits
}

define i64 @caller(double %x) {
  %r = call i64 (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret i64 %r
}

; CHECK-LABEL: gpuad-types for @f
; CHECK-DAG: %bits: {[]:Float@double}
; CHECK-DAG: %bits2: {[]:Float@double}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!3, !3, i64 0}
!3 = !{!"double", !1, i64 0}
!4 = !{!"long", !1, i64 0}
!5 = !{!4, !4, i64 0}
