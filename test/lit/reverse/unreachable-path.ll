; A block that ends in unreachable never reaches the return, so it gets no
; reverse block: the reverse sweep has one reverse block per forward block
; that reaches the return.  The active call on the dead path (log x) gets
; no adjoint, and the function still differentiates along the live path.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare void @abort() noreturn nounwind
declare double @log(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; f(x, n) = n < 0 ? abort() : x^3
define double @f(double %x, i32 %n) {
entry:
  %c = icmp slt i32 %n, 0
  br i1 %c, label %bad, label %ok
bad:
  %l = call double @log(double %x)
  call void @abort()
  unreachable
ok:
  %xx = fmul double %x, %x
  %r = fmul double %xx, %x
  ret double %r
}

; CHECK-LABEL: define internal double @f.rev.ac.dret(double %x, i32 %n)
; CHECK-NOT:     bad.rev
; CHECK-NOT:     %l.adj
; CHECK:       bad:
; CHECK-NEXT:    %l = call double @log(double %x)
; CHECK-NEXT:    call void @abort()
; CHECK-NEXT:    unreachable
; CHECK-NOT:     bad.rev
; CHECK-NOT:     %l.adj
; CHECK:       ok.rev:
; CHECK-NOT:     bad.rev
; CHECK-NOT:     %l.adj
; CHECK:       {{^}$}}

; df/dx = 3x^2 at 1.5 = 6.75
; EXEC: 6.750000
define i32 @main() {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 1.5, i32 2)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret i32 0
}
