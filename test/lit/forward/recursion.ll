; A directly recursive function: its derivative calls itself (the derivative
; being built is found by memoization) instead of recursing forever.
; f(x, n) = x^(n+1).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double %x
rec:
  %n1 = sub i32 %n, 1
  %r = call double @f(double %x, i32 %n1)
  %m = fmul double %r, %x
  ret double %m
}

define double @caller(double %x, double %dx, i32 %n) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %n)
  ret double %d
}

; The request wants only the tangent; the recursive call needs the primal
; too, so it uses the variant that returns both, which calls itself.
; CHECK-LABEL: define internal double @f.fwd.dc.dret(double %x, double %x.d, i32 %n)
; CHECK:         call { double, double } @f.fwd.dc.dret.pret(double %x, double %x.d, i32 %n1)

; CHECK-LABEL: define internal { double, double } @f.fwd.dc.dret.pret(double %x, double %x.d, i32 %n)
; CHECK:       common.ret:
; CHECK-NEXT:    %common.ret.op = phi double [ %m, %rec ], [ %x, %entry ]
; CHECK-NEXT:    %common.ret.op.d = phi double [ [[DM:%.*]], %rec ], [ %x.d, %entry ]
; CHECK:       rec:
; CHECK-NEXT:    %n1 = sub i32 %n, 1
; CHECK-NEXT:    [[R:%.*]] = call { double, double } @f.fwd.dc.dret.pret(double %x, double %x.d, i32 %n1)
; CHECK-NEXT:    [[RP:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK-NEXT:    [[RD:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-NEXT:    %m = fmul double [[RP]], %x
; CHECK-NEXT:    [[A:%.*]] = fmul double %x, [[RD]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[RP]], %x.d
; CHECK-NEXT:    [[DM]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    br label %common.ret
