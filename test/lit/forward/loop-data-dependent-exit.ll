; A loop whose exit depends on the active value itself (halve x while it is
; above 1): the tangent PHI starts at dx and is carried along; the exit
; condition reads only primal values.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
entry:
  br label %loop
loop:
  %v = phi double [ %x, %entry ], [ %v.next, %loop ]
  %v.next = fmul double %v, 5.000000e-01
  %big = fcmp ogt double %v.next, 1.0
  br i1 %big, label %loop, label %exit
exit:
  ret double %v.next
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.d.dret(double %x, double %x.d)
; CHECK:       loop:
; CHECK-NEXT:    %v = phi double [ %x, %entry ], [ %v.next, %loop ]
; CHECK-NEXT:    %v.d = phi double [ %x.d, %entry ], [ [[DNEXT:%.*]], %loop ]
; CHECK-NEXT:    %v.next = fmul double %v, 5.000000e-01
; CHECK-NEXT:    [[DNEXT]] = fmul double 5.000000e-01, %v.d
; CHECK-NEXT:    %big = fcmp ogt double %v.next, 1.000000e+00
; CHECK-NEXT:    br i1 %big, label %loop, label %exit
; CHECK:       exit:
; CHECK-NEXT:    ret double [[DNEXT]]
