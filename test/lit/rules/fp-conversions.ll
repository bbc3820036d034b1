; fpext and fptrunc are linear: the tangent goes through the same conversion.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare float @__enzyme_fwddiff(ptr, ...)

; (float)((double)x * (double)x)
define float @f(float %x) {
  %e = fpext float %x to double
  %m = fmul double %e, %e
  %t = fptrunc double %m to float
  ret float %t
}

define float @caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal float @f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %e = fpext float %x to double
; CHECK-NEXT:    [[DE:%.*]] = fpext float %x.d to double
; CHECK-NEXT:    %m = fmul double %e, %e
; CHECK-NEXT:    [[A:%.*]] = fmul double %e, [[DE]]
; CHECK-NEXT:    [[B:%.*]] = fmul double %e, [[DE]]
; CHECK-NEXT:    [[DM:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    %t = fptrunc double %m to float
; CHECK-NEXT:    [[DT:%.*]] = fptrunc double [[DM]] to float
; CHECK-NEXT:    ret float [[DT]]
