; A loop with a constant trip count (x^4 by repeated multiplication): the
; loop-carried product gets a tangent PHI (0 on entry, the product rule on
; the back edge); the integer induction variable gets none.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.d.dret(double %x, double %x.d)
; The tangent PHI is the only new PHI: %i has none.
; CHECK:       loop:
; CHECK-NEXT:    %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
; CHECK-NEXT:    %acc = phi double [ 1.000000e+00, %entry ], [ %acc.next, %loop ]
; CHECK-NEXT:    %acc.d = phi double [ 0.000000e+00, %entry ], [ [[DNEXT:%.*]], %loop ]
; CHECK-NEXT:    %acc.next = fmul double %acc, %x
; CHECK-NEXT:    [[A:%.*]] = fmul double %x, %acc.d
; CHECK-NEXT:    [[B:%.*]] = fmul double %acc, %x.d
; CHECK-NEXT:    [[DNEXT]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    %i.next = add i32 %i, 1
; CHECK-NEXT:    %done = icmp eq i32 %i.next, 4
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK:       exit:
; CHECK-NEXT:    ret double [[DNEXT]]
