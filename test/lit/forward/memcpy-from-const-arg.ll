; Regression: memcpy from an enzyme_const buffer into a duplicated one.  The
; copied data carries no derivative, so the destination's shadow is zeroed
; (was: "argument 'src' is passed as enzyme_const but may point to memory
; that carries derivatives").
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_const = external global i32
declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 32, i1 false)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.dc(ptr %dst, ptr %dst.d, ptr %src)
; CHECK: call void @llvm.memcpy.p0.p0.i64({{.*}}%dst, {{.*}}%src, i64 32, i1 false)
; CHECK: call void @llvm.memset.p0.i64({{.*}}%dst.d, i8 0, i64 32, i1 false)
define void @caller(ptr %a, ptr %da, ptr %b) {
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, i32 %c, ptr %b)
  ret void
}
