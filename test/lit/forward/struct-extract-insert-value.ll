; extractvalue/insertvalue on {double, double}: the tangent of the aggregate
; is an aggregate of tangents, taken apart and built with the same indices.
; An insert into poison starts from a zero tangent.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare { double, double } @__enzyme_fwddiff(ptr, ...)

; (re*im, re+im)
define { double, double } @f({ double, double } %z) {
  %re = extractvalue { double, double } %z, 0
  %im = extractvalue { double, double } %z, 1
  %a = fmul double %re, %im
  %b = fadd double %re, %im
  %r0 = insertvalue { double, double } poison, double %a, 0
  %r1 = insertvalue { double, double } %r0, double %b, 1
  ret { double, double } %r1
}

define { double, double } @caller({ double, double } %z, { double, double } %dz) {
  %d = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, { double, double } %z, { double, double } %dz)
  ret { double, double } %d
}

; CHECK-LABEL: define internal { double, double } @f.fwd.d.dret({ double, double } %z, { double, double } %z.d)
; CHECK-NEXT:    %re = extractvalue { double, double } %z, 0
; CHECK-NEXT:    [[DRE:%.*]] = extractvalue { double, double } %z.d, 0
; CHECK-NEXT:    %im = extractvalue { double, double } %z, 1
; CHECK-NEXT:    [[DIM:%.*]] = extractvalue { double, double } %z.d, 1
; CHECK-NEXT:    %a = fmul double %re, %im
; CHECK-NEXT:    [[A1:%.*]] = fmul double %im, [[DRE]]
; CHECK-NEXT:    [[A2:%.*]] = fmul double %re, [[DIM]]
; CHECK-NEXT:    [[DA:%.*]] = fadd double [[A1]], [[A2]]
; CHECK-NEXT:    %b = fadd double %re, %im
; CHECK-NEXT:    [[DB:%.*]] = fadd double [[DRE]], [[DIM]]
; CHECK-NEXT:    %r0 = insertvalue { double, double } poison, double %a, 0
; CHECK-NEXT:    [[DR0:%.*]] = insertvalue { double, double } zeroinitializer, double [[DA]], 0
; CHECK-NEXT:    %r1 = insertvalue { double, double } %r0, double %b, 1
; CHECK-NEXT:    [[DR1:%.*]] = insertvalue { double, double } [[DR0]], double [[DB]], 1
; CHECK-NEXT:    ret { double, double } [[DR1]]
