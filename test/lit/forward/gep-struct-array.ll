; GEPs into a struct field and into an array with a variable index: the shadow
; GEP has the same indices on the shadow pointer.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

%struct.P = type { i64, double, [4 x double] }

declare double @__enzyme_fwddiff(ptr, ...)

; p->field1 * p->arr[i]
define double @f(ptr %p, i64 %i) {
  %a = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 1
  %x = load double, ptr %a
  %b = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 2, i64 %i
  %y = load double, ptr %b
  %r = fmul double %x, %y
  ret double %r
}

define double @caller(ptr %p, ptr %dp, i64 %i) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, i64 %i)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dc.dret(ptr %p, ptr %p.d, i64 %i)
; CHECK-NEXT:    %a = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 1
; CHECK-NEXT:    [[SA:%.*]] = getelementptr inbounds %struct.P, ptr %p.d, i64 0, i32 1
; CHECK-NEXT:    %x = load double, ptr %a, align 8
; CHECK-NEXT:    [[DX:%.*]] = load double, ptr [[SA]], align 8
; CHECK-NEXT:    %b = getelementptr inbounds %struct.P, ptr %p, i64 0, i32 2, i64 %i
; CHECK-NEXT:    [[SB:%.*]] = getelementptr inbounds %struct.P, ptr %p.d, i64 0, i32 2, i64 %i
; CHECK-NEXT:    %y = load double, ptr %b, align 8
; CHECK-NEXT:    [[DY:%.*]] = load double, ptr [[SB]], align 8
; CHECK-NEXT:    %r = fmul double %x, %y
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, [[DX]]
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, [[DY]]
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]
