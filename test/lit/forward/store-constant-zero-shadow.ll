; Storing a constant to memory that has a shadow stores 0 to the shadow: the
; value written there no longer depends on the inputs.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)

; p[0] = 3 * p[0]; p[1] = 1.0
define void @f(ptr %p) {
  %v = load double, ptr %p
  %s = fmul double %v, 3.0
  store double %s, ptr %p
  %q = getelementptr inbounds double, ptr %p, i64 1
  store double 1.0, ptr %q
  ret void
}

define void @caller(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.d(ptr %p, ptr %p.d)
; CHECK:         store double %s, ptr %p, align 8
; CHECK-NEXT:    store double [[DS:%.*]], ptr %p.d, align 8
; CHECK-NEXT:    %q = getelementptr inbounds double, ptr %p, i64 1
; CHECK-NEXT:    [[DQ:%.*]] = getelementptr inbounds double, ptr %p.d, i64 1
; CHECK-NEXT:    store double 1.000000e+00, ptr %q, align 8
; CHECK-NEXT:    store double 0.000000e+00, ptr [[DQ]], align 8
; CHECK-NEXT:    ret void
