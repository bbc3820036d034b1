; The adjoint of a memcpy of doubles: the forward sweep copies only the
; primal (shadows hold adjoints, which flow backwards), and the reverse
; sweep moves the destination shadow into the source shadow element by
; element -- add to dsrc[k], zero ddst[k] -- for the 24 / 8 = 3 doubles.
; The destination's old contents are overwritten, so their adjoint is 0.
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare i32 @printf(ptr, ...)

@fmt = private constant [16 x i8] c"%.6f %.6f %.6f\0A\00"

; memcpy(y, x, 3 doubles); y[1] = y[1] * y[2]; return y[0] * y[1]
define double @f(ptr %x, ptr %y) {
  call void @llvm.memcpy.p0.p0.i64(ptr %y, ptr %x, i64 24, i1 false)
  %p1 = getelementptr inbounds double, ptr %y, i64 1
  %p2 = getelementptr inbounds double, ptr %y, i64 2
  %y1 = load double, ptr %p1
  %y2 = load double, ptr %p2
  %m = fmul double %y1, %y2
  store double %m, ptr %p1
  %y0 = load double, ptr %y
  %r = fmul double %y0, %m
  ret double %r
}

; CHECK-LABEL: define internal void @f.rev.dd.dret(ptr %x, ptr %x.d, ptr %y, ptr %y.d)
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr %y, ptr %x, i64 24, i1 false)
; CHECK-NOT:     call void @llvm.memcpy
; CHECK:       adj.move:
; CHECK-NEXT:    %k = phi i64
; CHECK-NEXT:    [[DD:%.*]] = getelementptr double, ptr %y.d, i64 %k
; CHECK-NEXT:    [[A:%.*]] = load double, ptr [[DD]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[DD]]
; CHECK-NEXT:    [[DS:%.*]] = getelementptr double, ptr %x.d, i64 %k
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr [[DS]]
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], [[A]]
; CHECK-NEXT:    store double [[NEW]], ptr [[DS]]
; CHECK-NEXT:    [[K1:%.*]] = add i64 %k, 1
; CHECK-NEXT:    [[END:%.*]] = icmp eq i64 [[K1]], 3
; CHECK-NOT:     call void @llvm.memcpy
; CHECK:       {{^}$}}

; Returned: r = x0 x1 x2, seeded with 1.  Final y = (x0, x1 x2, x2) with the
; caller's seeds s = dy = (1, 0.5, 0.25).  x = (2, 3, 5):
;   dx0 = x1 x2 + s0                   = 15 + 1            = 16
;   dx1 = x0 x2 + s1 x2                = 10 + 2.5          = 12.5
;   dx2 = x0 x1 + s1 x1 + s2           = 6 + 1.5 + 0.25    = 7.75
;   dy  = 0 (y's contents on entry do not reach any output)
; EXEC:      16.000000 12.500000 7.750000
; EXEC-NEXT: 0.000000 0.000000 0.000000

@x = global [3 x double] [double 2.0, double 3.0, double 5.0]
@dx = global [3 x double] zeroinitializer
@y = global [3 x double] [double 7.0, double 7.0, double 7.0]
@dy = global [3 x double] [double 1.0, double 0.5, double 0.25]

define void @print(ptr %a) {
  %a0 = load double, ptr %a
  %p1 = getelementptr double, ptr %a, i64 1
  %a1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %a, i64 2
  %a2 = load double, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt, double %a0, double %a1, double %a2)
  ret void
}

define i32 @main() {
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @x, ptr @dx, ptr @y, ptr @dy)
  call void @print(ptr @dx)
  call void @print(ptr @dy)
  ret i32 0
}
