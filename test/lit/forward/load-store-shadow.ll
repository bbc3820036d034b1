; Loads and stores through a duplicated pointer: each load of active data is
; followed by the same load from the shadow pointer, each store by a store of
; the tangent through the shadow pointer (at the shadow GEP).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)

; p[1] = p[0] * p[0]
define void @f(ptr %p) {
  %v = load double, ptr %p
  %s = fmul double %v, %v
  %q = getelementptr inbounds double, ptr %p, i64 1
  store double %s, ptr %q
  ret void
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.d(ptr %p, ptr %p.d)
; CHECK-NEXT:    %v = load double, ptr %p, align 8
; CHECK-NEXT:    [[DV:%.*]] = load double, ptr %p.d, align 8
; CHECK-NEXT:    %s = fmul double %v, %v
; CHECK-NEXT:    [[A:%.*]] = fmul double %v, [[DV]]
; CHECK-NEXT:    [[B:%.*]] = fmul double %v, [[DV]]
; CHECK-NEXT:    [[DS:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    %q = getelementptr inbounds double, ptr %p, i64 1
; CHECK-NEXT:    [[DQ:%.*]] = getelementptr inbounds double, ptr %p.d, i64 1
; CHECK-NEXT:    store double %s, ptr %q, align 8
; CHECK-NEXT:    store double [[DS]], ptr [[DQ]], align 8
; CHECK-NEXT:    ret void
