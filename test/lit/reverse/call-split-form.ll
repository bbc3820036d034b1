; A call to a defined function becomes two calls: the callee's augmented
; forward half (g.aug...) where the call was, returning the primal result
; and the callee's tape by value, and its backward half (g.bwd...) in the
; reverse sweep, taking the result's adjoint and that tape and returning
; the adjoint of the active float argument.  The callee's shadow-memory
; adjoints (through q) are handled inside the halves.
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"

; g(a, q): *q = sin(a) * *q; return *q
define double @g(double %a, ptr %q) {
  %v = load double, ptr %q
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %v
  store double %m, ptr %q
  ret double %m
}

; f(x, q) = g(x^2, q) * x
define double @f(double %x, ptr %q) {
  %a = fmul double %x, %x
  %r = call double @g(double %a, ptr %q)
  %t = fmul double %r, %x
  ret double %t
}

; CHECK-LABEL: define internal double @f.rev.ad.dret(double %x, ptr %q, ptr %q.d)
; CHECK-NOT:     call double @g(
; CHECK:         [[AUG:%.*]] = call { [[TAPETY:.*]], double } @g.aug.ad.dret.pret.keepny(double %a, ptr %q, ptr %q.d)
; CHECK-DAG:     [[R:%.*]] = extractvalue { [[TAPETY]], double } [[AUG]], 1
; CHECK-DAG:     [[TAPE:%.*]] = extractvalue { [[TAPETY]], double } [[AUG]], 0
; CHECK:         %t = fmul double [[R]], %x
; CHECK-NOT:     call double @g(
; CHECK:         [[DA:%.*]] = call double @g.bwd.ad.dret.pret.keepny(double %a, ptr %q, ptr %q.d, double {{%.*}}, [[TAPETY]] [[TAPE]])
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr %a.adj
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], [[DA]]
; CHECK-NEXT:    store double [[NEW]], ptr %a.adj
; CHECK-NOT:     call double @g(
; CHECK:       {{^}$}}

; The augmented half runs g's forward code and returns its tape with the result.
; (".keepny": q is not written after the call, so the backward half may load
; it again; the double argument has no memory.)
; CHECK-LABEL: @g.aug.ad.dret.pret.keepny(double %0, ptr %1, ptr %2)
; CHECK:         %s = call double @llvm.sin.f64(double %0)
; CHECK:         store double %m, ptr %1
; CHECK:         ret { [[TAPETY]], double }
; The backward half has no forward code: its values come from the tape.
; CHECK-LABEL: define internal double @g.bwd.ad.dret.pret.keepny(
; CHECK-SAME:    double %0, ptr %1, ptr %2, double %3, [[TAPETY]] %4)
; CHECK-NOT:     call double @llvm.sin.f64
; CHECK-NOT:     store double %m
; CHECK:         extractvalue [[TAPETY]] %4
; CHECK-NOT:     call double @llvm.sin.f64
; CHECK:         call double @llvm.cos.f64(double %0)
; CHECK-NOT:     call double @llvm.sin.f64
; CHECK:       {{^}$}}

; a = x^2; outputs: the return t = sin(a) q0 x (seed 1) and the final
; q = sin(a) q0 (the caller's seed s = dq = 0.5).  x = 0.8, q0 = 3:
;   sin(0.64) = 0.5971954414, cos(0.64) = 0.8020957579
;   dx = q0 (2x^2 cos a + sin a) + s q0 cos(a) 2x
;      = 3 (1.0266825701 + 0.5971954414) + 0.5 * 3 * 0.8020957579 * 1.6
;      = 4.8716340345 + 1.9250298190 = 6.7966638533
;   dq = sin(a) x + s sin(a) = 0.4777563531 + 0.2985977207 = 0.7763540738
; EXEC: 6.796664 0.776354

@q = global double 3.0
@dq = global double 0.5

define i32 @main() {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.8, ptr @q, ptr @dq)
  %dq = load double, ptr @dq
  call i32 (ptr, ...) @printf(ptr @fmt, double %d, double %dq)
  ret i32 0
}
