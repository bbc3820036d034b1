; memcpy between duplicated buffers is mirrored by a memcpy between their
; shadows.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 32, i1 false)
  ret void
}

define void @caller(ptr %a, ptr %da, ptr %b, ptr %db) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, ptr %b, ptr %db)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.dd(ptr %dst, ptr %dst.d, ptr %src, ptr %src.d)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 32, i1 false)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %dst.d, ptr %src.d, i64 32, i1 false)
; CHECK-NEXT:    ret void
