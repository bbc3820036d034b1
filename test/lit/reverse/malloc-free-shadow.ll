; A heap buffer the function allocates and frees.  The forward sweep
; allocates a shadow of the same size next to it and zeroes it; the primal
; free happens in the forward sweep, but the shadow must outlive it: the
; adjoints of the loads and stores through the buffer go through the
; shadow in the reverse sweep.  The free's reverse records the shadow as
; live, the malloc's reverse (the end of the shadow's life) takes it back
; and frees it.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; buf = malloc(2 doubles); buf[0] = x^2; buf[1] = sin(x);
; m = buf[0] * sin(x); free(buf); return m
define double @f(double %x) {
  %buf = call ptr @malloc(i64 16)
  %p1 = getelementptr inbounds double, ptr %buf, i64 1
  %xx = fmul double %x, %x
  store double %xx, ptr %buf
  %sx = call double @llvm.sin.f64(double %x)
  store double %sx, ptr %p1
  %a = load double, ptr %buf
  %b = load double, ptr %p1
  %m = fmul double %a, %b
  call void @free(ptr %buf)
  ret double %m
}

; CHECK-LABEL: define internal double @f.rev.a.dret(double %x)
; CHECK:         %buf = call ptr @malloc(i64 16)
; CHECK-NEXT:    [[SH:%.*]] = call ptr @malloc(i64 16)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr [[SH]], i8 0, i64 16, i1 false)
; CHECK-NOT:     @free(ptr [[SH]])
; CHECK:         call void @free(ptr %buf)
; CHECK-NOT:     @free(ptr [[SH]])
; The free's reverse: the shadow goes on the list of live shadows.
; CHECK:       .rev:
; CHECK:         store ptr [[SH]], ptr
; CHECK-NOT:     @free(ptr [[SH]])
; The reverse of the load of buf[0] adds a's adjoint into the shadow ...
; CHECK:         [[O:%.*]] = load double, ptr [[SH]]
; CHECK-NEXT:    [[N:%.*]] = fadd double [[O]], %a.d
; CHECK-NEXT:    store double [[N]], ptr [[SH]]
; CHECK-NOT:     @free(ptr [[SH]])
; ... the reverse of the store of x^2 takes it out.
; CHECK:         [[XXD:%.*]] = load double, ptr [[SH]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[SH]]
; CHECK-NOT:     @free(ptr [[SH]])
; The malloc's reverse, last: the shadow is taken off the list and freed.
; CHECK:         [[T:%.*]] = call ptr @gpuad.shadow.take(ptr {{%.*}}, ptr %shadow.list.length, ptr [[SH]])
; CHECK-NEXT:    call void @free(ptr [[T]])
; CHECK-NEXT:    br label %reverse.exit

; f(x) = x^2 sin(x), df/dx = 2x sin(x) + x^2 cos(x)
; at 1.5: 2.9924849598 + 0.1591587038 = 3.1516436636
; EXEC: 3.151644
define i32 @main() {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 1.5)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret i32 0
}
