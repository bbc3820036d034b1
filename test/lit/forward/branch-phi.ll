; A PHI that merges active values from two branches gets a tangent PHI that
; merges the branches' tangents from the same blocks.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)

; libm calls (not speculatable) keep the branches from becoming a select.
define double @f(double %x, i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  %s = call double @sin(double %x)
  br label %join
else:
  %t = call double @cos(double %x)
  br label %join
join:
  %p = phi double [ %s, %then ], [ %t, %else ]
  ret double %p
}

define double @caller(double %x, double %dx, i1 %c) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i1 %c)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dc.dret(double %x, double %x.d, i1 %c)
; CHECK:       entry:
; CHECK-NEXT:    br i1 %c, label %then, label %else
; CHECK:       then:
; CHECK-NEXT:    %s = call double @sin(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[DS:%.*]] = fmul double [[COS]], %x.d
; CHECK-NEXT:    br label %join
; CHECK:       else:
; CHECK-NEXT:    %t = call double @cos(double %x)
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg double [[SIN]]
; CHECK-NEXT:    [[DT:%.*]] = fmul double [[NSIN]], %x.d
; CHECK-NEXT:    br label %join
; CHECK:       join:
; CHECK-NEXT:    %p = phi double [ %s, %then ], [ %t, %else ]
; CHECK-NEXT:    %p.d = phi double [ [[DS]], %then ], [ [[DT]], %else ]
; CHECK-NEXT:    ret double %p.d
