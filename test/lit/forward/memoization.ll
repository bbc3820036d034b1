; Derivatives are memoized by (function, activity): the two calls of @g with
; an active first and a constant second argument share one derivative; the
; call with the activities swapped gets a second one.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s --check-prefix=COUNT

@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)

define double @g(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @f(double %x, double %y) {
  %a = call double @g(double %x, double %y)
  %b = call double @g(double %a, double %y)
  %c = call double @g(double %y, double %b)
  ret double %c
}

define double @caller(double %x, double %dx, double %y) {
  %k = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %k, double %y)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.dc.dret(double %x, double %x.d, double %y)
; CHECK-NEXT:    [[A:%.*]] = call { double, double } @g.fwd.dc.dret.pret(double %x, double %x.d, double %y)
; CHECK-NEXT:    [[AP:%.*]] = extractvalue { double, double } [[A]], 0
; CHECK-NEXT:    [[AD:%.*]] = extractvalue { double, double } [[A]], 1
; CHECK-NEXT:    [[B:%.*]] = call { double, double } @g.fwd.dc.dret.pret(double [[AP]], double [[AD]], double %y)
; CHECK-NEXT:    [[BP:%.*]] = extractvalue { double, double } [[B]], 0
; CHECK-NEXT:    [[BD:%.*]] = extractvalue { double, double } [[B]], 1
; CHECK-NEXT:    [[C:%.*]] = call { double, double } @g.fwd.cd.dret.pret(double %y, double [[BP]], double [[BD]])
; CHECK-NEXT:    extractvalue { double, double } [[C]], 0
; CHECK-NEXT:    [[CD:%.*]] = extractvalue { double, double } [[C]], 1
; CHECK-NEXT:    ret double [[CD]]

; d(x*y) with y constant: y dx.
; CHECK-LABEL: define internal { double, double } @g.fwd.dc.dret.pret(double %x, double %x.d, double %y)
; CHECK-NEXT:    %m = fmul double %x, %y
; CHECK-NEXT:    [[DM:%.*]] = fmul double %y, %x.d
; CHECK:         ret { double, double }

; d(x*y) with x constant: x dy.
; CHECK-LABEL: define internal { double, double } @g.fwd.cd.dret.pret(double %x, double %y, double %y.d)
; CHECK-NEXT:    %m = fmul double %x, %y
; CHECK-NEXT:    [[DM:%.*]] = fmul double %x, %y.d
; CHECK:         ret { double, double }

; Exactly two derivatives of @g.
; COUNT-COUNT-2: define internal {{.*}} @g.fwd.
; COUNT-NOT:     define internal {{.*}} @g.fwd.
