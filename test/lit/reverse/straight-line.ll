; Reverse mode on straight-line code with default activities: two float
; arguments are enzyme_out, the call returns both adjoints as a struct, the
; return is seeded with 1.0, and an argument used three times (fan-out)
; receives the sum of the three contributions.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"

; f(x, y) = x*y + sin(x) + x/y
define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  %s = call double @llvm.sin.f64(double %x)
  %q = fdiv double %x, %y
  %a = fadd double %m, %s
  %r = fadd double %a, %q
  ret double %r
}

; The request becomes a call of the derivative with both arguments active.
; CHECK-LABEL: define i32 @main()
; CHECK:         call { double, double } @f.rev.aa.dret(double 2.000000e+00, double 3.000000e+00)
; CHECK-NOT:     @__enzyme_autodiff

; The partial of sin is cos, evaluated at the primal x.
; CHECK-LABEL: define internal { double, double } @f.rev.aa.dret(double %x, double %y)
; CHECK:         call double @llvm.cos.f64(double %x)
; CHECK:         ret { double, double }

; df/dx = y + cos(x) + 1/y   at (2, 3): 3 + cos(2) + 1/3 = 2.9171864968
; df/dy = x - x/y^2          at (2, 3): 2 - 2/9          = 1.7777777778
; EXEC: 2.917186 1.777778
define i32 @main() {
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double 2.0, double 3.0)
  %dx = extractvalue { double, double } %d, 0
  %dy = extractvalue { double, double } %d, 1
  call i32 (ptr, ...) @printf(ptr @fmt, double %dx, double %dy)
  ret i32 0
}
