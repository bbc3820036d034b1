; A select between two active values: its adjoint goes to the chosen operand
; only, as selects on the forward condition (adjoint or zero, zero or
; adjoint).  Both outcomes of the condition are run.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"

; f(x, y) = x > y ? x*x*y : sin(y)*x
define double @f(double %x, double %y) {
  %c = fcmp ogt double %x, %y
  %xx = fmul double %x, %x
  %a = fmul double %xx, %y
  %s = call double @llvm.sin.f64(double %y)
  %b = fmul double %s, %x
  %r = select i1 %c, double %a, double %b
  ret double %r
}

; CHECK-LABEL: define internal { double, double } @f.rev.aa.dret(double %x, double %y)
; CHECK:         %r = select i1 %c, double %a, double %b
; CHECK:         %r.d = load double, ptr %r.adj
; CHECK-NEXT:    store double -0.000000e+00, ptr %r.adj
; CHECK-NEXT:    [[TOA:%.*]] = select i1 %c, double %r.d, double 0.000000e+00
; CHECK-NEXT:    [[A0:%.*]] = load double, ptr %a.adj
; CHECK-NEXT:    [[A1:%.*]] = fadd double [[A0]], [[TOA]]
; CHECK-NEXT:    store double [[A1]], ptr %a.adj
; CHECK-NEXT:    [[TOB:%.*]] = select i1 %c, double 0.000000e+00, double %r.d
; CHECK-NEXT:    [[B0:%.*]] = load double, ptr %b.adj
; CHECK-NEXT:    [[B1:%.*]] = fadd double [[B0]], [[TOB]]
; CHECK-NEXT:    store double [[B1]], ptr %b.adj

; (3, 1), x > y:    df/dx = 2xy = 6,          df/dy = x^2 = 9
; (0.5, 2), x <= y: df/dx = sin(y) = 0.9092974268,
;                   df/dy = cos(y) x = -0.4161468365 * 0.5 = -0.2080734183
; EXEC:      6.000000 9.000000
; EXEC-NEXT: 0.909297 -0.208073
define void @run(double %x, double %y) {
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  %dx = extractvalue { double, double } %d, 0
  %dy = extractvalue { double, double } %d, 1
  call i32 (ptr, ...) @printf(ptr @fmt, double %dx, double %dy)
  ret void
}

define i32 @main() {
  call void @run(double 3.0, double 1.0)
  call void @run(double 0.5, double 2.0)
  ret i32 0
}
