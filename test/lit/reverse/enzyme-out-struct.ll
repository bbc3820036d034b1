; Explicit markers: enzyme_out, enzyme_const, enzyme_out.  The derivative
; takes the three primal arguments, gives the constant one no adjoint at all,
; and returns the two active adjoints, in argument order, as the { double,
; double } the request is declared with.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

@enzyme_out = external global i32
@enzyme_const = external global i32

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @llvm.exp.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"

; f(x, k, y) = x*x*k + exp(y)*x
define double @f(double %x, double %k, double %y) {
  %xx = fmul double %x, %x
  %a = fmul double %xx, %k
  %e = call double @llvm.exp.f64(double %y)
  %b = fmul double %e, %x
  %r = fadd double %a, %b
  ret double %r
}

; CHECK-LABEL: define i32 @main()
; CHECK:         call { double, double } @f.rev.aca.dret(double 1.500000e+00, double 4.000000e+00, double 5.000000e-01)

; The constant k scales the adjoint of a on its way to xx, and has no
; accumulator of its own anywhere in the derivative.
; CHECK-LABEL: define internal { double, double } @f.rev.aca.dret(double %x, double %k, double %y)
; CHECK-NOT:     %k.adj
; CHECK:         fmul double %k, %a.d
; CHECK-NOT:     %k.adj
; CHECK:       {{^}$}}

; df/dx = 2xk + exp(y)  at (1.5, 4, 0.5): 12 + e^0.5 = 13.6487212707
; df/dy = exp(y) x      at (1.5, 4, 0.5): 1.5 e^0.5  = 2.4730819061
; EXEC: 13.648721 2.473082
define i32 @main() {
  %o = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %o, double 1.5, i32 %c, double 4.0, i32 %o, double 0.5)
  %dx = extractvalue { double, double } %d, 0
  %dy = extractvalue { double, double } %d, 1
  call i32 (ptr, ...) @printf(ptr @fmt, double %dx, double %dy)
  ret i32 0
}
