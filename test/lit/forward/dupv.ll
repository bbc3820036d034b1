; enzyme_dupv stride, p, base: lane l's shadow of p is base + l*stride bytes.
; With width 2 the caller builds [2 x ptr] from base and base+16.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

@enzyme_width = external global i32
@enzyme_dupv = external global i32

declare [2 x double] @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %p) {
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define [2 x double] @caller(ptr %p, ptr %base) {
  %w = load i32, ptr @enzyme_width
  %dv = load i32, ptr @enzyme_dupv
  %d = call [2 x double] (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, i32 %dv, i64 16, ptr %p, ptr %base)
  ret [2 x double] %d
}

; CHECK-LABEL: define [2 x double] @caller(ptr %p, ptr %base)
; CHECK-NEXT:    [[L0:%.*]] = getelementptr i8, ptr %base, i64 0
; CHECK-NEXT:    [[L1:%.*]] = getelementptr i8, ptr %base, i64 16
; CHECK-NEXT:    [[S0:%.*]] = insertvalue [2 x ptr] poison, ptr [[L0]], 0
; CHECK-NEXT:    [[S1:%.*]] = insertvalue [2 x ptr] [[S0]], ptr [[L1]], 1
; CHECK-NEXT:    call <2 x double> @f.fwd.w2.d.dret(ptr %p, [2 x ptr] [[S1]])

; CHECK-LABEL: define internal <2 x double> @f.fwd.w2.d.dret(ptr %p, [2 x ptr] %p.d)
; CHECK-NEXT:    %v = load double, ptr %p, align 8
; CHECK-NEXT:    [[P0:%.*]] = extractvalue [2 x ptr] %p.d, 0
; CHECK-NEXT:    load double, ptr [[P0]], align 8
; CHECK-NEXT:    [[P1:%.*]] = extractvalue [2 x ptr] %p.d, 1
; CHECK-NEXT:    load double, ptr [[P1]], align 8
