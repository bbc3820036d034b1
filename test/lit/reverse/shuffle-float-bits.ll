; A shuffle of integer lanes that hold floats' bits (two floats loaded as
; <2 x i32>, swapped, stored back): each lane's adjoint is added as a float
; of its width, never with an integer fadd (invalid IR; the case comes from
; llvm-stress through tools/fuzz/stress.py).  At width 2 the same holds lane
; by lane.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines
; p = {a, b} becomes {b, a + a*a}: with both adjoints 1, dp = {1 + 2a, 1}
; = {7, 1} at a = 3 (b = 5), and the same in each lane at width 2.
; EXEC: 7.000000 1.000000
; EXEC-NEXT: 7.000000 1.000000 7.000000 1.000000

declare void @__enzyme_autodiff(ptr, ...)
@enzyme_width = external global i32

define void @swap(ptr %p) {
  %v = load <2 x i32>, ptr %p, align 8
  %s = shufflevector <2 x i32> %v, <2 x i32> poison, <2 x i32> <i32 1, i32 0>
  %f = load float, ptr %p, align 4
  %g = fmul float %f, %f
  store <2 x i32> %s, ptr %p, align 8
  %q = getelementptr float, ptr %p, i64 1
  %h = load float, ptr %q, align 4
  %k = fadd float %h, %g
  store float %k, ptr %q, align 4
  ret void
}

define void @grad(ptr %p, ptr %dp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @swap, ptr %p, ptr %dp)
  ret void
}

define void @grad2(ptr %p, ptr %dp0, ptr %dp1) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @swap, ptr @enzyme_width, i32 2, ptr %p, ptr %dp0, ptr %dp1)
  ret void
}

declare i32 @printf(ptr, ...)
@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"
@fmt2 = private constant [21 x i8] c"%.6f %.6f %.6f %.6f\0A\00"

define i32 @main() {
  %p = alloca [2 x float]
  %d = alloca [2 x float]
  %e = alloca [2 x float]
  store [2 x float] [float 3.0, float 5.0], ptr %p
  store [2 x float] [float 1.0, float 1.0], ptr %d
  call void @grad(ptr %p, ptr %d)
  %d0 = load float, ptr %d
  %d1p = getelementptr float, ptr %d, i64 1
  %d1 = load float, ptr %d1p
  %x0 = fpext float %d0 to double
  %x1 = fpext float %d1 to double
  call i32 (ptr, ...) @printf(ptr @fmt, double %x0, double %x1)
  store [2 x float] [float 3.0, float 5.0], ptr %p
  store [2 x float] [float 1.0, float 1.0], ptr %d
  store [2 x float] [float 1.0, float 1.0], ptr %e
  call void @grad2(ptr %p, ptr %d, ptr %e)
  %a0 = load float, ptr %d
  %a1 = load float, ptr %d1p
  %e1p = getelementptr float, ptr %e, i64 1
  %b0 = load float, ptr %e
  %b1 = load float, ptr %e1p
  %y0 = fpext float %a0 to double
  %y1 = fpext float %a1 to double
  %y2 = fpext float %b0 to double
  %y3 = fpext float %b1 to double
  call i32 (ptr, ...) @printf(ptr @fmt2, double %y0, double %y1, double %y2, double %y3)
  ret i32 0
}

; CHECK-LABEL: define internal void @swap.rev.d(
; CHECK-NOT: fadd {{.*}}i32
; CHECK: fadd float
; CHECK-LABEL: define internal void @swap.rev.w2.d(
; CHECK-NOT: fadd {{.*}}i32
; CHECK: fadd float
