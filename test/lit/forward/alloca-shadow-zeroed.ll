; An alloca that holds active data gets a shadow alloca of the same type,
; zeroed right away; stores, loads and GEPs on it are mirrored on the shadow,
; which is passed on as the shadow argument of a callee.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

; The call keeps the preprocessing (SROA) from promoting the alloca.
define void @sink(ptr %p) {
  ret void
}

define double @f(double %x) {
  %buf = alloca [2 x double]
  %e1 = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
  store double %x, ptr %e1
  call void @sink(ptr %buf)
  %v = load double, ptr %e1
  %r = fmul double %v, %x
  ret double %r
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %buf = alloca [2 x double], align 8
; CHECK-NEXT:    [[SBUF:%.*]] = alloca [2 x double], align 8
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 [[SBUF]], i8 0, i64 16, i1 false)
; CHECK-NEXT:    %e1 = getelementptr inbounds [2 x double], ptr %buf, i64 0, i64 1
; CHECK-NEXT:    [[SE1:%.*]] = getelementptr inbounds [2 x double], ptr [[SBUF]], i64 0, i64 1
; CHECK-NEXT:    store double %x, ptr %e1, align 8
; CHECK-NEXT:    store double %x.d, ptr [[SE1]], align 8
; CHECK-NEXT:    call void @sink.fwd.d(ptr %buf, ptr [[SBUF]])
; CHECK-NEXT:    %v = load double, ptr %e1, align 8
; CHECK-NEXT:    [[DV:%.*]] = load double, ptr [[SE1]], align 8
; CHECK-NEXT:    %r = fmul double %v, %x
; CHECK-NEXT:    [[A:%.*]] = fmul double %x, [[DV]]
; CHECK-NEXT:    [[B:%.*]] = fmul double %v, %x.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]
