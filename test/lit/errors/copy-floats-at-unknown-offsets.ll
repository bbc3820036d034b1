; A copy of memory that holds an integer at a known offset and floats at
; offsets the type analysis only knows as "somewhere" (past its offset
; limit): where the floats are among the copied bytes cannot be told, so
; their adjoints cannot be moved.  It is an error naming the copy.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate 'call void @llvm.memcpy{{.*}}': it copies floats mixed with other data at offsets the types do not tell

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %src, ptr %dst, double %x) {
  store i64 7, ptr %src, !tbaa !1
  %far = getelementptr inbounds i8, ptr %src, i64 8192
  %y = fmul double %x, %x
  store double %y, ptr %far
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 8200, i1 false)
  %dfar = getelementptr inbounds i8, ptr %dst, i64 8192
  %v = load double, ptr %dfar
  ret double %v
}

define double @caller(ptr %s, ptr %ds, ptr %d, ptr %dd, double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %s, ptr %ds, ptr %d, ptr %dd, double %x)
  ret double %r
}

!0 = !{!"Simple C TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"long", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
