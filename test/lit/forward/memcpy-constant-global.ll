; memcpy from a constant global into shadowed memory: the copied values
; carry no derivative, so the destination's shadow is zeroed (the doubles
; the constant's initializer types are zeroed in place).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

@table = private unnamed_addr constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]

declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %dst) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr @table, i64 32, i1 false)
  ret void
}

define void @caller(ptr %a, ptr %da) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.d(ptr %dst, ptr %dst.d)
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr @table, i64 32, i1 false)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr %dst.d, i8 0, i64 32, i1 false)
; CHECK-NEXT:    ret void
