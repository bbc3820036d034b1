; A copy of memory whose first bytes are a pointer on one path and a double
; on the other: whether the copy moves a float there cannot be told, so its
; adjoint cannot be moved (skipping the bytes would drop the double's
; adjoint).  It is an error naming the copy.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate 'call void @llvm.memcpy{{.*}}': bytes it copies are a float in some uses and other data in others

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %src, ptr %dst, ptr %q, double %x, i1 %c) {
entry:
  br i1 %c, label %ptr, label %float
ptr:
  store ptr %q, ptr %src
  br label %copy
float:
  %x2 = fmul double %x, %x
  store double %x2, ptr %src
  br label %copy
copy:
  %src8 = getelementptr inbounds i8, ptr %src, i64 8
  store double %x, ptr %src8
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  %v0 = load double, ptr %dst
  %dst8 = getelementptr inbounds i8, ptr %dst, i64 8
  %v8 = load double, ptr %dst8
  %r = fadd double %v0, %v8
  ret double %r
}

define double @caller(ptr %s, ptr %ds, ptr %d, ptr %dd, ptr %q, ptr %dq, double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %s, ptr %ds, ptr %d, ptr %dd, ptr %q, ptr %dq, double %x, i1 false)
  ret double %r
}
