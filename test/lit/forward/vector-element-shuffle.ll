; extractelement/insertelement/shufflevector on <2 x double>: the tangent
; vector goes through the same operations, with the same indices and mask.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare <2 x double> @__enzyme_fwddiff(ptr, ...)

; <v1, v0*v1>
define <2 x double> @f(<2 x double> %v) {
  %a = extractelement <2 x double> %v, i32 0
  %b = extractelement <2 x double> %v, i32 1
  %p = fmul double %a, %b
  %w = insertelement <2 x double> %v, double %p, i32 0
  %s = shufflevector <2 x double> %w, <2 x double> %v, <2 x i32> <i32 1, i32 0>
  ret <2 x double> %s
}

define <2 x double> @caller(<2 x double> %v, <2 x double> %dv) {
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %v, <2 x double> %dv)
  ret <2 x double> %d
}

; CHECK-LABEL: define internal <2 x double> @f.fwd.d.dret(<2 x double> %v, <2 x double> %v.d)
; CHECK-NEXT:    %a = extractelement <2 x double> %v, i32 0
; CHECK-NEXT:    [[DA:%.*]] = extractelement <2 x double> %v.d, i32 0
; CHECK-NEXT:    %b = extractelement <2 x double> %v, i32 1
; CHECK-NEXT:    [[DB:%.*]] = extractelement <2 x double> %v.d, i32 1
; CHECK-NEXT:    %p = fmul double %a, %b
; CHECK-NEXT:    [[P1:%.*]] = fmul double %b, [[DA]]
; CHECK-NEXT:    [[P2:%.*]] = fmul double %a, [[DB]]
; CHECK-NEXT:    [[DP:%.*]] = fadd double [[P1]], [[P2]]
; CHECK-NEXT:    %w = insertelement <2 x double> %v, double %p, i32 0
; CHECK-NEXT:    [[DW:%.*]] = insertelement <2 x double> %v.d, double [[DP]], i32 0
; CHECK-NEXT:    %s = shufflevector <2 x double> %w, <2 x double> %v, <2 x i32> <i32 1, i32 0>
; CHECK-NEXT:    [[DS:%.*]] = shufflevector <2 x double> [[DW]], <2 x double> %v.d, <2 x i32> <i32 1, i32 0>
; CHECK-NEXT:    ret <2 x double> [[DS]]
