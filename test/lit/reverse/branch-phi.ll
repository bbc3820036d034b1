; A PHI merging active values from two branches.  The forward sweep records
; which predecessor the join was entered from (an i8 PHI); the join's
; reverse block switches on it, and on each edge the PHI's adjoint goes to
; the value that came in from that predecessor.  Both directions are run.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; f(x, c) = (c ? sin(x) : cos(x)) * x
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
  %r = fmul double %p, %x
  ret double %r
}

; CHECK-LABEL: define internal double @f.rev.ac.dret(double %x, i1 %c)
; CHECK:       join:
; CHECK-NEXT:    %p = phi double [ %s, %then ], [ %t, %else ]
; CHECK-NEXT:    [[FROM:%.*]] = phi i8 [ 0, %else ], [ 1, %then ]
; CHECK:       join.rev:
; CHECK:         switch i8 [[FROM]], label %join.from.else [
; CHECK-NEXT:      i8 1, label %join.from.then
; CHECK-NEXT:    ]
; CHECK:       join.from.else:
; CHECK-NEXT:    [[PD0:%.*]] = load double, ptr %p.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[T0:%.*]] = load double, ptr %t.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd double [[T0]], [[PD0]]
; CHECK-NEXT:    store double [[T1]], ptr %t.adj
; CHECK-NEXT:    br label %else.rev
; CHECK:       join.from.then:
; CHECK-NEXT:    [[PD1:%.*]] = load double, ptr %p.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[S0:%.*]] = load double, ptr %s.adj
; CHECK-NEXT:    [[S1:%.*]] = fadd double [[S0]], [[PD1]]
; CHECK-NEXT:    store double [[S1]], ptr %s.adj
; CHECK-NEXT:    br label %then.rev

; c = true:  df/dx = cos(x) x + sin(x)   at 0.5: 0.4387912810 + 0.4794255386 = 0.9182168196
; c = false: df/dx = cos(x) - sin(x) x   at 0.5: 0.8775825619 - 0.2397127693 = 0.6378697926
; EXEC:      0.918217
; EXEC-NEXT: 0.637870
define i32 @main() {
  %d1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.5, i1 true)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d1)
  %d2 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.5, i1 false)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d2)
  ret i32 0
}
