; Tangent arithmetic takes the fast-math flags of the primal instruction it
; differentiates, except the no-inf/no-NaN promises (a tangent may be
; infinite where the primal is not, e.g. sqrt at 0); instructions without
; flags get tangents without flags.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul fast double %x, %y
  %a = fadd double %m, %x
  ret double %a
}

define double @caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK-NEXT:    %m = fmul fast double %x, %y
; CHECK-NEXT:    [[A:%.*]] = fmul reassoc nsz arcp contract afn double %y, %x.d
; CHECK-NEXT:    [[B:%.*]] = fmul reassoc nsz arcp contract afn double %x, %y.d
; CHECK-NEXT:    [[DM:%.*]] = fadd reassoc nsz arcp contract afn double [[A]], [[B]]
; CHECK-NEXT:    %a = fadd double %m, %x
; CHECK-NEXT:    [[D:%.*]] = fadd double [[DM]], %x.d
; CHECK-NEXT:    ret double [[D]]
