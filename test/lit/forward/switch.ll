; A switch: each case computes its own tangent; the merging PHI gets a tangent
; PHI, with 0 for a constant incoming value.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i32 %k) {
entry:
  switch i32 %k, label %other [ i32 0, label %c0
                                i32 1, label %c1 ]
c0:
  %a = fmul double %x, 2.0
  br label %join
c1:
  %b = call double @llvm.exp.f64(double %x)
  br label %join
other:
  br label %join
join:
  %p = phi double [ %a, %c0 ], [ %b, %c1 ], [ 5.0, %other ]
  ret double %p
}

define double @caller(double %x, double %dx, i32 %k) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %k)
  ret double %d
}

; The empty default block is folded into the switch by the preprocessing.
; CHECK-LABEL: define internal double @f.fwd.dc.dret(double %x, double %x.d, i32 %k)
; CHECK:       entry:
; CHECK-NEXT:    switch i32 %k, label %join [
; CHECK-NEXT:      i32 0, label %c0
; CHECK-NEXT:      i32 1, label %c1
; CHECK-NEXT:    ]
; CHECK:       c0:
; CHECK-NEXT:    %a = fmul double %x, 2.000000e+00
; CHECK-NEXT:    [[DA:%.*]] = fmul double 2.000000e+00, %x.d
; CHECK-NEXT:    br label %join
; CHECK:       c1:
; CHECK-NEXT:    %b = call double @llvm.exp.f64(double %x)
; CHECK-NEXT:    [[DB:%.*]] = fmul double %b, %x.d
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %p = phi double [ %a, %c0 ], [ %b, %c1 ], [ 5.000000e+00, %entry ]
; CHECK-NEXT:    %p.d = phi double [ [[DA]], %c0 ], [ [[DB]], %c1 ], [ 0.000000e+00, %entry ]
; CHECK-NEXT:    ret double %p.d
