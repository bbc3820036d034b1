; A switch whose cases reach the join through different blocks, two case
; values sharing one block (one predecessor, listed twice) and one case
; jumping straight to the join from the switch block.  The join records one
; index per distinct predecessor, its reverse switches over the four of
; them, and on the direct edge the PHI's adjoint goes to the argument x.
; All five paths are run.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @exp(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; f(x, n) = p(x, n) * x with
;   p = x*x (n = 0), exp(x) (n = 1, 2), x (n = 3), sin(x) (otherwise)
define double @f(double %x, i32 %n) {
entry:
  switch i32 %n, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c1
    i32 3, label %join
  ]
c0:
  %a = fmul double %x, %x
  br label %join
c1:
  %b = call double @exp(double %x)
  br label %join
def:
  %d = call double @sin(double %x)
  br label %join
join:
  %p = phi double [ %a, %c0 ], [ %b, %c1 ], [ %d, %def ], [ %x, %entry ]
  %r = fmul double %p, %x
  ret double %r
}

; CHECK-LABEL: define internal double @f.rev.ac.dret(double %x, i32 %n)
; CHECK:       join:
; CHECK-NEXT:    %p = phi double
; CHECK-NEXT:    [[FROM:%.*]] = phi i8 [ 0, %def ], [ 1, %c1 ], [ 2, %c0 ], [ 3, %entry ]
; CHECK:       join.rev:
; CHECK:         switch i8 [[FROM]], label %join.from.def [
; CHECK-NEXT:      i8 1, label %join.from.c1
; CHECK-NEXT:      i8 2, label %join.from.c0
; CHECK-NEXT:      i8 3, label %join.from.entry
; CHECK-NEXT:    ]
; The direct edge: p's adjoint is x's.
; CHECK:       join.from.entry:
; CHECK-NEXT:    [[PD:%.*]] = load double, ptr %p.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %p.adj
; CHECK-NEXT:    [[X0:%.*]] = load double, ptr %x.adj
; CHECK-NEXT:    [[X1:%.*]] = fadd double [[X0]], [[PD]]
; CHECK-NEXT:    store double [[X1]], ptr %x.adj
; CHECK-NEXT:    br label %entry.rev

; at x = 0.7:
;   n = 0:    d(x^3)      = 3x^2                = 1.47
;   n = 1, 2: d(exp(x) x) = exp(x) (x + 1)      = 2.0137527075 * 1.7 = 3.4233796027
;   n = 3:    d(x^2)      = 2x                  = 1.4
;   n = 7:    d(sin(x) x) = cos(x) x + sin(x)   = 0.5353895311 + 0.6442176872 = 1.1796072183
; EXEC:      1.470000
; EXEC-NEXT: 3.423380
; EXEC-NEXT: 3.423380
; EXEC-NEXT: 1.400000
; EXEC-NEXT: 1.179607
define void @run(i32 %n) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.7, i32 %n)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret void
}

define i32 @main() {
  call void @run(i32 0)
  call void @run(i32 1)
  call void @run(i32 2)
  call void @run(i32 3)
  call void @run(i32 7)
  ret i32 0
}
