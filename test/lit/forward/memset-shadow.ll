; memset on shadowed memory zeroes the shadow too: set bytes carry no
; derivative.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %dst, i8 %byte) {
  call void @llvm.memset.p0.i64(ptr %dst, i8 %byte, i64 32, i1 false)
  ret void
}

define void @caller(ptr %a, ptr %da, i8 %byte) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, i8 %byte)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.dc(ptr %dst, ptr %dst.d, i8 %byte)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %dst, i8 %byte, i64 32, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %dst.d, i8 0, i64 32, i1 false)
; CHECK-NEXT:    ret void
